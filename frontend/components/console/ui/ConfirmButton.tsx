"use client";

import { useState, type ReactNode } from "react";

import { describeError } from "@/lib/api/client";

import { Button } from "./Button";

interface ConfirmButtonProps {
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  disabled?: boolean;
  small?: boolean;
}

/** A destructive action in two clicks: the first asks, the second does it. */
export function ConfirmButton({
  children,
  confirmLabel,
  onConfirm,
  disabled,
  small,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  async function confirm() {
    setBusy(true);
    setError("");
    try {
      await onConfirm();
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <span>
      {asking ? (
        <span role="group" aria-label="Confirm">
          <Button variant="danger" small={small} disabled={busy} onClick={confirm}>
            {confirmLabel}
          </Button>{" "}
          <Button small={small} onClick={() => setAsking(false)}>
            Cancel
          </Button>
        </span>
      ) : (
        <Button variant="danger" small={small} disabled={disabled} onClick={() => setAsking(true)}>
          {children}
        </Button>
      )}
      {error ? <span role="alert"> {error}</span> : null}
    </span>
  );
}
