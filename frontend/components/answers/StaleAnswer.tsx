"use client";

import { useEffect, type ReactNode } from "react";

import { useAnswerStream } from "@/lib/answers/hooks";

import { AnswerView } from "./AnswerView";
import styles from "./answers.module.css";

interface StaleAnswerProps {
  guruSlug: string;
  question: string;
  bingeId: string | null;
  /** The stored answer, rendered on the server; shown until the fresh one starts. */
  children: ReactNode;
}

/** A stored answer whose sources changed: asked again through the stream, in place. */
export function StaleAnswer({ guruSlug, question, bingeId, children }: StaleAnswerProps) {
  const { state, ask, stop, retry } = useAnswerStream();
  // No "already started" guard: an unmount aborts the stream (see useAnswerStream), and React's
  // development double mount would then leave the answer stopped for good.
  useEffect(() => {
    void ask({ guruSlug, question, bingeId });
  }, [ask, guruSlug, question, bingeId]);

  const refreshing = state.status === "idle" || state.status === "streaming";
  return (
    <div data-part="stale">
      <p className={styles.staleNotice} role="status">
        {refreshing
          ? "The sources changed; this answer is being refreshed."
          : state.status === "done"
            ? "The sources changed; this answer was refreshed from them."
            : "The sources changed; the answer below may be out of date."}
      </p>
      {state.status === "idle" || (state.status !== "done" && !state.text) ? (
        <>
          {children}
          {state.status === "error" || state.status === "stopped" ? (
            <AnswerView guruSlug={guruSlug} state={state} onStop={stop} onRetry={retry} />
          ) : null}
        </>
      ) : (
        <AnswerView guruSlug={guruSlug} state={state} onStop={stop} onRetry={retry} />
      )}
    </div>
  );
}
