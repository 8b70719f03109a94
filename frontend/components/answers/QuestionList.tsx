import Link from "next/link";

import { formatDate, questionPath, trustPercent, type QuestionSummary } from "@/lib/answers/types";

import styles from "./lists.module.css";

export function QuestionList({
  guruSlug,
  questions,
}: {
  guruSlug: string;
  questions: QuestionSummary[];
}) {
  if (questions.length === 0) return <p className={styles.empty}>No questions yet.</p>;
  return (
    <ul className={styles.list}>
      {questions.map((q) => (
        <li key={q.slug} className={styles.item}>
          <Link href={questionPath(guruSlug, q.slug)} className={styles.title}>
            {q.question}
          </Link>
          {q.description ? <span className={styles.description}>{q.description}</span> : null}
          <span className={styles.meta}>
            Trust {trustPercent(q.trust_score)}
            {q.date_updated ? ` · ${formatDate(q.date_updated)}` : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}
