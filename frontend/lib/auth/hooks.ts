"use client";

import { useApi } from "@/lib/console/hooks";

import { SESSION_PATH } from "./api";
import type { Session } from "./types";

/** `initial` is the session the server already read, so the first render needs no request. */
export function useSession(initial?: Session | null) {
  return useApi<Session>(SESSION_PATH, {
    revalidateOnFocus: true,
    fallbackData: initial ?? undefined,
  });
}
