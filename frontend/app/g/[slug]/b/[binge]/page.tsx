import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { FollowUpBox } from "@/components/answers/FollowUpBox";
import { GuruBanner, guruStyle } from "@/components/answers/GuruBanner";
import { QuestionTree } from "@/components/answers/QuestionTree";
import { StoredAnswer } from "@/components/answers/StoredAnswer";
import answerStyles from "@/components/answers/answers.module.css";
import { ApiProblem } from "@/components/ui/ApiProblem";
import { getBinge } from "@/lib/answers/api";
import type { Answer } from "@/lib/answers/types";
import { getGuru } from "@/lib/gurus/api";

import styles from "../../page.module.css";

export const dynamic = "force-dynamic";

interface BingePageProps {
  params: Promise<{ slug: string; binge: string }>;
}

export async function generateMetadata({ params }: BingePageProps): Promise<Metadata> {
  const { slug, binge } = await params;
  const result = await getBinge(slug, binge);
  const root = result.ok ? result.data.root : null;
  // A conversation is one visitor's path through the answers; the question pages are canonical.
  return {
    title: root ? `Follow-ups: ${root.question}` : "Conversation",
    robots: { index: false },
  };
}

export default async function BingePage({ params }: BingePageProps) {
  const { slug, binge } = await params;
  const [guru, result] = await Promise.all([getGuru(slug), getBinge(slug, binge)]);
  for (const r of [guru, result]) {
    if (!r.ok && (r.error.status === 404 || r.error.status === 400)) {
      notFound();
    }
  }
  if (!guru.ok || !result.ok) {
    const error = !guru.ok ? guru.error : !result.ok ? result.error : null;
    return <main className={styles.main}>{error ? <ApiProblem error={error} /> : null}</main>;
  }
  const { root, questions, binge_id } = result.data;
  const turns: Answer[] = [
    ...(root ? [root] : []),
    ...questions.filter((q) => q.slug !== root?.slug),
  ];
  const last = turns[turns.length - 1];
  return (
    <main className={styles.main} style={guruStyle(guru.data)}>
      <Link href={`/g/${encodeURIComponent(slug)}`} className={styles.back}>
        ← {guru.data.name}
      </Link>
      <GuruBanner guru={guru.data} compact />
      <h1 className={styles.article}>Conversation</h1>
      {root ? (
        <nav aria-label="Question map" className={styles.turn} data-part="map">
          <h2 className={answerStyles.smallHeading}>Question map</h2>
          <QuestionTree guruSlug={slug} bingeId={binge_id} root={root} questions={questions} />
        </nav>
      ) : null}
      {turns.map((question) => (
        <div key={question.slug} className={styles.turn} data-part="turn">
          <StoredAnswer guru={guru.data} question={question} heading />
        </div>
      ))}
      {root && last ? (
        <FollowUpBox
          guruSlug={slug}
          rootSlug={root.slug}
          parentSlug={last.slug}
          bingeId={binge_id}
          inBingeView
          knownSlugs={turns.map((q) => q.slug)}
        />
      ) : null}
    </main>
  );
}
