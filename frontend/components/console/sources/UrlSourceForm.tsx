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

const COPY = {
  youtube: {
    label: "YouTube video, playlist or channel URL",
    placeholder: "https://www.youtube.com/watch?v=… or /playlist?list=… or /@channel",
    hint: "A playlist or channel is one source that follows it: new videos are added and removed ones dropped at each re-sync.",
  },
  github_repo: {
    label: "GitHub repository URL",
    placeholder: "https://github.com/owner/repo",
    hint: undefined,
  },
};

interface UrlSourceFormProps {
  slug: string;
  type: "youtube" | "github_repo";
  onAdded: () => void;
}

/** A YouTube video, playlist or channel (their transcripts) or a GitHub repository (its code
 * and docs). */
export function UrlSourceForm({ slug, type, onAdded }: UrlSourceFormProps) {
  const [url, setUrl] = useState("");
  const [branch, setBranch] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const [version, setVersion] = useState("");
  const { run, busy, error, message } = useAction();
  const copy = COPY[type];

  async function submit(event: FormEvent) {
    event.preventDefault();
    const options = type === "github_repo" && branch.trim() ? { branch: branch.trim() } : {};
    const ok = await run(async () => {
      await addSource(slug, {
        type,
        url: url.trim(),
        options,
        private: isPrivate,
        version: version.trim(),
      });
      return "Added: indexing starts in a moment.";
    });
    if (ok) {
      setUrl("");
      onAdded();
    }
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label={`Add ${copy.label}`}>
      <Field label={copy.label} hint={copy.hint}>
        {(c) => (
          <input
            {...c}
            type="url"
            required
            placeholder={copy.placeholder}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      {type === "github_repo" ? (
        <Field label="Branch" hint="Empty: the default branch.">
          {(c) => <input {...c} value={branch} onChange={(e) => setBranch(e.target.value)} />}
        </Field>
      ) : null}
      <VersionInput value={version} onChange={setVersion} />
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
