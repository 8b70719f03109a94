import { NextResponse, type NextRequest } from "next/server";

import { needsViewerRender, VIEWER_SEGMENT } from "./lib/site/cache";

/** The header that tells the console's server layout which page was asked for. */
export const CONSOLE_PATH_HEADER = "x-openguru-console-path";

export function proxy(request: NextRequest) {
  const url = request.nextUrl;
  if (!url.pathname.startsWith("/console")) return questionPage(request);
  // Layouts are not told the URL, so the console's sign-in check learns it here: the address a
  // signed-out visitor returns to after signing in.
  const headers = new Headers(request.headers);
  headers.set(CONSOLE_PATH_HEADER, url.pathname + url.search);
  return NextResponse.next({ request: { headers } });
}

/**
 * A question page is served from Next's cache unless the visitor may see something else there
 * (signed in, or in a follow-up session): then its per-request twin renders it, same address.
 * Rewriting here, before the cache is looked at, is the one place that sees every request.
 */
function questionPage(request: NextRequest) {
  const url = request.nextUrl;
  const names = request.cookies.getAll().map((cookie) => cookie.name);
  if (!needsViewerRender(names, url.searchParams)) return NextResponse.next();
  const twin = url.clone();
  twin.pathname = `${url.pathname.replace(/\/+$/, "")}/${VIEWER_SEGMENT}`;
  return NextResponse.rewrite(twin);
}

export const config = {
  matcher: [
    "/console/:path*",
    // Only where the proxy may rewrite: a GET with neither goes straight to the cache.
    { source: "/g/:slug/:question", has: [{ type: "header", key: "cookie" }] },
    { source: "/g/:slug/:question", has: [{ type: "query", key: "binge" }] },
  ],
};
