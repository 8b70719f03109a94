"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { createWidgetId } from "@/lib/widgets/api";
import type { WidgetId } from "@/lib/widgets/types";

interface NewWidgetIdProps {
  slug: string;
  onCreated: (widget: WidgetId) => void;
}

export function NewWidgetId({ slug, onCreated }: NewWidgetIdProps) {
  const [pattern, setPattern] = useState("");
  const { run, busy, error } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(async () => {
      onCreated(await createWidgetId(slug, pattern.trim()));
      setPattern("");
    });
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label="Create a widget id">
      <div className={formStyles.row}>
        <Field
          label="Allowed sites"
          hint={
            <>
              <code>https://docs.example.com</code> (that scheme, host and port),{" "}
              <code>*.example.com</code> (sub-domains), <code>http://localhost:*</code> (any port),
              or <code>*</code> for any site.
            </>
          }
        >
          {(c) => <input {...c} value={pattern} onChange={(e) => setPattern(e.target.value)} />}
        </Field>
        <Button type="submit" variant="primary" disabled={busy}>
          Create widget id
        </Button>
      </div>
      <ActionStatus error={error} message="" />
    </form>
  );
}
