import { getSitemapIndex, getSitemapQuestions } from "@/lib/answers/api";
import {
  guruUrls,
  indexedSitemaps,
  questionUrls,
  sitemapIndexXml,
  urlsetXml,
  xmlResponse,
} from "@/lib/answers/sitemap";
import { siteUrl } from "@/lib/env";

// Questions are added all the time; the sitemap is read from the API on every request.
export const dynamic = "force-dynamic";

/** One file while the answers fit one page; past that, the index of /sitemaps/*.xml. */
export async function GET(): Promise<Response> {
  const base = siteUrl();
  const index = await getSitemapIndex();
  if (!index.ok) return xmlResponse(urlsetXml([{ loc: `${base}/` }]));
  if (index.data.pages.length > 1) {
    return xmlResponse(sitemapIndexXml(indexedSitemaps(base, index.data)));
  }
  const page = index.data.pages[0];
  const questions = page === undefined ? null : await getSitemapQuestions(page);
  const rows = questions?.ok ? questions.data : [];
  return xmlResponse(urlsetXml([...guruUrls(base, index.data), ...questionUrls(base, rows)]));
}
