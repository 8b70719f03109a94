import "server-only";

import { cache } from "react";

import { getJson, type ApiResult } from "@/lib/http";

import { parseGuru, parseGuruList, type Guru } from "./types";

/** Active gurus, in Django's order (by name). Anonymous callers only ever see active ones. */
export async function listGurus(): Promise<ApiResult<Guru[]>> {
  return getJson("/api/gurus/", { parse: parseGuruList });
}

/** One guru by slug; cached per request so a page and its metadata share one call. */
export const getGuru = cache(async (slug: string): Promise<ApiResult<Guru>> => {
  return getJson(`/api/gurus/${encodeURIComponent(slug)}/`, { parse: parseGuru });
});
