"use client";

import { useState, type FormEvent } from "react";

import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { NO_FILTERS, type AuditFilters } from "@/lib/audit/types";

const TEXT_FIELDS: { name: "actor" | "action" | "guru"; label: string; hint: string }[] = [
  { name: "actor", label: "Actor", hint: "A username, or “admin token”." },
  { name: "action", label: "Action", hint: "An action or its start: “auth” finds auth.*." },
  { name: "guru", label: "Guru", hint: "A guru’s slug." },
];

/** The filters as typed; applied together when the form is sent. */
export function AuditFilterForm({ onApply }: { onApply: (filters: AuditFilters) => void }) {
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const set = (name: keyof AuditFilters, value: string) => setDraft({ ...draft, [name]: value });

  function submit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label="Filter the audit log">
      <div className={formStyles.row}>
        {TEXT_FIELDS.map(({ name, label, hint }) => (
          <Field key={name} label={label} hint={hint}>
            {(c) => (
              <input {...c} value={draft[name]} onChange={(e) => set(name, e.target.value)} />
            )}
          </Field>
        ))}
      </div>
      <div className={formStyles.row}>
        <Field label="From (UTC day)">
          {(c) => (
            <input
              {...c}
              type="date"
              value={draft.since}
              onChange={(e) => set("since", e.target.value)}
            />
          )}
        </Field>
        <Field label="To (UTC day, included)">
          {(c) => (
            <input
              {...c}
              type="date"
              value={draft.until}
              onChange={(e) => set("until", e.target.value)}
            />
          )}
        </Field>
      </div>
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        <Button
          onClick={() => {
            setDraft(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
