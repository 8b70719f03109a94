"use client";

import { useState } from "react";

import { Badge } from "@/components/ui/Badge";
import { Button } from "@/components/console/ui/Button";
import { describeError } from "@/lib/api/client";
import { testIntegration } from "@/lib/integrations/api";
import type { ConnectionTest } from "@/lib/integrations/types";

/** Asks Django to call the platform with the stored token (Slack auth.test, Discord /users/@me). */
export function ConnectionTestButton({ slug, id }: { slug: string; id: number }) {
  const [result, setResult] = useState<ConnectionTest | null>(null);
  const [busy, setBusy] = useState(false);
  async function check() {
    setBusy(true);
    try {
      setResult(await testIntegration(slug, id));
    } catch (failure) {
      setResult({ ok: false, detail: describeError(failure) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <span aria-live="polite">
      <Button onClick={check} disabled={busy}>
        {busy ? "Testing…" : "Test connection"}
      </Button>{" "}
      {result ? (
        <span data-part="connection-test" data-ok={result.ok}>
          <Badge tone={result.ok ? "ok" : "error"}>{result.ok ? "connected" : "failed"}</Badge>{" "}
          {result.detail}
        </span>
      ) : null}
    </span>
  );
}
