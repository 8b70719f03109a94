import { getSitemapIndex, getSitemapQuestions } from "@/lib/answers/api";
import { guruUrls, questionUrls, urlsetXml, xmlResponse } from "@/lib/answers/sitemap";
import { siteUrl } from "@/lib/env";

export const dynamic = "force-dynamic";

/** A file the sitemap index names: gurus.xml, or <page>.xml of answers. */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ name: string }> },
): Promise<Response> {
  const { name } = await params;
  const base = siteUrl();
  if (name === "gurus.xml") {
    const index = await getSitemapIndex();
    if (!index.ok) return new Response("Unavailable", { status: 503 });
    return xmlResponse(urlsetXml(guruUrls(base, index.data)));
  }
  const page = /^([1-9][0-9]{0,15})\.xml$/.exec(name)?.[1];
  if (page === undefined) return new Response("Not found", { status: 404 });
  const questions = await getSitemapQuestions(Number(page));
  if (!questions.ok) return new Response("Unavailable", { status: 503 });
  return xmlResponse(urlsetXml(questionUrls(base, questions.data)));
}
