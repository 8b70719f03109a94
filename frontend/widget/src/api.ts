import type { Answer, Binge, GuruInfo, VoteType, WidgetConfig } from "./types";

/** A failed call, in words a reader understands. `polite` is a refusal, not a fault. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly polite = false,
  ) {
    super(message);
  }
}

const STATUS_WORDS: Record<number, string> = {
  401: "This site is not allowed to use this assistant.",
  429: "Too many questions at once. Please wait a moment and try again.",
};

// A browser hides why a cross-origin call failed: a site the widget id does not allow is refused
// at the CORS preflight, which looks exactly like a dropped connection.
const UNREACHABLE =
  "Could not reach the assistant. This site may not be allowed to use it, or the connection failed.";

async function errorFrom(response: Response): Promise<ApiError> {
  let body: { msg?: unknown; not_error?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // A proxy's HTML error page: fall back to the status's words.
  }
  const message =
    typeof body.msg === "string" && body.msg
      ? body.msg
      : (STATUS_WORDS[response.status] ?? `The assistant failed (HTTP ${response.status}).`);
  return new ApiError(message, response.status, body.not_error === true);
}

export interface AskInput {
  question: string;
  parent_slug: string | null;
  binge_id: string | null;
  version?: string;
}

export class WidgetApi {
  constructor(private readonly config: WidgetConfig) {}

  private async call(path: string, init: RequestInit = {}): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.config.baseUrl}/${path}`, {
        ...init,
        headers: {
          Authorization: this.config.widgetId,
          ...(this.config.token ? { "X-Widget-Token": this.config.token } : {}),
          ...(init.body ? { "Content-Type": "application/json" } : {}),
        },
        credentials: "omit",
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") throw error;
      throw new ApiError(UNREACHABLE, 0);
    }
    if (!response.ok) throw await errorFrom(response);
    return response;
  }

  private post(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    return this.call(path, { method: "POST", body: JSON.stringify(body), signal });
  }

  async guru(): Promise<GuruInfo> {
    return (await (await this.call("widget/guru/")).json()) as GuruInfo;
  }

  /** Streams the raw markdown answer: `onText` gets everything received so far. */
  async askStream(input: AskInput, onText: (text: string) => void, signal: AbortSignal) {
    const response = await this.post("widget/ask/", { ...input, fetch_existing: false }, signal);
    const reader = response.body?.getReader();
    if (!reader) {
      onText(await response.text());
      return;
    }
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      onText(text);
    }
    text += decoder.decode();
    onText(text);
  }

  /** The stored answer (slug, references, trust score) once the stream is over. */
  async askResult(input: AskInput, signal: AbortSignal): Promise<Answer> {
    const response = await this.post("widget/ask/", { ...input, fetch_existing: true }, signal);
    return (await response.json()) as Answer;
  }

  async bingeCreate(rootSlug: string): Promise<Binge> {
    return (await (await this.post("widget/binge/", { root_slug: rootSlug })).json()) as Binge;
  }

  async followUps(guruSlug: string, answer: Answer, bingeId: string | null): Promise<string[]> {
    const response = await this.post(`${encodeURIComponent(guruSlug)}/follow_up/examples/`, {
      binge_id: bingeId,
      question_slug: answer.slug,
      question_text: answer.question,
      widget: true,
    });
    const body: unknown = await response.json();
    return Array.isArray(body)
      ? body.filter((item): item is string => typeof item === "string")
      : [];
  }

  async vote(
    guruSlug: string,
    answer: Answer,
    bingeId: string | null,
    type: VoteType,
    feedback: string,
  ) {
    await this.post(`${encodeURIComponent(guruSlug)}/record_vote/`, {
      content_slug: answer.slug,
      binge_id: bingeId,
      vote_type: type,
      feedback,
    });
  }
}
