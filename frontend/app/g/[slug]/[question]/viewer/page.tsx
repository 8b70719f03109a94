import type { Metadata } from "next";

import { QuestionPage, questionMetadata } from "../question-page";

/**
 * A question page rendered per request with the visitor's cookies: `proxy.ts` rewrites
 * `/g/<guru>/<question>` here for a signed-in visitor (a private guru's answers, read by the
 * people granted it) and for a follow-up session (`?binge=`). The address stays the public one.
 */
export const dynamic = "force-dynamic";

interface ViewerQuestionPageProps {
  params: Promise<{ slug: string; question: string }>;
  searchParams: Promise<{ binge?: string | string[] }>;
}

async function pageOf({ params, searchParams }: ViewerQuestionPageProps) {
  const { slug, question } = await params;
  const { binge } = await searchParams;
  return { slug, questionSlug: question, bingeId: typeof binge === "string" ? binge : undefined };
}

export async function generateMetadata(props: ViewerQuestionPageProps): Promise<Metadata> {
  return questionMetadata(await pageOf(props));
}

export default async function ViewerQuestionPage(props: ViewerQuestionPageProps) {
  return <QuestionPage {...await pageOf(props)} cached={false} />;
}
