"use client";

import { useCallback, useState } from "react";

import { describeError } from "@/lib/api/client";

/** Runs one async action at a time and keeps its outcome in words for the form to show. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");

  const run = useCallback(async (action: () => Promise<string | void>) => {
    setBusy(true);
    setError("");
    setMessage("");
    try {
      setMessage((await action()) || "");
      return true;
    } catch (failure) {
      setError(describeError(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  return { run, busy, error, message };
}
