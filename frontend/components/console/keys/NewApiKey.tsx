"use client";

import { useState, type FormEvent } from "react";

import { Notice } from "@/components/ui/Notice";
import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { CopyButton } from "@/components/console/ui/CopyButton";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useGurus } from "@/lib/console/gurus";
import { useAction } from "@/lib/console/useAction";
import { createApiKey } from "@/lib/keys/api";
import type { KeyScope } from "@/lib/keys/types";

/** Names a key and shows it once: Django keeps only its hash and prefix. */
export function NewApiKey({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [raw, setRaw] = useState("");
  const [scope, setScope] = useState<KeyScope>("");
  const [gurus, setGurus] = useState<string[]>([]);
  const { data: choices } = useGurus();
  const { run, busy, error } = useAction();

  function toggle(slug: string, on: boolean) {
    setGurus((current) => (on ? [...current, slug] : current.filter((s) => s !== slug)));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      const created = await createApiKey(name.trim(), { scope, gurus });
      setRaw(created.key);
      setName("");
      setScope("");
      setGurus([]);
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
          <Field label="Scope" hint="Never more than you may do yourself.">
            {(c) => (
              <select {...c} value={scope} onChange={(e) => setScope(e.target.value as KeyScope)}>
                <option value="">Everything you may do</option>
                <option value="ask">Ask: answers, search, sessions</option>
                <option value="manage">Manage: ask and change sources</option>
              </select>
            )}
          </Field>
          <Button type="submit" variant="primary" disabled={busy}>
            Create key
          </Button>
        </div>
        {choices?.length ? (
          <fieldset className={formStyles.form} data-part="key-gurus">
            <legend>Only these gurus (none ticked: every guru you may reach)</legend>
            {choices.map((guru) => (
              <label key={guru.slug}>
                <input
                  type="checkbox"
                  checked={gurus.includes(guru.slug)}
                  onChange={(e) => toggle(guru.slug, e.target.checked)}
                />{" "}
                {guru.name}
              </label>
            ))}
          </fieldset>
        ) : null}
        <ActionStatus error={error} message="" />
      </form>
    </>
  );
}
