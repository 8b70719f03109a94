import type { ReactNode } from "react";

import styles from "./Notice.module.css";

export type NoticeTone = "info" | "warn" | "error";

interface NoticeProps {
  tone: NoticeTone;
  title: string;
  children?: ReactNode;
}

export function Notice({ tone, title, children }: NoticeProps) {
  return (
    <div className={`${styles.notice} ${styles[tone]}`} role={tone === "info" ? "status" : "alert"}>
      <strong className={styles.title}>{title}</strong>
      {children ? <div className={styles.body}>{children}</div> : null}
    </div>
  );
}
