import { safeUrl } from "@/lib/markdown/render";
import type { Reference } from "@/lib/answers/types";

import styles from "./answers.module.css";

// Text badges rather than emoji: a server or kiosk without an emoji font would show boxes.
const ICONS: Record<string, { symbol: string; label: string }> = {
  web: { symbol: "WEB", label: "Web page" },
  pdf: { symbol: "PDF", label: "PDF" },
  youtube: { symbol: "VIDEO", label: "Video" },
  github: { symbol: "CODE", label: "GitHub repository" },
  text: { symbol: "TEXT", label: "Text" },
  faq: { symbol: "FAQ", label: "FAQ" },
  website: { symbol: "WEB", label: "Web page" },
  github_repo: { symbol: "CODE", label: "GitHub repository" },
  github_issues: { symbol: "ISSUE", label: "GitHub issue or discussion" },
  confluence: { symbol: "WIKI", label: "Confluence page" },
  jira: { symbol: "ISSUE", label: "Jira issue" },
  zendesk: { symbol: "HELP", label: "Help center article" },
};

export function sourceKind(type: string): { symbol: string; label: string } {
  return ICONS[type] ?? { symbol: "DOC", label: type || "Source" };
}

/** The sources an answer cites, numbered as its inline citations ([1], [2]) number them;
 * works on the server and in the browser. */
export function References({ references }: { references: Reference[] }) {
  if (references.length === 0) return null;
  return (
    <section className={styles.references} aria-label="Sources" data-part="references">
      <h3 className={styles.smallHeading}>Sources</h3>
      <ol className={styles.referenceList}>
        {references.map((reference, index) => {
          const kind = sourceKind(reference.icon);
          const href = reference.link ? safeUrl(reference.link) : null;
          const title = reference.title || reference.link || `Source ${index + 1}`;
          return (
            <li key={`${index}-${reference.link}`} className={styles.reference}>
              <span className={styles.referenceNumber} data-citation={index + 1}>
                [{index + 1}]
              </span>
              <span className={styles.referenceIcon} title={kind.label}>
                <span aria-hidden="true">{kind.symbol}</span>
                <span className={styles.visuallyHidden}>{kind.label}: </span>
              </span>
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {title}
                </a>
              ) : (
                <span>{title}</span>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
