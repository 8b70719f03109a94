import { Suspense } from "react";

import { ApiProblem } from "@/components/ui/ApiProblem";
import { GuruGrid } from "@/components/home/GuruGrid";
import { GuruSearch } from "@/components/home/GuruSearch";
import { HealthPanel, HealthPanelSkeleton } from "@/components/home/HealthPanel";
import { Section } from "@/components/ui/Section";
import { listGurus } from "@/lib/gurus/api";

import styles from "./page.module.css";

// Gurus and health change at run time; never bake an API answer into the build.
export const dynamic = "force-dynamic";

interface HomePageProps {
  searchParams: Promise<{ q?: string | string[] }>;
}

export default async function HomePage({ searchParams }: HomePageProps) {
  const { q } = await searchParams;
  const query = typeof q === "string" ? q : "";
  const gurus = await listGurus(query);
  return (
    <main className={styles.main}>
      <div className={styles.hero}>
        <h1>Ask your docs. Get answers with citations.</h1>
        <p>
          Each guru learns from a project&apos;s documentation, websites, PDFs, videos and code, and
          answers questions with links to where it found them.
        </p>
      </div>
      <div className={styles.columns}>
        <Section title="Gurus" description="Pick a guru to ask it a question.">
          <GuruSearch query={query} />
          {gurus.ok ? (
            <GuruGrid gurus={gurus.data} query={query} />
          ) : (
            <ApiProblem error={gurus.error} />
          )}
        </Section>
        <Section title="Health" description="Live status of the services behind every answer.">
          <Suspense fallback={<HealthPanelSkeleton />}>
            <HealthPanel />
          </Suspense>
        </Section>
      </div>
    </main>
  );
}
