import { Badge, type BadgeTone } from "@/components/ui/Badge";
import { progressCounts } from "@/lib/sources/progress";
import type { Source, SourceStatus as Status } from "@/lib/sources/types";

import styles from "./sources.module.css";

const LOOK: Record<Status, { tone: BadgeTone; label: string }> = {
  NOT_PROCESSED: { tone: "off", label: "Queued" },
  PROCESSING: { tone: "warn", label: "Indexing" },
  SUCCESS: { tone: "ok", label: "Indexed" },
  FAILED: { tone: "error", label: "Failed" },
};

/** Pages done of pages found, when the loader reports pages; else unknown (null). */
function fraction(source: Source): number | null {
  if (source.status === "SUCCESS") return 1;
  const p = source.progress;
  const found = p.pages_discovered ?? 0;
  if (!found) return null;
  const done = (p.pages_fetched ?? 0) + (p.pages_skipped ?? 0) + (p.pages_failed ?? 0);
  return Math.min(done / found, 1);
}

/** The status badge, the live progress bar while indexing, and the reason of a failure. */
export function SourceStatus({ source, name }: { source: Source; name: string }) {
  const look = LOOK[source.status];
  const value = fraction(source);
  const running = source.status === "PROCESSING" || source.status === "NOT_PROCESSED";
  const detail = progressCounts(source);
  return (
    <div className={styles.progress}>
      <span>
        <Badge tone={look.tone}>{look.label}</Badge>
      </span>
      {running || source.status === "SUCCESS" ? (
        <progress
          className={styles.bar}
          aria-label={`Indexing progress of ${name}`}
          max={1}
          value={value ?? undefined}
          data-part="source-progress"
        />
      ) : null}
      {detail ? <span className={styles.counts}>{detail}</span> : null}
      {source.status === "FAILED" && source.user_error ? (
        <span className={styles.error}>{source.user_error}</span>
      ) : null}
    </div>
  );
}
