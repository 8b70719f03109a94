import { Suspense } from "react";

import { ApiProblem } from "@/components/ui/ApiProblem";
import { GuruGrid } from "@/components/home/GuruGrid";
import { HealthPanel, HealthPanelSkeleton } from "@/components/home/HealthPanel";
import { Section } from "@/components/ui/Section";
import { listGurus } from "@/lib/gurus/api";

import styles from "./page.module.css";

// Gurus and health change at run time; never bake an API answer into the build.
export const dynamic = "force-dynamic";

export default async function HomePage() {
  const gurus = await listGurus();
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
          {gurus.ok ? <GuruGrid gurus={gurus.data} /> : <ApiProblem error={gurus.error} />}
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
