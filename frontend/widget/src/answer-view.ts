import { ApiError } from "./api";
import { h, icon, ICONS, referenceIcon } from "./dom";
import { markdownFragment, splitTitle } from "./markdown";
import type { Answer, VoteType } from "./types";

export type Voter = (type: VoteType, feedback: string) => Promise<void>;

/** One answer in the conversation: streamed markdown, then its sources, score and votes. */
export class AnswerView {
  readonly element: HTMLElement;
  private readonly title = h("h3", { hidden: true });
  private readonly body = h("div", {
    class: "body",
    "aria-live": "polite",
    "aria-busy": "true",
    "data-part": "answer",
  });
  private readonly meta = h("div", { class: "meta", hidden: true });
  private pending = 0;
  private latest = "";

  /** `asked`: the question as typed, shown above; a title that only repeats it stays hidden. */
  constructor(private readonly asked: string) {
    this.body.append(h("span", { class: "thinking" }, "Thinking"));
    this.element = h("article", { class: "answer" }, this.title, this.body, this.meta);
  }

  /** Shows everything received so far, re-rendered whole so half-open markdown closes. */
  update(text: string): void {
    this.latest = text;
    // Chunks can arrive faster than frames: render at most once per frame, the latest text.
    if (!this.pending) this.pending = requestAnimationFrame(() => this.render());
  }

  private render(): void {
    this.pending = 0;
    const { title, body } = splitTitle(this.latest);
    this.title.textContent = title;
    this.title.hidden = !title || title.toLowerCase() === this.asked.trim().toLowerCase();
    if (body) this.body.replaceChildren(markdownFragment(body));
  }

  finish(answer: Answer, vote: Voter): void {
    if (this.pending) cancelAnimationFrame(this.pending);
    // The stored answer is the whole text: it wins over whatever the stream delivered.
    const streamed = splitTitle(this.latest);
    const stored = splitTitle(answer.content ?? "");
    if (stored.body)
      this.latest = `# ${stored.title || streamed.title || answer.question}\n${stored.body}`;
    this.render();
    this.body.setAttribute("aria-busy", "false");
    this.meta.replaceChildren(
      ...[trustScore(answer.trust_score), references(answer), votes(vote)].filter(
        (node): node is HTMLElement => node !== null,
      ),
    );
    this.meta.hidden = false;
  }

  /** A refusal is an answer in words, not a fault; anything else offers to try again. */
  fail(error: unknown, retry: () => void): void {
    if (this.pending) cancelAnimationFrame(this.pending);
    this.body.setAttribute("aria-busy", "false");
    const message = error instanceof ApiError ? error.message : "Something went wrong.";
    if (error instanceof ApiError && error.polite) {
      this.body.replaceChildren(h("p", { class: "notice", "data-part": "notice" }, message));
      return;
    }
    const again = h("button", { class: "secondary", type: "button", onclick: retry }, "Retry");
    this.body.replaceChildren(
      h("div", { class: "error", role: "alert" }, h("p", {}, message), again),
    );
    again.focus();
  }

  suggest(questions: string[], ask: (question: string) => void): void {
    if (!questions.length) return;
    const chips = questions.map((question) =>
      h("button", { class: "chip", type: "button", onclick: () => ask(question) }, question),
    );
    this.meta.append(
      h(
        "div",
        { class: "suggestions", "data-part": "suggestions" },
        h("strong", {}, "Follow-up questions"),
        h("div", { class: "examples" }, ...chips),
      ),
    );
  }
}

function trustScore(score: number): HTMLElement | null {
  if (!Number.isFinite(score)) return null;
  const percent = Math.max(0, Math.min(100, Math.round(score)));
  const bar = h("span", { class: "trust-bar", "aria-hidden": "true" }, h("span", {}));
  (bar.firstChild as HTMLElement).style.width = `${percent}%`;
  return h("div", { class: "trust", "data-part": "trust" }, `Trust score: ${percent}%`, bar);
}

/** Every source, numbered as the answer's inline citations ([1], [2]) number them; only web
 * links are links (a pasted text or private file has a title alone). */
function references(answer: Answer): HTMLElement | null {
  if (!answer.references.length) return null;
  const list = h(
    "ol",
    { class: "refs" },
    ...answer.references.map((ref, index) => {
      const title = ref.question || ref.link || `Source ${index + 1}`;
      const number = h(
        "span",
        { class: "ref-number", "data-citation": String(index + 1) },
        `[${index + 1}]`,
      );
      const body = /^https?:\/\//i.test(ref.link)
        ? h(
            "a",
            { href: ref.link, target: "_blank", rel: "noopener noreferrer" },
            referenceIcon(ref.icon),
            title,
          )
        : h("span", {}, referenceIcon(ref.icon), title);
      return h("li", {}, number, body);
    }),
  );
  return h("div", { "data-part": "references" }, h("strong", {}, "Sources"), list);
}

function votes(vote: Voter): HTMLElement {
  const status = h("span", { role: "status" });
  const feedback = h("textarea", {
    "aria-label": "Feedback (optional)",
    placeholder: "What was good or missing? (optional)",
  });
  const form = h("div", { class: "feedback", hidden: true });
  let chosen: VoteType = "upvote";
  const thumbs = (type: VoteType, label: string, path: string) =>
    h(
      "button",
      {
        class: "icon-button",
        type: "button",
        "aria-label": label,
        "aria-pressed": "false",
        "data-vote": type,
        onclick: () => choose(type),
      },
      icon(path),
    );
  const up = thumbs("upvote", "Helpful", ICONS.up);
  const down = thumbs("downvote", "Not helpful", ICONS.down);
  const send = h(
    "button",
    { class: "primary", type: "button", onclick: () => void submit() },
    "Send",
  );
  form.append(feedback, h("div", { class: "row" }, send));

  function choose(type: VoteType): void {
    chosen = type;
    up.setAttribute("aria-pressed", String(type === "upvote"));
    down.setAttribute("aria-pressed", String(type === "downvote"));
    form.hidden = false;
    feedback.focus();
  }

  async function submit(): Promise<void> {
    send.disabled = true;
    try {
      await vote(chosen, feedback.value.trim());
      form.remove();
      up.disabled = down.disabled = true;
      status.textContent = "Thanks for your feedback.";
    } catch (error) {
      send.disabled = false;
      status.textContent = error instanceof ApiError ? error.message : "Could not send your vote.";
    }
  }

  return h(
    "div",
    { "data-part": "votes" },
    h("div", { class: "votes" }, "Was this helpful?", up, down, status),
    form,
  );
}
