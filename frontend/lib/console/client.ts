/**
 * The console's calls to Django: same-origin `/api/...` with the session cookie, and Django's
 * CSRF token (from its `csrftoken` cookie) on every unsafe method. Django owns every rule; this
 * only carries requests and turns error bodies into `ApiError`.
 */
import { isRecord } from "@/lib/json";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function csrfToken(): string {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : "";
}

/** Django answers every error as {code, msg} (a validation error names its field in msg). */
export function errorFromBody(status: number, body: unknown): ApiError {
  if (isRecord(body) && typeof body.code === "string") {
    const msg = typeof body.msg === "string" ? body.msg : `The server answered ${status}.`;
    return new ApiError(status, body.code, msg);
  }
  return new ApiError(status, "http_error", `The server answered ${status}.`);
}

export interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
}

function requestInit({ method = "GET", json, form, signal }: RequestOptions): RequestInit {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  let body: BodyInit | undefined;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form) {
    body = form;
  }
  return { method, headers, body, signal, credentials: "include", cache: "no-store" };
}

/** Sends the request; resolves to the response when it is 2xx, else throws `ApiError`. */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, requestInit(options));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, "unreachable", "The server could not be reached.");
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw errorFromBody(response.status, body);
  }
  return response;
}

/** The decoded JSON of a 2xx answer (null for 204). Django's serializers define the shapes. */
export async function apiJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiRequest(path, options);
  if (response.status === 204) return null as T;
  return (await response.json()) as T;
}

export const guruPath = (slug: string) => `/api/gurus/${encodeURIComponent(slug)}`;
export const v1Path = (slug: string) => `/api/v1/${encodeURIComponent(slug)}`;

/** A user-readable sentence for anything a call threw. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
