import Link from "next/link";

import { questionPath, type Answer } from "@/lib/answers/types";

import styles from "./lists.module.css";

interface QuestionTreeProps {
  guruSlug: string;
  bingeId: string;
  root: Answer;
  questions: Answer[];
}

/** The session's questions as nested links: each follow-up under the answer it continues. */
export function QuestionTree({ guruSlug, bingeId, root, questions }: QuestionTreeProps) {
  const known = new Set([root.slug, ...questions.map((q) => q.slug)]);
  const children = new Map<string, Answer[]>();
  for (const question of questions) {
    if (question.slug === root.slug) continue;
    // A follow-up whose parent is not in this session hangs from the root, never disappears.
    const parent =
      question.parent_slug && known.has(question.parent_slug) ? question.parent_slug : root.slug;
    children.set(parent, [...(children.get(parent) ?? []), question]);
  }
  const seen = new Set<string>();
  function branch(question: Answer, isRoot: boolean) {
    seen.add(question.slug);
    const below = (children.get(question.slug) ?? []).filter((q) => !seen.has(q.slug));
    return (
      <li key={question.slug}>
        <Link href={questionPath(guruSlug, question.slug, isRoot ? null : bingeId)}>
          {question.question}
        </Link>
        {below.length ? <ul>{below.map((q) => branch(q, false))}</ul> : null}
      </li>
    );
  }
  return <ul className={styles.tree}>{branch(root, true)}</ul>;
}
