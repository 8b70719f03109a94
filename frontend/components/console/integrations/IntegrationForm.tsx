"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Checkbox } from "@/components/console/ui/Checkbox";
import { ConfirmButton } from "@/components/console/ui/ConfirmButton";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import {
  createIntegration,
  deleteIntegration,
  teamsPackageUrl,
  updateIntegration,
} from "@/lib/integrations/api";
import type { BotType, Integration, IntegrationInput } from "@/lib/integrations/types";

import { ChannelsEditor } from "./ChannelsEditor";
import { ConnectionTestButton } from "./ConnectionTestButton";

interface IntegrationFormProps {
  slug: string;
  /** The bot being edited; absent for a new one. */
  integration?: Integration;
  onSaved: () => void;
}

const LABELS: Record<BotType, { id: string; name: string; token: string }> = {
  SLACK: { id: "Slack team id", name: "Workspace name", token: "Bot token" },
  DISCORD: { id: "Discord server (guild) id", name: "Server name", token: "Bot token" },
  TEAMS: { id: "Microsoft app id", name: "Organisation name", token: "App client secret" },
};

function botType(integration?: Integration): BotType {
  return integration && integration.type !== "GITHUB" ? integration.type : "SLACK";
}

/** A Slack, Discord or Teams bot's settings. Secrets are write-only: empty keeps the stored one. */
export function IntegrationForm({ slug, integration, onSaved }: IntegrationFormProps) {
  const [type, setType] = useState<BotType>(botType(integration));
  const [externalId, setExternalId] = useState(integration?.external_id ?? "");
  const [workspace, setWorkspace] = useState(integration?.workspace_name ?? "");
  const [token, setToken] = useState("");
  const [secret, setSecret] = useState("");
  const [dms, setDms] = useState(integration?.dms_enabled ?? false);
  const [channels, setChannels] = useState(integration?.channels ?? []);
  const [tenant, setTenant] = useState(integration?.tenant_id ?? "");
  const { run, busy, error, message } = useAction();
  const slack = type === "SLACK";
  const teams = type === "TEAMS";
  const labels = LABELS[type];

  async function save(event: FormEvent) {
    event.preventDefault();
    const input: IntegrationInput & { external_id: string } = {
      external_id: externalId.trim(),
      workspace_name: workspace.trim(),
      channels,
      dms_enabled: dms,
    };
    if (token) input.bot_token = token;
    if (slack && secret) input.signing_secret = secret;
    if (teams) input.tenant_id = tenant.trim();
    const ok = await run(async () => {
      if (integration) await updateIntegration(slug, integration.id, input);
      else await createIntegration(slug, { ...input, type, bot_token: token });
      return "Saved.";
    });
    if (ok) {
      setToken("");
      setSecret("");
      onSaved();
    }
  }

  return (
    <form
      className={formStyles.form}
      onSubmit={save}
      aria-label={integration ? `${type} bot settings` : "New bot"}
    >
      {integration ? null : (
        <Field label="Platform">
          {(c) => (
            <select {...c} value={type} onChange={(e) => setType(e.target.value as BotType)}>
              <option value="SLACK">Slack</option>
              <option value="DISCORD">Discord</option>
              <option value="TEAMS">Microsoft Teams</option>
            </select>
          )}
        </Field>
      )}
      <div className={formStyles.row}>
        <Field label={labels.id}>
          {(c) => (
            <input
              {...c}
              required
              value={externalId}
              onChange={(e) => setExternalId(e.target.value)}
            />
          )}
        </Field>
        <Field label={labels.name}>
          {(c) => <input {...c} value={workspace} onChange={(e) => setWorkspace(e.target.value)} />}
        </Field>
      </div>
      <Field
        label={labels.token}
        hint={integration?.has_token ? "Stored. Leave empty to keep it." : undefined}
      >
        {(c) => (
          <input
            {...c}
            type="password"
            autoComplete="off"
            required={!integration}
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        )}
      </Field>
      {slack ? (
        <Field
          label="Signing secret"
          hint={integration?.has_signing_secret ? "Stored. Leave empty to keep it." : undefined}
        >
          {(c) => (
            <input
              {...c}
              type="password"
              autoComplete="off"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          )}
        </Field>
      ) : null}
      {teams ? (
        <Field
          label="Tenant id"
          hint="The app's Microsoft Entra tenant; empty for a multi-tenant app."
        >
          {(c) => <input {...c} value={tenant} onChange={(e) => setTenant(e.target.value)} />}
        </Field>
      ) : null}
      <Checkbox checked={dms} onChange={setDms}>
        {teams ? "Answer personal chats" : "Answer direct messages"}
      </Checkbox>
      <ChannelsEditor channels={channels} onChange={setChannels} />
      <ActionStatus error={error} message={message} />
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          {integration ? "Save" : "Connect"}
        </Button>
        {integration ? (
          <>
            <ConnectionTestButton slug={slug} id={integration.id} />
            {teams ? (
              <a href={teamsPackageUrl(slug, integration.id)} download>
                Download the Teams app package
              </a>
            ) : null}
            <ConfirmButton
              confirmLabel="Yes, disconnect"
              onConfirm={async () => {
                await deleteIntegration(slug, integration.id);
                onSaved();
              }}
            >
              Disconnect
            </ConfirmButton>
          </>
        ) : null}
      </div>
    </form>
  );
}
