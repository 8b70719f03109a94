import "server-only";

import { cache } from "react";

import { getJson, type ApiResult } from "@/lib/api/client";
import { viewerHeaders } from "@/lib/auth/viewer";
import { guruTag } from "@/lib/site/cache";

import { parseGuru, parseGuruList, type Guru } from "./types";

/**
 * The gurus the visitor may read (the active public ones, and private ones granted to them),
 * in Django's order (by name).
 * `query` filters by name, slug or domain (Django does the matching).
 */
export async function listGurus(query = ""): Promise<ApiResult<Guru[]>> {
  const search = query.trim() ? `?q=${encodeURIComponent(query.trim())}` : "";
  return getJson(`/api/gurus/${search}`, { parse: parseGuruList, headers: await viewerHeaders() });
}

/** One guru by slug; cached per request so a page and its metadata share one call. A cached
 * page that shows it carries its tag, so a change to the guru drops that page. */
export const getGuru = cache(async (slug: string): Promise<ApiResult<Guru>> => {
  return getJson(`/api/gurus/${encodeURIComponent(slug)}/`, {
    parse: parseGuru,
    headers: await viewerHeaders(),
    tags: [guruTag(slug)],
  });
});
