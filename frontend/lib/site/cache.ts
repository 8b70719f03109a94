/**
 * The public question pages Next keeps rendered (ISR) and the rule for who may be served them.
 *
 * The cached page is rendered with no cookie at all (its route is `force-static`, so `cookies()`
 * is empty there), so it holds only what Django shows anyone: it cannot leak a private answer.
 * What must not happen is the opposite: someone whose cookies make Django answer differently (a
 * member of a private guru, a follow-up session) being served that anonymous page. So any
 * cookie but Django's CSRF token, or a `?binge=`, sends the request to the page's per-request
 * twin instead. Deciding on "any cookie" rather than on the session cookie's name keeps that
 * true for every way of signing in; a stray cookie only costs a per-request render.
 */

/** Cookies that say nothing about who is asking. */
const ANONYMOUS_COOKIES = new Set(["csrftoken"]);

/** The path segment of the per-request twin of a question page. */
export const VIEWER_SEGMENT = "viewer";

export function needsViewerRender(cookieNames: Iterable<string>, search: URLSearchParams): boolean {
  if (search.has("binge")) return true;
  for (const name of cookieNames) if (!ANONYMOUS_COOKIES.has(name)) return true;
  return false;
}

/** The tag every cached page of a guru carries: its name, colours or visibility changed. */
export function guruTag(slug: string): string {
  return `guru:${slug}`;
}

export interface RevalidateRequest {
  paths: string[];
  gurus: string[];
}

const MAX_ITEMS = 1000;

/** Django's revalidation body, or null when it is not one: only question pages and gurus. */
export function parseRevalidateRequest(body: unknown): RevalidateRequest | null {
  if (typeof body !== "object" || body === null) return null;
  const { paths = [], gurus = [] } = body as Record<string, unknown>;
  if (!Array.isArray(paths) || !Array.isArray(gurus)) return null;
  if (paths.length + gurus.length > MAX_ITEMS) return null;
  const questionPath = /^\/g\/[^/?#]+\/[^/?#]+$/;
  if (!paths.every((p) => typeof p === "string" && questionPath.test(p))) return null;
  if (!gurus.every((g) => typeof g === "string" && /^[a-z0-9-]+$/.test(g))) return null;
  return { paths: paths as string[], gurus: gurus as string[] };
}
