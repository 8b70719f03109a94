"use client";

import { useApi } from "@/lib/console/hooks";

import { SESSION_PATH } from "./api";
import type { Session } from "./types";

export function useSession() {
  return useApi<Session>(SESSION_PATH, { revalidateOnFocus: true });
}
