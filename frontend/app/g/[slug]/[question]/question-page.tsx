import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { FollowUpBox } from "@/components/answers/FollowUpBox";
import { GuruBanner, guruStyle } from "@/components/answers/GuruBanner";
import { StaleAnswer } from "@/components/answers/StaleAnswer";
import { StoredAnswer } from "@/components/answers/StoredAnswer";
import answerStyles from "@/components/answers/answers.module.css";
import { ApiProblem } from "@/components/ui/ApiProblem";
import { getFollowUps, getQuestion } from "@/lib/answers/api";
import {
  canonicalQuestionUrl,
  jsonForScript,
  qaPageJsonLd,
  questionDescription,
} from "@/lib/answers/seo";
import { bingePath, questionPath, versionBadge, type Question } from "@/lib/answers/types";
import { UNINDEXED } from "@/lib/auth/viewer";
import { getGuru } from "@/lib/gurus/api";
import type { Guru } from "@/lib/gurus/types";

import styles from "../page.module.css";

/** What a question page is of: its guru, its question, and the follow-up session it is read in. */
export interface QuestionPageOf {
  slug: string;
  questionSlug: string;
  bingeId?: string;
}

export async function questionMetadata(of: QuestionPageOf): Promise<Metadata> {
  const { slug, questionSlug, bingeId } = of;
  const [guru, question] = await Promise.all([
    getGuru(slug),
    getQuestion(slug, questionSlug, bingeId),
  ]);
  if (!question.ok) return { title: "Question" };
  const description = questionDescription(question.data);
  const url = canonicalQuestionUrl(slug, question.data.slug);
  const guruName = guru.ok ? guru.data.name : slug;
  return {
    title: `${question.data.question} · ${guruName}`,
    description,
    alternates: { canonical: url },
    openGraph: {
      type: "article",
      title: question.data.question,
      description,
      url,
      siteName: "OpenGuru",
    },
    // A private guru's answers are for the people granted it: never in a search engine.
    ...(guru.ok && guru.data.visibility === "private" ? { robots: UNINDEXED } : {}),
  };
}

/**
 * The page of one stored answer. `cached`: rendered once for everyone (the public route), so a
 * failed API call is thrown instead of explained: Next keeps a failed render out of its cache
 * (and keeps serving the last good one), where an explanation would be cached for minutes.
 */
export async function QuestionPage(props: QuestionPageOf & { cached: boolean }) {
  const { slug, questionSlug, bingeId, cached } = props;
  const [guru, question] = await Promise.all([
    getGuru(slug),
    getQuestion(slug, questionSlug, bingeId),
  ]);
  for (const result of [guru, question]) {
    if (!result.ok && result.error.status === 404) notFound();
  }
  if (!guru.ok || !question.ok) {
    const error = !guru.ok ? guru.error : !question.ok ? question.error : null;
    if (cached) throw error ?? new Error("The API did not answer.");
    return <main className={styles.main}>{error ? <ApiProblem error={error} /> : null}</main>;
  }
  const followUps = await getFollowUps(slug, question.data.slug, question.data.binge_id);
  return <QuestionView guru={guru.data} question={question.data} followUps={followUps} />;
}

function QuestionView(props: { guru: Guru; question: Question; followUps: string[] }) {
  const { guru, question, followUps } = props;
  const answer = <StoredAnswer guru={guru} question={question} />;
  const version = versionBadge(question);
  return (
    <main className={styles.main} style={guruStyle(guru)}>
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: jsonForScript(qaPageJsonLd(guru.slug, question)) }}
      />
      <Link href={`/g/${encodeURIComponent(guru.slug)}`} className={styles.back}>
        ← {guru.name}
      </Link>
      <GuruBanner guru={guru} compact />
      <h1 className={styles.article}>{question.question}</h1>
      {version ? <p className={styles.version}>{version}</p> : null}
      {question.stale ? (
        // Asked again in the visitor's own words: that is how Django finds the stored answer.
        <StaleAnswer
          guruSlug={guru.slug}
          question={question.user_question || question.question}
          bingeId={question.binge_id}
        >
          {answer}
        </StaleAnswer>
      ) : (
        answer
      )}
      {question.binge_id ? (
        <p>
          <Link href={bingePath(guru.slug, question.binge_id)}>See the whole conversation</Link>
        </p>
      ) : null}
      {question.children.length ? (
        <section className={styles.turn} aria-label="Follow-up questions">
          <h2 className={answerStyles.smallHeading}>Follow-up questions</h2>
          <ul>
            {question.children.map((child) => (
              <li key={child.slug}>
                <Link href={questionPath(guru.slug, child.slug, question.binge_id)}>
                  {child.question}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <FollowUpBox
        guruSlug={guru.slug}
        rootSlug={question.slug}
        parentSlug={question.slug}
        bingeId={question.binge_id ?? undefined}
        suggestions={followUps}
      />
    </main>
  );
}
