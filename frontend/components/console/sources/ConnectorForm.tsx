"use client";

import { useState, type FormEvent, type ReactNode } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { addSource } from "@/lib/sources/api";
import type { SourceType } from "@/lib/sources/types";

import { PrivateCheckbox } from "./PrivateCheckbox";

interface ConnectorFormProps {
  slug: string;
  type: SourceType;
  /** The form's accessible name, such as "Add Jira issues". */
  label: string;
  url: string;
  /** The connector's own options, read when the form is sent. */
  options: () => Record<string, unknown>;
  tokenHint: string;
  onAdded: () => void;
  /** Clears the connector's own fields once the source is added. */
  onReset: () => void;
  /** The connector's own fields, shown above the token. */
  children: ReactNode;
}

/** What every connector's form shares: the token (sent once, never shown again), the private
 * flag, the add call and its status. */
export function ConnectorForm(props: ConnectorFormProps) {
  const [token, setToken] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const { run, busy, error, message } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const ok = await run(async () => {
      await addSource(props.slug, {
        type: props.type,
        url: props.url.trim(),
        token: token.trim(),
        options: props.options(),
        private: isPrivate,
      });
      return "Added: indexing starts in a moment.";
    });
    if (ok) {
      setToken("");
      props.onReset();
      props.onAdded();
    }
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label={props.label}>
      {props.children}
      <Field label="Token" hint={props.tokenHint}>
        {(c) => (
          <input
            {...c}
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        )}
      </Field>
      <PrivateCheckbox checked={isPrivate} onChange={setPrivate} />
      <ActionStatus error={error} message={message} />
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          Add source
        </Button>
      </div>
    </form>
  );
}

/** Splits a comma-separated field into its trimmed, non-empty items. */
export function commaList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}
