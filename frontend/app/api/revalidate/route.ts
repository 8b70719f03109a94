import { createHash, timingSafeEqual } from "node:crypto";

import { revalidatePath, revalidateTag } from "next/cache";

import { guruTag, parseRevalidateRequest } from "@/lib/site/cache";

/**
 * Django drops cached question pages here after an answer or its guru changed
 * (`openguru/core/site_pages.py`), with the secret both servers are given
 * (`UI_REVALIDATE_SECRET`). Behind nginx this path goes to Django, so only Django's own
 * requests to the UI's server reach it. No secret configured: every request is refused.
 */
export async function POST(request: Request): Promise<Response> {
  if (!authorized(request.headers.get("authorization"), process.env.UI_REVALIDATE_SECRET ?? "")) {
    return Response.json(
      { code: "unauthorized", msg: "Wrong or missing secret." },
      { status: 401 },
    );
  }
  const parsed = parseRevalidateRequest(await request.json().catch(() => null));
  if (!parsed) {
    return Response.json(
      { code: "invalid_input", msg: "Expected {paths: [/g/<guru>/<question>], gurus: [slug]}." },
      { status: 400 },
    );
  }
  for (const path of parsed.paths) revalidatePath(path);
  // Expired at once, not served stale once more: a guru just made private must not stay readable.
  for (const guru of parsed.gurus) revalidateTag(guruTag(guru), { expire: 0 });
  return Response.json({ paths: parsed.paths.length, gurus: parsed.gurus.length });
}

/** Compared as digests, so neither the length nor the content leaks through timing. */
function authorized(header: string | null, secret: string): boolean {
  if (!secret || !header) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(header), digest(`Bearer ${secret}`));
}
