"use client";

import { useState } from "react";

import { Button } from "@/components/console/ui/Button";
import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import { describeError } from "@/lib/api/client";
import { deleteSource, reindexSource } from "@/lib/sources/api";

import styles from "./sources.module.css";

interface BulkActionsProps {
  slug: string;
  selected: number[];
  onDone: () => void;
}

/** Re-index or delete the selected sources, one call each; the first failure is shown. */
export function BulkActions({ slug, selected, onDone }: BulkActionsProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  async function apply(action: (slug: string, id: number) => Promise<void>) {
    setBusy(true);
    setError("");
    const results = await Promise.allSettled(selected.map((id) => action(slug, id)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) setError(describeError(failed.reason));
    setBusy(false);
    onDone();
  }

  const none = selected.length === 0;
  return (
    <div className={styles.bulk} role="group" aria-label="Selected sources">
      <span aria-live="polite">{selected.length} selected</span>
      <Button small disabled={none || busy} onClick={() => apply(reindexSource)}>
        Re-index
      </Button>
      <ConfirmButton
        small
        disabled={none || busy}
        confirmLabel={`Delete ${selected.length}`}
        onConfirm={() => apply(deleteSource)}
      >
        Delete
      </ConfirmButton>
      {error ? (
        <span role="alert" className={styles.error}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
