"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { addSource } from "@/lib/sources/api";

import { PrivateCheckbox } from "./PrivateCheckbox";
import { VersionInput } from "./VersionInput";

/** Pasted text (markdown), indexed like a page. */
export function TextSourceForm({ slug, onAdded }: { slug: string; onAdded: () => void }) {
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const [version, setVersion] = useState("");
  const { run, busy, error, message } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const ok = await run(async () => {
      await addSource(slug, {
        type: "text",
        title: title.trim(),
        content,
        private: isPrivate,
        version: version.trim(),
      });
      return "Added: indexing starts in a moment.";
    });
    if (ok) {
      setTitle("");
      setContent("");
      onAdded();
    }
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label="Add text">
      <Field label="Title">
        {(c) => <input {...c} required value={title} onChange={(e) => setTitle(e.target.value)} />}
      </Field>
      <Field label="Text" hint="Markdown: headings become the sections answers cite.">
        {(c) => (
          <textarea
            {...c}
            required
            rows={8}
            value={content}
            onChange={(e) => setContent(e.target.value)}
          />
        )}
      </Field>
      <VersionInput value={version} onChange={setVersion} />
      <PrivateCheckbox checked={isPrivate} onChange={setPrivate} />
      <ActionStatus error={error} message={message} />
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          Add text
        </Button>
      </div>
    </form>
  );
}
