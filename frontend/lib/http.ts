import "server-only";

import { serverApiUrl } from "@/lib/env";
import { isRecord } from "@/lib/json";

/** Why a call to the API did not produce data; pages render each kind differently. */
export type ApiFailure =
  | { kind: "unreachable"; message: string }
  | { kind: "http"; status: number; code: string; message: string }
  | { kind: "invalid"; message: string };

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiFailure };

export interface GetJsonOptions<T> {
  /** Turns the decoded body into typed data, or null when its shape is not what we expect. */
  parse: (body: unknown) => T | null;
  /** Statuses besides 2xx whose body is still the answer (health reports "degraded" as 503). */
  acceptStatuses?: readonly number[];
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** GET a JSON resource from Django. Never throws: pages must render even when the API is down. */
export async function getJson<T>(path: string, options: GetJsonOptions<T>): Promise<ApiResult<T>> {
  const { parse, acceptStatuses = [], timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  let response: Response;
  try {
    response = await fetch(`${serverApiUrl()}${path}`, {
      cache: "no-store",
      headers: { Accept: "application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return { ok: false, error: { kind: "unreachable", message: describe(error) } };
  }
  const body = await readJson(response);
  if (!response.ok && !acceptStatuses.includes(response.status)) {
    return { ok: false, error: httpFailure(response.status, body) };
  }
  const data = parse(body);
  if (data === null) {
    return { ok: false, error: { kind: "invalid", message: "Unexpected response from the API." } };
  }
  return { ok: true, data };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** Django answers every error as {"code", "msg"}; anything else (a proxy page) gets a generic text. */
function httpFailure(status: number, body: unknown): ApiFailure {
  if (isRecord(body) && typeof body.code === "string" && typeof body.msg === "string") {
    return { kind: "http", status, code: body.code, message: body.msg };
  }
  return { kind: "http", status, code: "http_error", message: `The API answered ${status}.` };
}

function describe(error: unknown): string {
  const timedOut = error instanceof Error && error.name === "TimeoutError";
  return timedOut ? "The API did not answer in time." : "The API could not be reached.";
}
