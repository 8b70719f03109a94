"use client";

import { useSyncExternalStore } from "react";

import type { VoteType } from "./client";

/**
 * The visitor's own vote per answer, kept in this browser: the page an answer appears on may
 * change (a question page becomes the conversation view after a follow-up), and the pressed
 * button must stay pressed there. Django counts votes; this only remembers which one was ours.
 */
const PREFIX = "openguru:vote:";
const listeners = new Set<() => void>();

function read(key: string): VoteType | null {
  try {
    const value = window.localStorage.getItem(PREFIX + key);
    return value === "upvote" || value === "downvote" ? value : null;
  } catch {
    return null; // storage disabled: the vote is still sent, just not remembered
  }
}

export function rememberVote(key: string, vote: VoteType): void {
  try {
    window.localStorage.setItem(PREFIX + key, vote);
  } catch {
    // as in read()
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function voteKey(guruSlug: string, questionSlug: string, bingeId?: string | null): string {
  return `${guruSlug}/${questionSlug}/${bingeId ?? ""}`;
}

/** The remembered vote; null on the server and before hydration. */
export function useRememberedVote(key: string): VoteType | null {
  return useSyncExternalStore(
    subscribe,
    () => read(key),
    () => null,
  );
}
