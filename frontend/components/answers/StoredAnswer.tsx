import { formatDate, groundingNote, trustPercent, type Answer } from "@/lib/answers/types";
import type { Guru } from "@/lib/gurus/types";
import { renderMarkdown, splitTitle } from "@/lib/markdown/render";

import { CopyButton } from "./CopyButton";
import { References } from "./References";
import { VoteBox } from "./VoteBox";
import styles from "./answers.module.css";

/** The saved answer as HTML in the server's response (see lib/markdown/render.ts). */
export function StoredAnswer(props: { guru: Guru; question: Answer; heading?: boolean }) {
  const { guru, question, heading = false } = props;
  const { title, body } = splitTitle(question.content);
  const note = groundingNote(question.grounding);
  return (
    <article className={styles.answer}>
      {heading ? <h2 className={styles.question}>{question.question}</h2> : null}
      <References references={question.references} />
      <div data-part="answer">
        {title && heading ? <h3 className={styles.answerTitle}>{title}</h3> : null}
        {title && !heading ? <h2 className={styles.answerTitle}>{title}</h2> : null}
        <div
          className={styles.markdown}
          dangerouslySetInnerHTML={{ __html: renderMarkdown(body) }}
        />
      </div>
      <div className={styles.footer}>
        <p className={styles.meta}>
          <span data-part="trust">Trust score: {trustPercent(question.trust_score)}</span>
          {note ? <span data-part="grounding">{note}</span> : null}
          {question.updated_at ? <span>Updated {formatDate(question.updated_at)}</span> : null}
        </p>
        <div className={styles.actions}>
          <CopyButton text={question.content} />
        </div>
        <VoteBox guruSlug={guru.slug} questionSlug={question.slug} bingeId={question.binge_id} />
      </div>
    </article>
  );
}
