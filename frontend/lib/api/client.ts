/**
 * The one client for Django's API, on the Next server and in the browser. The browser calls
 * same-origin `/api/...` with the session cookie and Django's CSRF token on unsafe methods; the
 * server calls Django directly. Django owns every rule; this only carries requests and turns
 * every failure (network, timeout, error body, unexpected shape) into one `ApiError`.
 */
import { serverApiUrl } from "@/lib/env";
import { isRecord } from "@/lib/json";

import type { paths } from "./schema";

/** Why a call to the API did not produce data. `status` is 0 when no HTTP answer arrived. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Codes for failures that never got an answer from Django, or got one we cannot read. */
export const UNREACHABLE = "unreachable";
export const TIMED_OUT = "timeout";
export const INVALID = "invalid";

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/** Every path the API documents, from the generated schema. */
export type ApiPath = keyof paths;

/** The JSON a documented GET answers with 200. */
export type ApiGet<P extends ApiPath> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": infer T } } } };
}
  ? T
  : never;

const isServer = typeof window === "undefined";

/** Where a path goes: Django itself from the server, same origin (the /api proxy) in the browser. */
export function apiUrl(path: string): string {
  return isServer ? `${serverApiUrl()}${path}` : path;
}

export function csrfToken(): string {
  if (typeof document === "undefined") return "";
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : "";
}

/** Django answers every error as {code, msg} (a validation error names its field in msg);
 * anything else (a proxy's error page) gets a generic sentence. */
export function errorFromBody(
  status: number,
  body: unknown,
  fallback = `The server answered ${status}.`,
): ApiError {
  if (isRecord(body) && typeof body.code === "string") {
    return new ApiError(status, body.code, typeof body.msg === "string" ? body.msg : fallback);
  }
  return new ApiError(status, "http_error", fallback);
}

/** A fetch that threw: the caller's own abort is passed on, everything else becomes an ApiError. */
export function errorFromThrown(error: unknown, signal?: AbortSignal): ApiError {
  if (signal?.aborted && !isTimeout(signal.reason)) throw error;
  if (isTimeout(error) || isTimeout(signal?.reason)) {
    return new ApiError(0, TIMED_OUT, "The server did not answer in time.");
  }
  return new ApiError(0, UNREACHABLE, "The server could not be reached.");
}

// DOMException is not an Error subclass everywhere, so look at the name alone.
function isTimeout(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && "name" in error && error.name === "TimeoutError"
  );
}

export interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
  /** Extra headers, e.g. the visitor's Cookie when the Next server asks on their behalf. */
  headers?: Record<string, string>;
  accept?: string;
  /** Statuses besides 2xx whose body is still the answer (health reports "degraded" as 503). */
  acceptStatuses?: readonly number[];
  /** Cache tags of the page this call renders (`revalidateTag` drops the cached page). */
  tags?: string[];
}

function requestInit(options: RequestOptions): RequestInit {
  const { method = "GET", json, form, signal, accept = "application/json" } = options;
  const headers: Record<string, string> = { Accept: accept, ...options.headers };
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  let body: BodyInit | undefined;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form) {
    body = form;
  }
  // Never Next's data cache: a cached page is cached whole and dropped whole (by its tags).
  const next = options.tags?.length ? { next: { tags: options.tags } } : {};
  return { method, headers, body, signal, credentials: "include", cache: "no-store", ...next };
}

/** Sends the request; resolves to the response when it is 2xx (or accepted), else throws `ApiError`. */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(apiUrl(path), requestInit(options));
  } catch (error) {
    throw errorFromThrown(error, options.signal);
  }
  if (!response.ok && !options.acceptStatuses?.includes(response.status)) {
    const body: unknown = await response.json().catch(() => null);
    throw errorFromBody(response.status, body);
  }
  return response;
}

/** The decoded JSON of a 2xx answer (null for 204). Django's serializers define the shapes. */
export async function apiJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiRequest(path, options);
  if (response.status === 204) return null as T;
  try {
    return (await response.json()) as T;
  } catch {
    throw new ApiError(response.status, INVALID, "Unexpected response from the server.");
  }
}

export interface GetJsonOptions<T> extends Omit<RequestOptions, "method" | "json" | "form"> {
  /** Turns the decoded body into typed data, or null when its shape is not what we expect. */
  parse: (body: unknown) => T | null;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** GET and parse a JSON resource. Never throws: pages must render even when the API is down. */
export async function getJson<T>(path: string, options: GetJsonOptions<T>): Promise<ApiResult<T>> {
  const { parse, timeoutMs = DEFAULT_TIMEOUT_MS, ...request } = options;
  try {
    const body = await apiJson<unknown>(path, {
      ...request,
      signal: request.signal ?? AbortSignal.timeout(timeoutMs),
    });
    const data = parse(body);
    if (data === null) {
      return { ok: false, error: new ApiError(200, INVALID, "Unexpected response from the API.") };
    }
    return { ok: true, data };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    return { ok: false, error: errorFromThrown(error) };
  }
}

export const guruPath = (slug: string) => `/api/gurus/${encodeURIComponent(slug)}`;
export const v1Path = (slug: string) => `/api/v1/${encodeURIComponent(slug)}`;

/** A user-readable sentence for anything a call threw. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
