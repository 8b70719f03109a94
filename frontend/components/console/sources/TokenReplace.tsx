"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { useAction } from "@/lib/console/useAction";
import { replaceSourceToken } from "@/lib/sources/api";

interface TokenReplaceProps {
  slug: string;
  sourceId: number;
  name: string;
  hasToken: boolean;
  onReplaced: () => void;
}

/** A connector source's token, replaced (or removed when left empty); the stored one is never
 * shown. The source syncs again with the new one at once. */
export function TokenReplace({ slug, sourceId, name, hasToken, onReplaced }: TokenReplaceProps) {
  const [token, setToken] = useState("");
  const { run, busy, error, message } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const ok = await run(async () => {
      await replaceSourceToken(slug, sourceId, token.trim());
      return token.trim() ? "Token replaced: syncing again." : "Token removed: syncing again.";
    });
    if (ok) {
      setToken("");
      onReplaced();
    }
  }

  return (
    <details>
      <summary>{hasToken ? "Replace token" : "Add a token"}</summary>
      <form onSubmit={submit} aria-label={`Token of ${name}`}>
        <input
          type="password"
          autoComplete="off"
          aria-label={`New token for ${name}`}
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />{" "}
        <Button small type="submit" disabled={busy}>
          Save token
        </Button>
        <ActionStatus error={error} message={message} />
      </form>
    </details>
  );
}
