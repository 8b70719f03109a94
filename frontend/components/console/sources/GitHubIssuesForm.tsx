"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Checkbox } from "@/components/console/ui/Checkbox";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { addSource } from "@/lib/sources/api";

import { PrivateCheckbox } from "./PrivateCheckbox";

interface GitHubIssuesFormProps {
  slug: string;
  onAdded: () => void;
}

type State = "all" | "open" | "closed";

/** A repository's issues and discussions; the token is sent once and never shown again. */
export function GitHubIssuesForm({ slug, onAdded }: GitHubIssuesFormProps) {
  const [url, setUrl] = useState("");
  const [token, setToken] = useState("");
  const [state, setState] = useState<State>("all");
  const [labels, setLabels] = useState("");
  const [since, setSince] = useState("");
  const [discussions, setDiscussions] = useState(true);
  const [isPrivate, setPrivate] = useState(false);
  const { run, busy, error, message } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const options = {
      state,
      labels: labels
        .split(",")
        .map((label) => label.trim())
        .filter(Boolean),
      discussions,
      ...(since ? { since } : {}),
    };
    const ok = await run(async () => {
      await addSource(slug, {
        type: "github_issues",
        url: url.trim(),
        token: token.trim(),
        options,
        private: isPrivate,
      });
      return "Added: indexing starts in a moment.";
    });
    if (ok) {
      setUrl("");
      setToken("");
      onAdded();
    }
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label="Add GitHub issues">
      <Field label="GitHub repository URL">
        {(c) => (
          <input
            {...c}
            type="url"
            required
            placeholder="https://github.com/owner/repo"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Token"
        hint="Optional for a public repository's issues; discussions need one. Stored encrypted."
      >
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
      <Field label="State">
        {(c) => (
          <select {...c} value={state} onChange={(e) => setState(e.target.value as State)}>
            <option value="all">Open and closed</option>
            <option value="closed">Closed only</option>
            <option value="open">Open only</option>
          </select>
        )}
      </Field>
      <Field label="Labels" hint="Comma-separated; an item needs every one. Empty: any.">
        {(c) => <input {...c} value={labels} onChange={(e) => setLabels(e.target.value)} />}
      </Field>
      <Field label="Updated since" hint="Empty: all of them.">
        {(c) => (
          <input {...c} type="date" value={since} onChange={(e) => setSince(e.target.value)} />
        )}
      </Field>
      <Checkbox checked={discussions} onChange={setDiscussions}>
        Discussions too
      </Checkbox>
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
