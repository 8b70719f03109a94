import "server-only";

import { cache } from "react";

import { getJson, type ApiResult } from "@/lib/api/client";
import { viewerHeaders } from "@/lib/auth/viewer";

import {
  parseBinge,
  parseOverview,
  parseQuestion,
  parseSitemap,
  parseSitemapIndex,
  parseStrings,
  type Binge,
  type GuruOverview,
  type Question,
  type SitemapEntry,
  type SitemapIndex,
} from "./types";

const guruPath = (slug: string) => `/api/gurus/${encodeURIComponent(slug)}`;
const bingeQuery = (binge?: string | null) => (binge ? `?binge=${encodeURIComponent(binge)}` : "");

export async function getOverview(slug: string): Promise<ApiResult<GuruOverview>> {
  return getJson(`${guruPath(slug)}/overview/`, {
    parse: parseOverview,
    headers: await viewerHeaders(),
  });
}

/** Cached per request so the page and its metadata share one call. */
export const getQuestion = cache(
  async (slug: string, questionSlug: string, binge?: string): Promise<ApiResult<Question>> =>
    getJson(
      `${guruPath(slug)}/questions/${encodeURIComponent(questionSlug)}/${bingeQuery(binge)}`,
      { parse: parseQuestion, headers: await viewerHeaders() },
    ),
);

export async function getFollowUps(
  slug: string,
  questionSlug: string,
  binge?: string | null,
): Promise<string[]> {
  const path = `${guruPath(slug)}/questions/${encodeURIComponent(questionSlug)}/follow-ups/`;
  // Suggestions may take an LLM call; the page renders without them rather than wait long.
  const result = await getJson(`${path}${bingeQuery(binge)}`, {
    parse: parseStrings,
    timeoutMs: 8_000,
    headers: await viewerHeaders(),
  });
  return result.ok ? result.data : [];
}

export const getBinge = cache(async (slug: string, bingeId: string): Promise<ApiResult<Binge>> =>
  getJson(`${guruPath(slug)}/binges/${encodeURIComponent(bingeId)}/`, {
    parse: parseBinge,
    headers: await viewerHeaders(),
  }),
);

export async function getSitemapIndex(): Promise<ApiResult<SitemapIndex>> {
  return getJson("/api/sitemap/", { parse: parseSitemapIndex, timeoutMs: 15_000 });
}

export async function getSitemapQuestions(page: number): Promise<ApiResult<SitemapEntry[]>> {
  return getJson(`/api/sitemap/questions/?page=${page}`, {
    parse: parseSitemap,
    timeoutMs: 15_000,
  });
}
