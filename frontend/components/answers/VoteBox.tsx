"use client";

import { useId, useState, type FormEvent } from "react";

import { sendVote, type VoteType } from "@/lib/answers/client";
import { ApiError } from "@/lib/api/client";
import { rememberVote, useRememberedVote, voteKey } from "@/lib/answers/votes";

import styles from "./answers.module.css";

interface VoteBoxProps {
  guruSlug: string;
  questionSlug: string;
  bingeId?: string | null;
}

/** Up or down, then optional feedback in words; Django records and counts it. */
export function VoteBox({ guruSlug, questionSlug, bingeId }: VoteBoxProps) {
  const key = voteKey(guruSlug, questionSlug, bingeId);
  const vote = useRememberedVote(key);
  const [feedback, setFeedback] = useState("");
  const [status, setStatus] = useState<"" | "sending" | "sent" | "error">("");
  const [message, setMessage] = useState("");
  const feedbackId = useId();

  async function submit(type: VoteType, text?: string) {
    setStatus("sending");
    try {
      await sendVote(guruSlug, questionSlug, {
        vote_type: type,
        feedback: text,
        binge_id: bingeId,
      });
      setStatus("sent");
      setMessage(text ? "Thanks for your feedback." : "Thanks for your vote.");
    } catch (error) {
      setStatus("error");
      setMessage(error instanceof ApiError ? error.message : "The vote was not recorded.");
    }
  }

  function choose(type: VoteType) {
    rememberVote(key, type);
    void submit(type);
  }

  function sendFeedback(event: FormEvent) {
    event.preventDefault();
    if (vote && feedback.trim()) void submit(vote, feedback.trim());
  }

  return (
    <div className={styles.votes} data-part="votes">
      <span className={styles.voteLabel}>Was this helpful?</span>
      <button
        type="button"
        className={styles.voteButton}
        aria-pressed={vote === "upvote"}
        onClick={() => choose("upvote")}
        data-vote="upvote"
      >
        <span aria-hidden="true">▲</span> Yes
      </button>
      <button
        type="button"
        className={styles.voteButton}
        aria-pressed={vote === "downvote"}
        onClick={() => choose("downvote")}
        data-vote="downvote"
      >
        <span aria-hidden="true">▼</span> No
      </button>
      {vote ? (
        <form className={styles.feedback} onSubmit={sendFeedback}>
          <label htmlFor={feedbackId}>Feedback (optional)</label>
          <input
            id={feedbackId}
            value={feedback}
            maxLength={1000}
            onChange={(e) => setFeedback(e.target.value)}
            placeholder="What was missing or wrong?"
          />
          <button type="submit" className={styles.secondaryButton} disabled={!feedback.trim()}>
            Send
          </button>
        </form>
      ) : null}
      <p className={styles.voteStatus} role="status">
        {status === "sending" ? "Sending…" : message}
      </p>
    </div>
  );
}
