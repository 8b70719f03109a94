"use client";

import { useState } from "react";

import { Checkbox } from "@/components/console/ui/Checkbox";
import { Field } from "@/components/console/ui/Field";

import { commaList, ConnectorForm } from "./ConnectorForm";

type State = "all" | "open" | "closed";

/** A repository's issues and discussions. */
export function GitHubIssuesForm({ slug, onAdded }: { slug: string; onAdded: () => void }) {
  const [url, setUrl] = useState("");
  const [state, setState] = useState<State>("all");
  const [labels, setLabels] = useState("");
  const [since, setSince] = useState("");
  const [discussions, setDiscussions] = useState(true);

  return (
    <ConnectorForm
      slug={slug}
      type="github_issues"
      label="Add GitHub issues"
      url={url}
      options={() => ({
        state,
        labels: commaList(labels),
        discussions,
        ...(since ? { since } : {}),
      })}
      tokenHint="Optional for a public repository's issues; discussions need one. Stored encrypted."
      onAdded={onAdded}
      onReset={() => setUrl("")}
    >
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
    </ConnectorForm>
  );
}
