import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { CSSProperties } from "react";

import { ApiProblem } from "@/components/ui/ApiProblem";
import { GuruAvatar } from "@/components/ui/GuruAvatar";
import { safeHexColor } from "@/lib/color";
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
  return { title: guru.ok ? guru.data.name : "Guru" };
}

export default async function GuruPage({ params }: GuruPageProps) {
  const { slug } = await params;
  const result = await getGuru(slug);
  if (!result.ok) {
    if (result.error.kind === "http" && result.error.status === 404) notFound();
    return (
      <main className={styles.main}>
        <ApiProblem error={result.error} />
      </main>
    );
  }
  return <GuruHome guru={result.data} />;
}

function GuruHome({ guru }: { guru: Guru }) {
  const style = {
    "--guru-color": safeHexColor(guru.base_color, "#1f6feb"),
    "--guru-light": safeHexColor(guru.light_color, "#e8f0fe"),
  } as CSSProperties;
  return (
    <main className={styles.main} style={style}>
      <Link href="/" className={styles.back}>
        ← All gurus
      </Link>
      <header className={styles.banner}>
        <GuruAvatar guru={guru} size="large" />
        <div>
          <h1 className={styles.name}>{guru.name}</h1>
          {guru.domain_knowledge ? <p className={styles.domain}>{guru.domain_knowledge}</p> : null}
        </div>
      </header>
      {/* Placeholder until the streaming ask box lands; it shows where the question will go. */}
      <form className={styles.ask}>
        <fieldset className={styles.askFields} disabled>
          <label htmlFor="question" className={styles.askLabel}>
            Ask {guru.name} a question
          </label>
          <textarea
            id="question"
            className={styles.askInput}
            rows={3}
            placeholder={`How do I get started with ${guru.name}?`}
          />
          <div className={styles.askFooter}>
            <span className={styles.askHint}>Answers with citations are coming soon.</span>
            <button type="submit" className={styles.askButton}>
              Ask
            </button>
          </div>
        </fieldset>
      </form>
    </main>
  );
}
