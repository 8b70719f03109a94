import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { AskPanel } from "@/components/answers/AskPanel";
import { GuruBanner, guruStyle } from "@/components/answers/GuruBanner";
import { QuestionList } from "@/components/answers/QuestionList";
import { SourceSummary } from "@/components/answers/SourceSummary";
import { ApiProblem } from "@/components/ui/ApiProblem";
import { Section } from "@/components/ui/Section";
import { getOverview } from "@/lib/answers/api";
import type { GuruOverview } from "@/lib/answers/types";
import { UNINDEXED } from "@/lib/auth/viewer";
import { getGuru } from "@/lib/gurus/api";
import type { Guru } from "@/lib/gurus/types";

import styles from "./page.module.css";

export const dynamic = "force-dynamic";

interface GuruPageProps {
  params: Promise<{ slug: string }>;
}

export async function generateMetadata({ params }: GuruPageProps): Promise<Metadata> {
  const { slug } = await params;
  const guru = await getGuru(slug);
  if (!guru.ok) return { title: "Guru" };
  return {
    title: guru.data.name,
    description: guru.data.domain_knowledge || `Ask ${guru.data.name} a question.`,
    alternates: { canonical: `/g/${encodeURIComponent(slug)}` },
    ...(guru.data.visibility === "private" ? { robots: UNINDEXED } : {}),
  };
}

export default async function GuruPage({ params }: GuruPageProps) {
  const { slug } = await params;
  const [result, overview] = await Promise.all([getGuru(slug), getOverview(slug)]);
  if (!result.ok) {
    if (result.error.status === 404) notFound();
    return (
      <main className={styles.main}>
        <ApiProblem error={result.error} />
      </main>
    );
  }
  // The page still lets people ask when the overview is unavailable; only its lists go missing.
  return <GuruHome guru={result.data} overview={overview.ok ? overview.data : null} />;
}

function GuruHome({ guru, overview }: { guru: Guru; overview: GuruOverview | null }) {
  return (
    <main className={styles.main} style={guruStyle(guru)}>
      <Link href="/" className={styles.back}>
        ← All gurus
      </Link>
      <GuruBanner guru={guru} />
      <AskPanel
        guruSlug={guru.slug}
        guruName={guru.name}
        examples={overview?.example_questions ?? []}
        versions={overview?.versions ?? []}
        defaultVersion={overview?.default_version ?? ""}
      />
      {overview ? (
        <div className={styles.columns}>
          <Section title="Recent questions">
            <QuestionList guruSlug={guru.slug} questions={overview.recent} />
          </Section>
          <Section title="Popular questions">
            <QuestionList guruSlug={guru.slug} questions={overview.popular} />
          </Section>
          <Section title={`What ${guru.name} knows`}>
            <SourceSummary sources={overview.sources} />
          </Section>
        </div>
      ) : null}
    </main>
  );
}
