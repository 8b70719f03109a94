import type { ReactNode } from "react";

import styles from "./Badge.module.css";

export type BadgeTone = "ok" | "warn" | "error" | "off";

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span className={`${styles.badge} ${styles[tone]}`}>
      <span className={styles.dot} aria-hidden="true" />
      {children}
    </span>
  );
}
