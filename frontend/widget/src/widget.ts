import { AnswerView } from "./answer-view";
import { ApiError, type AskInput, WidgetApi } from "./api";
import { h, icon, ICONS } from "./dom";
import { splitTitle } from "./markdown";
import { STYLES } from "./styles";
import type { Answer, Binge, GuruInfo, WidgetConfig } from "./types";

const FOCUSABLE =
  'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The launcher button and the dialog, inside a shadow root on a host element of our own. */
export class Widget {
  private readonly api: WidgetApi;
  private readonly root: HTMLElement;
  private readonly launcher: HTMLButtonElement;
  private readonly panel: HTMLElement;
  private readonly heading = h("h2", { id: "og-title" });
  private readonly avatar = h("img", { alt: "", hidden: true });
  // The documentation version asked about, when the guru has several.
  private readonly version = h("select", {
    "aria-label": "Version",
    "data-part": "version",
    hidden: true,
  });
  private readonly log = h("div", { class: "log" });
  private readonly input = h("textarea", {
    rows: "1",
    "aria-label": "Your question",
    placeholder: "Ask a question…",
  });
  private readonly submit = h("button", { type: "submit", "aria-label": "Send" }, icon(ICONS.send));
  private guru: GuruInfo | null = null;
  private guruLoad: Promise<GuruInfo | null> | null = null;
  private binge: Binge | null = null;
  private last: Answer | null = null;
  private busy: AbortController | null = null;

