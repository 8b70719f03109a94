import { useId, type ReactNode } from "react";

import styles from "./layout.module.css";

interface CardProps {
  title: string;
  children: ReactNode;
  /** Heading level inside the page: cards under the page's h1 are h2 by default. */
  level?: 2 | 3;
  /** Marks the card for tests and styling hooks, e.g. data-part="sources". */
  part?: string;
}

/** A titled region of a console page. */
export function Card({ title, children, level = 2, part }: CardProps) {
  const id = useId();
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section className={styles.card} aria-labelledby={id} data-part={part}>
      <Heading className={styles.cardTitle} id={id}>
        {title}
      </Heading>
      {children}
    </section>
  );
}
