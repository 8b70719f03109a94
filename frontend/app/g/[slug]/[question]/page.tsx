import type { Metadata } from "next";

import { QuestionPage, questionMetadata } from "./question-page";

/**
 * A stored answer as anyone sees it, rendered once and served from Next's cache (ISR). Django
 * asks the UI's server to drop it when the answer or its guru changes (`app/api/revalidate`);
 * after `revalidate` seconds it is also rendered again in the background, should such a request
 * have been lost. `force-static` empties `cookies()` and the search parameters here, so this
 * render is the anonymous one whatever the request carries; `proxy.ts` sends requests with a
 * session or a `?binge=` to the per-request twin (`viewer/page.tsx`, see `lib/site/cache.ts`).
 */
export const dynamic = "force-static";
export const revalidate = 300;

interface PublicQuestionPageProps {
  params: Promise<{ slug: string; question: string }>;
}

export async function generateMetadata(props: PublicQuestionPageProps): Promise<Metadata> {
  const { slug, question } = await props.params;
  return questionMetadata({ slug, questionSlug: question });
}

export default async function PublicQuestionPage(props: PublicQuestionPageProps) {
  const { slug, question } = await props.params;
  return <QuestionPage slug={slug} questionSlug={question} cached />;
}
