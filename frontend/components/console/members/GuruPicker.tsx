"use client";

import { Checkbox } from "@/components/console/ui/Checkbox";
import formStyles from "@/components/console/ui/forms.module.css";

interface GuruPickerProps {
  legend: string;
  slugs: string[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
}

/** Checkboxes, one per guru, in a named group. */
export function GuruPicker({ legend, slugs, chosen, onChange }: GuruPickerProps) {
  const toggle = (slug: string, on: boolean) =>
    onChange(on ? [...chosen, slug] : chosen.filter((other) => other !== slug));
  return (
    <fieldset className={formStyles.field}>
      <legend className={formStyles.label}>{legend}</legend>
      {slugs.length === 0 ? <p>No gurus yet.</p> : null}
      {slugs.map((slug) => (
        <Checkbox key={slug} checked={chosen.includes(slug)} onChange={(on) => toggle(slug, on)}>
          {slug}
        </Checkbox>
      ))}
    </fieldset>
  );
}
