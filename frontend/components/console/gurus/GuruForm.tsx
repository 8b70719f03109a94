"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { mutate } from "swr";

import { Notice } from "@/components/ui/Notice";
import { Button } from "@/components/console/ui/Button";
import formStyles from "@/components/console/ui/forms.module.css";
import styles from "@/components/console/ui/layout.module.css";
import { describeError, guruPath } from "@/lib/api/client";
import {
  createInput,
  previewGuru,
  slugFromName,
  updateInput,
  type GuruFormValues,
} from "@/lib/console/guruForm";
import { createGuru, GURUS_PATH, updateGuru, uploadGuruIcon } from "@/lib/console/gurus";

import { GuruFields } from "./GuruFields";
import { GuruPreview } from "./GuruPreview";
import { IconPicker } from "./IconPicker";

interface GuruFormProps {
  initial: GuruFormValues;
  /** The slug of the guru being edited; absent when creating one. */
  slug?: string;
  instructionHidden?: boolean;
  calibrated?: number | null;
}

export function GuruForm({ initial, slug, instructionHidden, calibrated }: GuruFormProps) {
  const creating = !slug;
  const router = useRouter();
  const [values, setValues] = useState(initial);
  const [slugTouched, setSlugTouched] = useState(!creating);
  const [icon, setIcon] = useState<{ file: File | null; url: string }>({ file: null, url: "" });
  const [status, setStatus] = useState<{ tone: "info" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // What Django holds now: the next save sends only what differs from it.
  const [baseline, setBaseline] = useState(initial);

  function onText(field: Exclude<keyof GuruFormValues, "active">, value: string) {
    setValues((current) => {
      const next = { ...current, [field]: value };
      if (field === "name" && !slugTouched) next.slug = slugFromName(value);
      return next;
    });
    if (field === "slug") setSlugTouched(true);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    try {
      const saved = slug
        ? await updateGuru(slug, updateInput(values, baseline))
        : await createGuru(createInput(values));
      let iconUrl = saved.icon_url;
      if (icon.file) {
        iconUrl = (await uploadGuruIcon(saved.slug, icon.file)).icon_url;
        setIcon({ file: null, url: "" });
      }
      const stored = { ...values, icon_url: iconUrl, github_webhook_secret: "" };
      setValues(stored);
      setBaseline(stored);
      await mutate(GURUS_PATH);
      await mutate(`${guruPath(saved.slug)}/`);
      if (creating) {
        // The form is long: the new guru's page opens at its top, title first.
        window.scrollTo({ top: 0 });
        router.push(`/console/gurus/${saved.slug}/sources`, { scroll: false });
      } else setStatus({ tone: "info", text: "Saved." });
    } catch (failure) {
      setStatus({ tone: "error", text: describeError(failure) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.grid2}>
      <form className={formStyles.form} onSubmit={save} aria-label="Guru settings">
        <GuruFields
          values={values}
          creating={creating}
          instructionHidden={instructionHidden}
          calibrated={calibrated}
          onText={onText}
          onActive={(active) => setValues((current) => ({ ...current, active }))}
        />
        <IconPicker onPick={(file, url) => setIcon({ file, url })} />
        {status ? (
          <Notice tone={status.tone} title={status.tone === "error" ? "Not saved" : status.text}>
            {status.tone === "error" ? status.text : null}
          </Notice>
        ) : null}
        <div className={formStyles.actions}>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? "Saving…" : creating ? "Create guru" : "Save changes"}
          </Button>
        </div>
      </form>
      <GuruPreview guru={previewGuru(values, icon.url)} />
    </div>
  );
}
