"use client";

import { useApi } from "@/lib/console/hooks";

import { sourcesPath } from "./api";
import { isInProgress, type Source } from "./types";

/** How often the table asks again while anything is being indexed. */
const POLL_MS = 1500;

/** A guru's sources, polled while any of them is waiting or running. */
export function useSources(slug: string) {
  return useApi<Source[]>(sourcesPath(slug), {
    refreshInterval: (sources) => (sources?.some(isInProgress) ? POLL_MS : 0),
  });
}
