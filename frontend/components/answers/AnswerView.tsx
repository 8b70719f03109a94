"use client";

import Link from "next/link";
import { useMemo } from "react";

import type { AnswerState } from "@/lib/answers/hooks";
import { formatDate, questionPath, trustPercent } from "@/lib/answers/types";
import { splitTitle } from "@/lib/markdown/render";
import { sanitizedMarkdown } from "@/lib/markdown/sanitize";

import { CopyButton } from "./CopyButton";
import { References } from "./References";
import { VoteBox } from "./VoteBox";
import styles from "./answers.module.css";

interface AnswerViewProps {
  guruSlug: string;
  state: AnswerState;
  onStop: () => void;
  onRetry: () => void;
  /** Questions to offer when the guru declines (a refusal). */
  suggestions?: string[];
  onSuggestion?: (question: string) => void;
}

/** A streamed answer: re-rendered from markdown on every delta, always through DOMPurify. */
export function AnswerView(props: AnswerViewProps) {
  const { guruSlug, state, onStop, onRetry, suggestions = [], onSuggestion } = props;
  const { title, body } = splitTitle(state.text);
  const html = useMemo(() => sanitizedMarkdown(body), [body]);
  const streaming = state.status === "streaming";
  return (
    <article className={styles.answer} data-part="answer-card">
      <h2 className={styles.question}>{state.question}</h2>
      <References references={state.references} />
      <div aria-live="polite" aria-busy={streaming} data-part="answer">
        {state.refused ? (
          <Refusal text={state.text} suggestions={suggestions} onSuggestion={onSuggestion} />
        ) : (
          <>
            {title ? <h3 className={styles.answerTitle}>{title}</h3> : null}
            {streaming && !state.text ? <p className={styles.thinking}>Thinking…</p> : null}
            <div
              className={styles.markdown}
              data-part="markdown"
              dangerouslySetInnerHTML={{ __html: html }}
            />
          </>
        )}
      </div>
      {streaming ? (
        <button type="button" className={styles.secondaryButton} onClick={onStop}>
          Stop
        </button>
      ) : null}
      {state.status === "stopped" ? <p className={styles.muted}>Stopped.</p> : null}
      {state.status === "error" && state.error ? (
        <div className={styles.error} role="alert" data-part="error">
          <p>{state.error.message}</p>
          <button type="button" className={styles.secondaryButton} onClick={onRetry}>
            Retry
          </button>
        </div>
      ) : null}
      {state.status === "done" && !state.refused ? (
        <AnswerFooter guruSlug={guruSlug} state={state} />
      ) : null}
    </article>
  );
}

function Refusal(props: {
  text: string;
  suggestions: string[];
  onSuggestion?: (question: string) => void;
}) {
  const { text, suggestions, onSuggestion } = props;
  return (
    <div className={styles.refusal} data-part="refusal">
      <p className={styles.refusalTitle}>This guru could not answer that from its sources.</p>
      {text ? <p>{text}</p> : null}
      {suggestions.length && onSuggestion ? (
        <>
          <p>It can help with questions like these:</p>
          <ul className={styles.chips}>
            {suggestions.slice(0, 4).map((s) => (
              <li key={s}>
                <button type="button" className={styles.chip} onClick={() => onSuggestion(s)}>
                  {s}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function AnswerFooter({ guruSlug, state }: { guruSlug: string; state: AnswerState }) {
  return (
    <div className={styles.footer}>
      <p className={styles.meta}>
        {state.trustScore !== null ? (
          <span data-part="trust">Trust score: {trustPercent(state.trustScore)}</span>
        ) : null}
        {state.dateUpdated ? <span>Updated {formatDate(state.dateUpdated)}</span> : null}
        {state.slug ? (
          <Link href={questionPath(guruSlug, state.slug, state.bingeId)} data-part="permalink">
            Permalink
          </Link>
        ) : null}
      </p>
      <div className={styles.actions}>
        <CopyButton text={state.text} />
      </div>
      {state.slug ? (
        <VoteBox guruSlug={guruSlug} questionSlug={state.slug} bingeId={state.bingeId} />
      ) : null}
    </div>
  );
}