  constructor(private readonly config: WidgetConfig) {
    this.api = new WidgetApi(config);
    const label = config.name ? `Ask ${config.name}` : "Ask AI";
    this.launcher = h(
      "button",
      {
        class: "launcher",
        type: "button",
        "aria-label": label,
        "aria-haspopup": "dialog",
        "aria-expanded": "false",
        onclick: () => this.open(),
      },
      icon(ICONS.chat),
      h("span", {}, label),
    );
    const close = h(
      "button",
      { class: "icon-button", type: "button", "aria-label": "Close", onclick: () => this.close() },
      icon(ICONS.close),
    );
    const form = h(
      "form",
      { class: "ask", onsubmit: (event: Event) => this.onSubmit(event) },
      this.input,
      this.submit,
    );
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) this.onSubmit(event);
    });
    this.panel = h(
      "div",
      {
        class: "panel",
        role: "dialog",
        "aria-modal": "true",
        "aria-labelledby": "og-title",
        hidden: true,
      },
      h("header", {}, this.avatar, this.heading, this.version, close),
      this.log,
      form,
    );
    this.panel.addEventListener("keydown", (event) => this.onKey(event));
    this.heading.textContent = config.name || "Ask AI";
    this.root = h("div", { class: "og", "data-mode": config.mode }, this.launcher, this.panel);
  }

  mount(): void {
    const host = document.createElement("openguru-widget");
    // The host page's CSS can still style our host element itself: pin what matters inline.
    host.setAttribute("style", "all: initial !important; display: contents !important;");
    const shadow = host.attachShadow({ mode: "open" });
    shadow.append(h("style", {}, STYLES), this.root);
    document.body.append(host);
    this.applyTheme();
    this.guruLoad = this.loadGuru();
  }

  private applyTheme(): void {
    const { theme } = this.config;
    if (theme !== "auto") {
      this.root.dataset.theme = theme;
      return;
    }
    const dark = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => (this.root.dataset.theme = dark.matches ? "dark" : "light");
    follow();
    dark.addEventListener("change", follow);
  }

  private async loadGuru(): Promise<GuruInfo | null> {
    try {
      const guru = await this.api.guru();
      this.guru = guru;
      this.showGuru(guru);
      return guru;
    } catch (error) {
      this.showIntro(this.errorBox(error, () => void this.retryGuru()));
      return null;
    }
  }

  /** The guru's greeting (or why it could not load) fills the log until the first question:
   * a slow guru call must not wipe a conversation the reader started before it answered. */
  private showIntro(node: HTMLElement): void {
    if (this.log.querySelector(".question")) return;
    this.log.replaceChildren(node);
  }

  private async retryGuru(): Promise<void> {
    this.showIntro(h("p", { class: "thinking" }, "Connecting"));
    this.guruLoad = this.loadGuru();
    await this.guruLoad;
  }

  private showGuru(guru: GuruInfo): void {
    const name = this.config.name || guru.name;
    this.heading.textContent = name;
    const label = `Ask ${name}`;
    this.launcher.setAttribute("aria-label", label);
    this.launcher.lastChild!.textContent = label;
    const color = guru.colors?.base_color ?? "";
    if (color && CSS.supports("color", color)) this.root.style.setProperty("--accent", color);
    if (/^https?:\/\//i.test(guru.icon_url ?? "")) {
      this.avatar.src = guru.icon_url;
      this.avatar.hidden = false;
    }
    this.showVersions(guru.versions ?? [], guru.default_version ?? "");
    const examples = (guru.example_questions ?? [])
      .slice(0, 4)
      .map((question) =>
        h(
          "button",
          { class: "chip", type: "button", onclick: () => void this.ask(question) },
          question,
        ),
      );
    this.showIntro(
      h(
        "div",
        { class: "intro" },
        h("p", {}, `Ask anything about ${name}. Answers cite their sources.`),
        examples.length ? h("div", { class: "examples" }, ...examples) : null,
      ),
    );
  }

  private showVersions(versions: string[], chosen: string): void {
    this.version.replaceChildren(
      ...versions.map((version) => h("option", { value: version }, version)),
    );
    this.version.value = chosen;
    this.version.hidden = versions.length < 2;
  }

  private errorBox(error: unknown, retry: () => void): HTMLElement {
    const message = error instanceof ApiError ? error.message : "Something went wrong.";
    return h(
      "div",
      { class: "error", role: "alert", "data-part": "error" },
      h("p", {}, message),
      h("button", { class: "secondary", type: "button", onclick: retry }, "Retry"),
    );
  }

  open(): void {
    this.panel.hidden = false;
    this.launcher.hidden = true;
    this.launcher.setAttribute("aria-expanded", "true");
    this.input.focus();
  }

  close(): void {
    this.panel.hidden = true;
    this.launcher.hidden = false;
    this.launcher.setAttribute("aria-expanded", "false");
    this.launcher.focus();
  }

  /** Esc closes; Tab and Shift+Tab cycle inside the dialog while it is open. */
  private onKey(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      event.preventDefault();
      this.close();
      return;
    }
    if (event.key !== "Tab") return;
    const items = Array.from(this.panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (item) => !item.closest("[hidden]") && item.getClientRects().length > 0,
    );
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    const active = (this.panel.getRootNode() as ShadowRoot).activeElement;
    if (event.shiftKey && (active === first || !this.panel.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !this.panel.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  private onSubmit(event: Event): void {
    event.preventDefault();
    const question = this.input.value.trim();
    if (!question || this.busy) return;
    this.input.value = "";
    void this.ask(question);
  }

  private setBusy(controller: AbortController | null): void {
    this.busy = controller;
    this.submit.disabled = controller !== null;
  }

  /** Asks a question; after the first answer every question is a follow-up in one binge. */
  async ask(question: string): Promise<void> {
    if (this.busy) return;
    // The first question replaces the greeting (or the guru's load error) in the log.
    if (!this.log.querySelector(".question")) this.log.replaceChildren();
    this.log.append(h("p", { class: "question" }, question));
    await this.attempt(question);
  }

  private async attempt(question: string): Promise<void> {
    const view = new AnswerView(question);
    this.log.append(view.element);
    // Scroll the conversation only: scrollIntoView could scroll the host page as well.
    this.log.scrollTop = this.log.scrollHeight;
    const controller = new AbortController();
    this.setBusy(controller);
    const retry = () => {
      view.element.remove();
      void this.attempt(question);
    };
    try {
      const guru = this.guru ?? (await this.guruLoad) ?? (await this.api.guru());
      this.guru = guru;
      const input = await this.askInput(question);
      let streamed = "";
      const onText = (text: string) => view.update((streamed = text));
      await this.api.askStream(input, onText, controller.signal).catch(interrupted);
      const answer = await this.api
        .askResult(input, controller.signal)
        .catch((error: unknown) => unsaved(error, streamed));
      this.last = answer;
      view.finish(answer, (type, feedback) =>
        this.api.vote(guru.slug, answer, this.binge?.id ?? null, type, feedback),
      );
      this.setBusy(null);
      this.input.focus();
      const suggestions = await this.api
        .followUps(guru.slug, answer, this.binge?.id ?? null)
        .catch(() => []);
      view.suggest(suggestions, (next) => void this.ask(next));
    } catch (error) {
      view.fail(error, retry);
    } finally {
      if (this.busy === controller) this.setBusy(null);
    }
  }

  private async askInput(question: string): Promise<AskInput> {
    const version = this.version.hidden ? {} : { version: this.version.value };
    if (!this.last) return { question, parent_slug: null, binge_id: null, ...version };
    // The first follow-up opens a binge rooted at the first answer; later ones reuse it.
    this.binge ??= await this.api.bingeCreate(this.last.slug);
    return { question, parent_slug: this.last.slug, binge_id: this.binge.id, ...version };
  }
}

/** No saved answer after a stream: the engine failed mid-answer, and its words end the stream. */
function unsaved(error: unknown, streamed: string): never {
  if (!(error instanceof ApiError) || error.status !== 404) throw error;
  const last =
    splitTitle(streamed)
      .body.trim()
      .split(/\n\s*\n/)
      .pop() ?? "";
  const reason = last.length > 0 && last.length <= 300 ? ` ${last}` : "";
  throw new ApiError(`The answer could not be completed.${reason}`, 404);
}

function interrupted(error: unknown): never {
  if (error instanceof ApiError) throw error;
  throw new ApiError("The answer was interrupted. Please try again.", 0);
}
