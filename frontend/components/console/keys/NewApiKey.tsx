"use client";

import { useState, type FormEvent } from "react";

import { Notice } from "@/components/ui/Notice";
import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { CopyButton } from "@/components/console/ui/CopyButton";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { createApiKey } from "@/lib/keys/api";

/** Names a key and shows it once: Django keeps only its hash and prefix. */
export function NewApiKey({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [raw, setRaw] = useState("");
  const { run, busy, error } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      const created = await createApiKey(name.trim());
      setRaw(created.key);
      setName("");
      onCreated();
    });
  }

  return (
    <>
      {raw ? (
        <Notice tone="warn" title="Copy this key now: it will not be shown again.">
          <div className={formStyles.actions}>
            <code data-part="raw-key">{raw}</code>
            <CopyButton text={raw} label="Copy key" />
            <Button small onClick={() => setRaw("")}>
              I have stored it
            </Button>
          </div>
        </Notice>
      ) : null}
      <form className={formStyles.form} onSubmit={submit} aria-label="Create an API key">
        <div className={formStyles.row}>
          <Field label="Key name" hint="What uses it, e.g. “CI docs check”.">
            {(c) => (
              <input
                {...c}
                required
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <Button type="submit" variant="primary" disabled={busy}>
            Create key
          </Button>
        </div>
        <ActionStatus error={error} message="" />
      </form>
    </>
  );
}
