"use client";

import type { ReactNode } from "react";
import { mutate, SWRConfig } from "swr";

import { SESSION_PATH } from "@/lib/auth/api";
import { ApiError } from "@/lib/api/client";

/** When any admin call says "not signed in", ask for the session again: the guard then
 * sends the browser to the sign-in page. */
function onError(error: unknown, key: string) {
  const signedOut = error instanceof ApiError && (error.status === 401 || error.status === 403);
  if (signedOut && key !== SESSION_PATH) void mutate(SESSION_PATH);
}

export function ConsoleProviders({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={{ onError, shouldRetryOnError: false, revalidateOnFocus: false }}>
      {children}
    </SWRConfig>
  );
}
