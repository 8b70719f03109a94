"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Checkbox } from "@/components/console/ui/Checkbox";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { saveSettings } from "@/lib/settings/api";
import {
  editableFields,
  HELP,
  labelFor,
  type PlatformSettings,
  type SettingsChange,
  type SettingValue,
} from "@/lib/settings/types";

interface SettingsFormProps {
  settings: PlatformSettings;
  onSaved: (saved: PlatformSettings) => void;
}

/** Every editable value Django reports, as a number, a switch or text; only changes are sent. */
export function SettingsForm({ settings, onSaved }: SettingsFormProps) {
  const fields = editableFields(settings);
  const [draft, setDraft] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(
      fields.map(([name, value]) => [name, typeof value === "boolean" ? value : String(value)]),
    ),
  );
  const { run, busy, error, message } = useAction();

  async function save(event: FormEvent) {
    event.preventDefault();
    const changes: Record<string, SettingValue> = {};
    for (const [name, original] of fields) {
      const value = draft[name];
      const typed = typeof original === "number" ? Number(value) : (value as SettingValue);
      if (typed !== original) changes[name] = typed;
    }
    await run(async () => {
      // The names are the fields Django reported as editable; Django validates each value.
      onSaved(await saveSettings(changes as SettingsChange));
      return "Saved: answers use the new values within seconds.";
    });
  }

  return (
    <form className={formStyles.form} onSubmit={save} aria-label="Answer settings">
      {fields.map(([name, original]) =>
        typeof original === "boolean" ? (
          <Checkbox
            key={name}
            checked={draft[name] === true}
            onChange={(on) => setDraft({ ...draft, [name]: on })}
          >
            {labelFor(name)}
          </Checkbox>
        ) : (
          <Field key={name} label={labelFor(name)} hint={HELP[name]}>
            {(c) => (
              <input
                {...c}
                name={name}
                type={typeof original === "number" ? "number" : "text"}
                step="any"
                value={String(draft[name] ?? "")}
                onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
              />
            )}
          </Field>
        ),
      )}
      <ActionStatus error={error} message={message} />
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
