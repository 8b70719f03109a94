"use client";

import { useRouter } from "next/navigation";
import { useCallback, useId, useState, type FormEvent } from "react";

import { createBinge } from "@/lib/answers/client";
import { ApiError } from "@/lib/api/client";
import { useAnswerStream, type AnswerState } from "@/lib/answers/hooks";
import { bingePath } from "@/lib/answers/types";

import { AnswerView } from "./AnswerView";
import styles from "./answers.module.css";

interface FollowUpBoxProps {
  guruSlug: string;
  /** The question the session grows from (a new session starts on it). */
  rootSlug: string;
  /** The answer this follow-up continues. */
  parentSlug: string;
  /** The session the follow-up joins; a new one is started when there is none. */
  bingeId?: string;
  /** On the session's own page the page refreshes; elsewhere the browser goes there. */
  inBingeView?: boolean;
  /** Questions already on the page; a finished follow-up hides once the page lists it. */
  knownSlugs?: string[];
  suggestions?: string[];
}

/**
 * Asks a follow-up: starts a session (binge) on the root question when there is none, streams
 * the answer here, then shows it in the session's own view.
 */
export function FollowUpBox(props: FollowUpBoxProps) {
  const { guruSlug, rootSlug, parentSlug, bingeId, inBingeView = false } = props;
  const { knownSlugs = [], suggestions = [] } = props;
  const router = useRouter();
  const [question, setQuestion] = useState("");
  const [startError, setStartError] = useState("");
  const inputId = useId();

  const onDone = useCallback(
    (answer: AnswerState) => {
      if (inBingeView) router.refresh();
      else if (answer.bingeId) router.push(bingePath(guruSlug, answer.bingeId));
    },
    [inBingeView, guruSlug, router],
  );
  const { state, ask, stop, retry } = useAnswerStream(onDone);

  async function followUp(text: string) {
    const trimmed = text.trim();
    if (!trimmed) return;
    setStartError("");
    let session = bingeId;
    try {
      session ??= await createBinge(guruSlug, rootSlug);
    } catch (error) {
      setStartError(error instanceof ApiError ? error.message : "Could not start a follow-up.");
      return;
    }
    setQuestion("");
    void ask({ guruSlug, question: trimmed, bingeId: session, parentSlug });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void followUp(question);
  }

  const streaming = state.status === "streaming";
  const shownOnPage = state.status === "done" && knownSlugs.includes(state.slug);
  return (
    <section className={styles.followUp} aria-label="Follow-up">
      {state.status !== "idle" && !shownOnPage ? (
        <AnswerView guruSlug={guruSlug} state={state} onStop={stop} onRetry={retry} />
      ) : null}
      <form className={styles.ask} onSubmit={submit}>
        <label htmlFor={inputId} className={styles.askLabel}>
          Ask a follow-up
        </label>
        <div className={styles.followUpRow}>
          <input
            id={inputId}
            className={styles.askInput}
            value={question}
            maxLength={2000}
            onChange={(e) => setQuestion(e.target.value)}
            placeholder="What would you like to know next?"
          />
          <button
            type="submit"
            className={styles.primaryButton}
            disabled={streaming || !question.trim()}
          >
            Ask
          </button>
        </div>
        {startError ? (
          <p className={styles.error} role="alert">
            {startError}
          </p>
        ) : null}
      </form>
      {suggestions.length ? (
        <div className={styles.examples}>
          <h3 className={styles.smallHeading}>Suggested follow-ups</h3>
          <ul className={styles.chips} data-part="suggestions">
            {suggestions.map((s) => (
              <li key={s}>
                <button
                  type="button"
                  className={styles.chip}
                  disabled={streaming}
                  onClick={() => followUp(s)}
                >
                  {s}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
