import type { GuruOverview } from "@/lib/answers/types";

import { sourceKind } from "./References";
import styles from "./lists.module.css";

/** What the guru knows: its indexed sources, counted by kind. */
export function SourceSummary({ sources }: { sources: GuruOverview["sources"] }) {
  if (sources.total === 0) return <p className={styles.empty}>No indexed sources yet.</p>;
  return (
    <div>
      <p className={styles.total}>
        {sources.total} source{sources.total === 1 ? "" : "s"}
      </p>
      <ul className={styles.kinds}>
        {sources.by_type.map(({ type, count }) => {
          const kind = sourceKind(type);
          return (
            <li key={type} className={styles.kind}>
              <span className={styles.badge} aria-hidden="true">
                {kind.symbol}
              </span>{" "}
              {kind.label}
              <span className={styles.count}>{count}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
