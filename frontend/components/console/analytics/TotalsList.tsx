import type { Totals } from "@/lib/analytics/types";

import styles from "./analytics.module.css";

const LABELS: [keyof Totals, string][] = [
  ["questions", "Questions"],
  ["out_of_context", "Not in the sources"],
  ["refused", "Refused"],
  ["low_trust", "Low trust"],
  ["upvotes", "Up votes"],
  ["downvotes", "Down votes"],
];

export function TotalsList({ totals }: { totals: Totals }) {
  return (
    <dl className={styles.totals} data-part="totals">
      {LABELS.map(([key, label]) => (
        <div key={key} className={styles.total} data-total={key} data-value={totals[key]}>
          <dt>{label}</dt>
          <dd>{totals[key]}</dd>
        </div>
      ))}
    </dl>
  );
}
