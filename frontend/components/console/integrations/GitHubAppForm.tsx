"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Checkbox } from "@/components/console/ui/Checkbox";
import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { commaList } from "@/components/console/sources/ConnectorForm";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import { useAction } from "@/lib/console/useAction";
import { deleteIntegration } from "@/lib/integrations/api";
import {
  createGitHubApp,
  updateGitHubApp,
  useGitHubApp,
  type GitHubAppChange,
  type RepositorySetting,
} from "@/lib/integrations/github";

interface GitHubAppFormProps {
  slug: string;
  /** The integration being edited; absent for a new one. */
  id?: number;
  onSaved: () => void;
}

type Settings = Record<string, RepositorySetting>;

/** A GitHub App installation: its credentials (write-only), and per covered repository
 * whether the bot answers only mentions or every new issue and discussion (with labels). */
export function GitHubAppForm({ slug, id, onSaved }: GitHubAppFormProps) {
  const [installation, setInstallation] = useState("");
  const [appId, setAppId] = useState("");
  const [key, setKey] = useState("");
  const [secret, setSecret] = useState("");
  const { run, busy, error, message } = useAction();

  async function save(event: FormEvent) {
    event.preventDefault();
    const input: GitHubAppChange = {};
    if (installation) input.installation_id = installation.trim();
    if (appId) input.app_id = appId.trim();
    if (key) input.private_key = key;
    if (secret) input.webhook_secret = secret;
    const ok = await run(async () => {
      if (id) await updateGitHubApp(slug, id, input);
      else
        await createGitHubApp(slug, {
          installation_id: installation.trim(),
          app_id: appId.trim(),
          private_key: key,
          webhook_secret: secret,
        });
      return "Saved.";
    });
    if (ok) {
      setKey("");
      setSecret("");
      onSaved();
    }
  }

  const kept = id ? "Stored. Leave empty to keep it." : undefined;
  return (
    <form
      className={formStyles.form}
      onSubmit={save}
      aria-label={id ? "GitHub App settings" : "New GitHub App"}
    >
      <div className={formStyles.row}>
        <Field label="App id" hint={id ? "Leave empty to keep it." : undefined}>
          {(c) => (
            <input {...c} required={!id} value={appId} onChange={(e) => setAppId(e.target.value)} />
          )}
        </Field>
        <Field label="Installation id" hint={id ? "Leave empty to keep it." : undefined}>
          {(c) => (
            <input
              {...c}
              required={!id}
              value={installation}
              onChange={(e) => setInstallation(e.target.value)}
            />
          )}
        </Field>
      </div>
      <Field label="Private key (PEM)" hint={kept}>
        {(c) => (
          <textarea
            {...c}
            rows={3}
            required={!id}
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        )}
      </Field>
      <Field label="Webhook secret" hint={kept}>
        {(c) => (
          <input
            {...c}
            type="password"
            autoComplete="off"
            required={!id}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        )}
      </Field>
      <ActionStatus error={error} message={message} />
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          {id ? "Save" : "Connect"}
        </Button>
        {id ? (
          <ConfirmButton
            confirmLabel="Yes, disconnect"
            onConfirm={async () => {
              await deleteIntegration(slug, id);
              onSaved();
            }}
          >
            Disconnect
          </ConfirmButton>
        ) : null}
      </div>
      {id ? <Repositories slug={slug} id={id} /> : null}
    </form>
  );
}

/** The repositories the installation covers, each answered on mentions or on every new issue. */
function Repositories({ slug, id }: { slug: string; id: number }) {
  const { data, error, mutate } = useGitHubApp(slug, id);
  const [settings, setSettings] = useState<Settings | null>(null);
  // The labels as typed: read back from the list, a comma or a space just typed would vanish.
  const [labelsTyped, setLabelsTyped] = useState<Record<string, string>>({});
  const { run, busy, error: saveError, message } = useAction();
  if (error) return <ErrorNotice title="The app could not be loaded" error={error} />;
  if (!data) return <Loading what="repositories" />;
  const current = settings ?? data.repositories;
  const change = (name: string, setting: Partial<RepositorySetting>) =>
    setSettings({
      ...current,
      [name]: { ...{ mode: "mention", labels: [], faq: false }, ...current[name], ...setting },
    });
  const save = () =>
    void run(async () => {
      await updateGitHubApp(slug, id, { repositories: current });
      await mutate();
      return "Repositories saved.";
    });
  return (
    <fieldset className={formStyles.fieldset}>
      <legend className={formStyles.legend}>Repositories @{data.slug} answers in</legend>
      {data.covered === null ? <p>GitHub did not list them: {data.covered_error}</p> : null}
      {data.covered?.length === 0 ? <p>The installation covers no repository yet.</p> : null}
      {data.covered?.map((repository) => (
        <div key={repository.full_name} className={formStyles.row} data-part="repository">
          <Field label={`${repository.full_name} answers`}>
            {(c) => (
              <select
                {...c}
                value={current[repository.full_name]?.mode ?? "mention"}
                onChange={(e) =>
                  change(repository.full_name, { mode: e.target.value as "mention" | "all" })
                }
              >
                <option value="mention">When mentioned</option>
                <option value="all">Every new issue and discussion</option>
              </select>
            )}
          </Field>
          <Field label={`${repository.full_name} labels`} hint="Comma-separated; empty: any.">
            {(c) => (
              <input
                {...c}
                value={
                  labelsTyped[repository.full_name] ??
                  (current[repository.full_name]?.labels ?? []).join(", ")
                }
                onChange={(e) => {
                  setLabelsTyped({ ...labelsTyped, [repository.full_name]: e.target.value });
                  change(repository.full_name, { labels: commaList(e.target.value) });
                }}
              />
            )}
          </Field>
          <Checkbox
            checked={current[repository.full_name]?.faq ?? false}
            onChange={(faq) => change(repository.full_name, { faq })}
          >
            Add accepted discussion answers of {repository.full_name} as FAQ entries
          </Checkbox>
        </div>
      ))}
      <ActionStatus error={saveError} message={message} />
      {data.covered?.length ? (
        <div>
          <Button small disabled={busy} onClick={save}>
            Save repositories
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}
