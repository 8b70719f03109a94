import Link from "next/link";
import type { CSSProperties } from "react";

import { GuruAvatar } from "@/components/ui/GuruAvatar";
import { Notice } from "@/components/ui/Notice";
import { safeHexColor } from "@/lib/color";
import type { Guru } from "@/lib/gurus/types";

import styles from "./home.module.css";

export function GuruGrid({ gurus, query = "" }: { gurus: Guru[]; query?: string }) {
  if (gurus.length === 0 && query) {
    return (
      <Notice tone="info" title="No gurus match">
        Nothing matches “{query}”. <Link href="/">Show all gurus</Link>.
      </Notice>
    );
  }
  if (gurus.length === 0) {
    return (
      <Notice tone="info" title="No gurus yet">
        Create the first one in the <Link href="/console/gurus/new">console</Link>, then add its
        sources.
      </Notice>
    );
  }
  return (
    <ul className={styles.grid}>
      {gurus.map((guru) => (
        <li key={guru.slug}>
          <GuruCard guru={guru} />
        </li>
      ))}
    </ul>
  );
}

function GuruCard({ guru }: { guru: Guru }) {
  const style = { "--guru-color": safeHexColor(guru.base_color, "#1f6feb") } as CSSProperties;
  return (
    <Link href={`/g/${encodeURIComponent(guru.slug)}`} className={styles.card} style={style}>
      <GuruAvatar guru={guru} />
      <span className={styles.cardText}>
        <span className={styles.cardTitle}>{guru.name}</span>
        <span className={styles.cardMeta}>{guru.domain_knowledge || `/${guru.slug}`}</span>
      </span>
      <span className={styles.cardArrow} aria-hidden="true">
        →
      </span>
    </Link>
  );
}
