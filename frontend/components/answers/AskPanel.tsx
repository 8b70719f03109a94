"use client";

import { useRouter } from "next/navigation";
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from "react";

import { useAnswerStream } from "@/lib/answers/hooks";

import { AnswerView } from "./AnswerView";
import { VersionSelect } from "./VersionSelect";
import { FollowUpBox } from "./FollowUpBox";
import styles from "./answers.module.css";

interface AskPanelProps {
  guruSlug: string;
  guruName: string;
  examples: string[];
  /** The guru's documentation versions, newest first: more than one shows a selector. */
  versions?: string[];
  defaultVersion?: string;
}

/** The guru page's ask box: the answer streams in below it. */
export function AskPanel({
  guruSlug,
  guruName,
  examples,
  versions = [],
  defaultVersion = "",
}: AskPanelProps) {
  const router = useRouter();
  // The page's lists (recent questions) come from the server: fetched again once an answer is in.
  const { state, ask, stop, retry } = useAnswerStream(router.refresh);
  const [question, setQuestion] = useState("");
  const [version, setVersion] = useState(defaultVersion);
  const inputId = useId();
  const answerRef = useRef<HTMLDivElement>(null);

  const askQuestion = useCallback(
    (text: string) => {
      const trimmed = text.trim();
      if (!trimmed) return;
      setQuestion(trimmed);
      void ask({ guruSlug, question: trimmed, version: versions.length > 1 ? version : undefined });
    },
    [ask, guruSlug, version, versions.length],
  );

  // Once the answer's card is on the page, bring it into view (on a phone it starts below the
  // fold). Once per question: the stream's later renders must not pull the page back.
  const streamingQuestion = state.status === "streaming" ? state.question : "";
  useEffect(() => {
    if (streamingQuestion) answerRef.current?.scrollIntoView({ block: "start" });
  }, [streamingQuestion]);

  function submit(event: FormEvent) {
    event.preventDefault();
    askQuestion(question);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      askQuestion(question);
    }
  }

  const streaming = state.status === "streaming";
  return (
    <div className={styles.panel}>
      <form className={styles.ask} onSubmit={submit}>
        <label htmlFor={inputId} className={styles.askLabel}>
          Ask {guruName} a question
        </label>
        <textarea
          id={inputId}
          className={styles.askInput}
          rows={3}
          maxLength={2000}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={`How do I get started with ${guruName}?`}
        />
        <div className={styles.askFooter}>
          <span className={styles.muted}>Enter to ask, Shift+Enter for a new line.</span>
          {versions.length > 1 ? (
            <VersionSelect versions={versions} value={version} onChange={setVersion} />
          ) : null}
          <button
            type="submit"
            className={styles.primaryButton}
            disabled={streaming || !question.trim()}
          >
            {streaming ? "Answering…" : "Ask"}
          </button>
        </div>
      </form>
      {examples.length ? (
        <section aria-label="Example questions" className={styles.examples}>
          <h2 className={styles.smallHeading}>Try asking</h2>
          <ul className={styles.chips}>
            {examples.map((example) => (
              <li key={example}>
                <button
                  type="button"
                  className={styles.chip}
                  onClick={() => askQuestion(example)}
                  disabled={streaming}
                >
                  {example}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div ref={answerRef}>
        {state.status !== "idle" ? (
          <AnswerView
            guruSlug={guruSlug}
            state={state}
            onStop={stop}
            onRetry={retry}
            suggestions={examples}
            onSuggestion={askQuestion}
          />
        ) : null}
        {state.status === "done" && !state.refused && state.slug ? (
          <FollowUpBox
            key={state.slug}
            guruSlug={guruSlug}
            rootSlug={state.slug}
            parentSlug={state.slug}
          />
        ) : null}
      </div>
    </div>
  );
}
