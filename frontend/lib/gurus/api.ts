import "server-only";

import { cache } from "react";

import { getJson, type ApiResult } from "@/lib/api/client";

import { parseGuru, parseGuruList, type Guru } from "./types";

/**
 * Active gurus, in Django's order (by name). Anonymous callers only ever see active ones.
 * `query` filters by name, slug or domain (Django does the matching).
 */
export async function listGurus(query = ""): Promise<ApiResult<Guru[]>> {
  const search = query.trim() ? `?q=${encodeURIComponent(query.trim())}` : "";
  return getJson(`/api/gurus/${search}`, { parse: parseGuruList });
}

/** One guru by slug; cached per request so a page and its metadata share one call. */
export const getGuru = cache(async (slug: string): Promise<ApiResult<Guru>> => {
  return getJson(`/api/gurus/${encodeURIComponent(slug)}/`, { parse: parseGuru });
});
