"use client";

import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import { useGaps } from "@/lib/analytics/hooks";
import type { Interval } from "@/lib/analytics/types";

import styles from "./analytics.module.css";

/** Unanswered questions grouped by topic: what the docs are missing, largest group first. */
export function GapList({ slug, interval }: { slug: string; interval: Interval }) {
  const { data, error } = useGaps(slug, interval);
  if (error) return <ErrorNotice title="Docs gaps could not be loaded" error={error} />;
  if (!data) return <Loading what="docs gaps" />;
  if (!data.clusters.length) return <p>No gaps found in this interval.</p>;
  return (
    <ul className={styles.clusters} data-part="gaps">
      {data.clusters.map((cluster) => (
        <li key={cluster.label}>
          <strong>{cluster.label}</strong> — {cluster.size} question{cluster.size === 1 ? "" : "s"}
          <ul className={styles.examples}>
            {cluster.examples.map((example) => (
              <li key={example}>{example}</li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
