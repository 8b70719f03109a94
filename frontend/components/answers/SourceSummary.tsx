import type { GuruOverview } from "@/lib/answers/types";

import { sourceKind } from "./References";
import styles from "./lists.module.css";

/** What the guru knows: its indexed sources by title, each with its kind. */
export function SourceSummary({ sources }: { sources: GuruOverview["sources"] }) {
  if (sources.total === 0) return <p className={styles.empty}>No indexed sources yet.</p>;
  const more = sources.total - sources.titles.length;
  return (
    <div>
      <p className={styles.total}>
        {sources.total} source{sources.total === 1 ? "" : "s"}
      </p>
      <ul className={styles.kinds} data-part="known-sources">
        {sources.titles.map(({ title, type }, index) => {
          const kind = sourceKind(type);
          return (
            <li key={`${index}-${title}`} className={styles.kind}>
              <span className={styles.badge} title={kind.label}>
                <span aria-hidden="true">{kind.symbol}</span>
                <span className={styles.visuallyHidden}>{kind.label}: </span>
              </span>{" "}
              {title}
            </li>
          );
        })}
      </ul>
      {more > 0 ? <p className={styles.empty}>and {more} more</p> : null}
    </div>
  );
}
