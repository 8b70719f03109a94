"use client";

import { useCallback, useEffect, useRef, useState } from "react";

import { ApiError } from "@/lib/api/client";

import { askStream, type AskParams, type StreamDone } from "./client";
import type { Reference } from "./types";

export type AnswerStatus = "idle" | "streaming" | "done" | "stopped" | "error";

export interface AnswerState {
  status: AnswerStatus;
  question: string;
  /** The markdown received so far (the whole answer once done). */
  text: string;
  references: Reference[];
  trustScore: number | null;
  refused: boolean;
  slug: string;
  bingeId: string | null;
  dateUpdated: string;
  error: ApiError | null;
}

const IDLE: AnswerState = {
  status: "idle",
  question: "",
  text: "",
  references: [],
  trustScore: null,
  refused: false,
  slug: "",
  bingeId: null,
  dateUpdated: "",
  error: null,
};

function finished(state: AnswerState, done: StreamDone): AnswerState {
  return {
    ...state,
    status: "done",
    text: done.content || state.text,
    references: done.references.length ? done.references : state.references,
    trustScore: done.trust_score,
    refused: done.refused,
    slug: done.slug || state.slug,
    bingeId: done.binge_id,
    dateUpdated: done.date_updated,
  };
}

/** One streamed answer at a time: `ask` starts it (stopping any other), `stop` aborts it. */
export function useAnswerStream(onDone?: (state: AnswerState) => void) {
  const [state, setState] = useState<AnswerState>(IDLE);
  const controller = useRef<AbortController | null>(null);
  const lastParams = useRef<AskParams | null>(null);
  const onDoneRef = useRef(onDone);
  useEffect(() => {
    onDoneRef.current = onDone;
  }, [onDone]);

  useEffect(() => () => controller.current?.abort(), []);

  const ask = useCallback(async (params: AskParams) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    lastParams.current = params;
    let current: AnswerState = { ...IDLE, status: "streaming", question: params.question };
    const update = (next: AnswerState) => {
      current = next;
      if (!abort.signal.aborted) setState(next);
    };
    update(current);
    try {
      for await (const event of askStream(params, abort.signal)) {
        if (event.type === "meta") {
          const { references, trust_score, refused, slug } = event.meta;
          update({ ...current, references, trustScore: trust_score, refused, slug });
        } else if (event.type === "delta") {
          update({ ...current, text: current.text + event.text });
        } else if (event.type === "done") {
          update(finished(current, event.done));
          onDoneRef.current?.(current);
        } else {
          update({ ...current, status: "error", error: event.error });
        }
      }
      if (current.status === "streaming") {
        update({
          ...current,
          status: "error",
          error: new ApiError(0, "interrupted", "The answer was cut off before it finished."),
        });
      }
    } catch (error) {
      if (abort.signal.aborted) return;
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(0, "interrupted", "The connection was lost while the answer streamed.");
      update({ ...current, status: "error", error: apiError });
    }
  }, []);

  const stop = useCallback(() => {
    controller.current?.abort();
    setState((s) => (s.status === "streaming" ? { ...s, status: "stopped" } : s));
  }, []);

  const retry = useCallback(() => {
    if (lastParams.current) void ask(lastParams.current);
  }, [ask]);

  return { state, ask, stop, retry };
}
