import { NextResponse, type NextRequest } from "next/server";

/** The header that tells the console's server layout which page was asked for. */
export const CONSOLE_PATH_HEADER = "x-openguru-console-path";

/**
 * Layouts are not told the URL, so the console's sign-in check learns it here: the address a
 * signed-out visitor returns to after signing in.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(CONSOLE_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: "/console/:path*" };
