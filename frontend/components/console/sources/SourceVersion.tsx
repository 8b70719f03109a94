"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Badge } from "@/components/ui/Badge";
import { useAction } from "@/lib/console/useAction";
import { setSourceVersion } from "@/lib/sources/api";

interface SourceVersionProps {
  slug: string;
  sourceId: number;
  name: string;
  version: string;
  onChanged: () => void;
}

/** A source's documentation version, changed in place: no re-index is needed. */
export function SourceVersion({ slug, sourceId, name, version, onChanged }: SourceVersionProps) {
  const [value, setValue] = useState(version);
  const { run, busy, error, message } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const ok = await run(async () => {
      const saved = await setSourceVersion(slug, sourceId, value.trim());
      return saved.version ? `Version ${saved.version}.` : "Every version.";
    });
    if (ok) onChanged();
  }

  return (
    <details data-part="source-version">
      <summary>{version ? <Badge tone="off">{`v${version}`}</Badge> : "every version"}</summary>
      <form onSubmit={submit} aria-label={`Version of ${name}`}>
        <input
          aria-label={`Version of ${name}`}
          placeholder="4.2, latest; empty: every version"
          maxLength={32}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />{" "}
        <Button small type="submit" disabled={busy}>
          Save version
        </Button>
        <ActionStatus error={error} message={message} />
      </form>
    </details>
  );
}
