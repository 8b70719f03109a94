import type { MetadataRoute } from "next";

import { getSitemapQuestions } from "@/lib/answers/api";
import { questionPath } from "@/lib/answers/types";
import { siteUrl } from "@/lib/env";

// Questions are added all the time; the sitemap is read from the API on every request.
export const dynamic = "force-dynamic";

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const base = siteUrl();
  const home: MetadataRoute.Sitemap = [{ url: `${base}/` }];
  const questions = await getSitemapQuestions();
  if (!questions.ok) return home;
  const gurus = [...new Set(questions.data.map((q) => q.guru_slug))];
  return [
    ...home,
    ...gurus.map((slug) => ({ url: `${base}/g/${encodeURIComponent(slug)}` })),
    ...questions.data.map((q) => ({
      url: `${base}${questionPath(q.guru_slug, q.slug)}`,
      ...(q.date_updated ? { lastModified: q.date_updated } : {}),
    })),
  ];
}
