/**
 * The site's calls that change something: asking, voting, starting a binge. Asking is a POST,
 * which EventSource cannot send, so the stream is read from the response body and parsed here;
 * the request itself and its failures go through the one API client.
 */
import { ApiError, apiJson, apiRequest, errorFromBody, guruPath, INVALID } from "@/lib/api/client";
import { isRecord } from "@/lib/json";

import { parseReferences, type Reference } from "./types";

export interface AskParams {
  guruSlug: string;
  question: string;
  bingeId?: string | null;
  parentSlug?: string | null;
  /** A documentation version of the guru; absent: the one the question names, else the default. */
  version?: string;
}

export interface StreamMeta {
  slug: string;
  references: Reference[];
  trust_score: number;
  refused: boolean;
}

export interface StreamDone extends StreamMeta {
  question: string;
  content: string;
  binge_id: string | null;
  date_updated: string;
}

export type StreamEvent =
  | { type: "meta"; meta: StreamMeta }
  | { type: "delta"; text: string }
  | { type: "done"; done: StreamDone }
  | { type: "error"; error: ApiError };

interface RawEvent {
  name: string;
  data: string;
}

/** Splits a text/event-stream into events; `push` takes chunks as they arrive. */
export class SseParser {
  private buffer = "";

  push(chunk: string): RawEvent[] {
    this.buffer += chunk.replace(/\r\n?/g, "\n");
    const events: RawEvent[] = [];
    let end = this.buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = parseBlock(block);
      if (event) events.push(event);
      end = this.buffer.indexOf("\n\n");
    }
    return events;
  }
}

function parseBlock(block: string): RawEvent | null {
  let name = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  return data.length ? { name, data: data.join("\n") } : null;
}

function parseMeta(data: Record<string, unknown>): StreamMeta {
  return {
    slug: typeof data.slug === "string" ? data.slug : "",
    references: parseReferences(data.references),
    trust_score: typeof data.trust_score === "number" ? data.trust_score : 0,
    refused: data.refused === true,
  };
}

function toEvent(raw: RawEvent): StreamEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(raw.data);
  } catch {
    return null;
  }
  if (!isRecord(data)) return null;
  switch (raw.name) {
    case "meta":
      return { type: "meta", meta: parseMeta(data) };
    case "delta":
      return { type: "delta", text: typeof data.text === "string" ? data.text : "" };
    case "done":
      return {
        type: "done",
        done: {
          ...parseMeta(data),
          question: typeof data.question === "string" ? data.question : "",
          content: typeof data.content === "string" ? data.content : "",
          binge_id: typeof data.binge_id === "string" ? data.binge_id : null,
          date_updated: typeof data.date_updated === "string" ? data.date_updated : "",
        },
      };
    case "error":
      return { type: "error", error: errorFromBody(200, data, "The answer failed.") };
    default:
      return null;
  }
}

/** POSTs the question and yields the stream's events as they arrive. */
export async function* askStream(
  params: AskParams,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const body: Record<string, string> = { question: params.question };
  if (params.bingeId) body.binge_id = params.bingeId;
  if (params.parentSlug) body.parent_slug = params.parentSlug;
  if (params.version) body.version = params.version;
  const response = await apiRequest(`${guruPath(params.guruSlug)}/answer/stream/`, {
    method: "POST",
    json: body,
    accept: "text/event-stream",
    signal,
  });
  if (!response.body) throw new ApiError(response.status, INVALID, "The answer did not stream.");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    for (const raw of parser.push(value)) {
      const event = toEvent(raw);
      if (event) yield event;
    }
  }
}

export type VoteType = "upvote" | "downvote";

export async function sendVote(
  guruSlug: string,
  questionSlug: string,
  vote: { vote_type: VoteType; feedback?: string; binge_id?: string | null },
): Promise<{ upvotes: number; downvotes: number }> {
  const body = await apiJson<unknown>(
    `${guruPath(guruSlug)}/questions/${encodeURIComponent(questionSlug)}/vote/`,
    {
      method: "POST",
      json: vote.binge_id ? vote : { vote_type: vote.vote_type, feedback: vote.feedback },
    },
  );
  const counts = isRecord(body) ? body : {};
  return {
    upvotes: typeof counts.upvotes === "number" ? counts.upvotes : 0,
    downvotes: typeof counts.downvotes === "number" ? counts.downvotes : 0,
  };
}

export async function createBinge(guruSlug: string, rootSlug: string): Promise<string> {
  const body = await apiJson<unknown>(`${guruPath(guruSlug)}/binges/`, {
    method: "POST",
    json: { root_slug: rootSlug },
  });
  if (!isRecord(body) || typeof body.binge_id !== "string") {
    throw new ApiError(200, INVALID, "Unexpected response from the server.");
  }
  return body.binge_id;
}
