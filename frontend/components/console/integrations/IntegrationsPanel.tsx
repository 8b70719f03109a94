"use client";

import { useState } from "react";

import { Card } from "@/components/console/ui/Card";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import { useIntegrations } from "@/lib/integrations/hooks";

import { GitHubAppForm } from "./GitHubAppForm";
import { IntegrationForm } from "./IntegrationForm";

const TYPE_NAMES = {
  SLACK: "Slack",
  DISCORD: "Discord",
  GITHUB: "GitHub App",
  TEAMS: "Teams",
} as const;

/** The guru's Slack, Discord and Teams bots and GitHub Apps: one form each, and one to add another. */
export function IntegrationsPanel({ slug }: { slug: string }) {
  const { data: integrations, error, mutate } = useIntegrations(slug);
  const refresh = () => void mutate();
  // A new blank form after each bot is connected: the connected one has its own card now.
  const [added, setAdded] = useState(0);
  return (
    <>
      {error ? <ErrorNotice title="Integrations could not be loaded" error={error} /> : null}
      {!integrations && !error ? <Loading what="integrations" /> : null}
      {integrations?.map((integration) => (
        <Card
          key={integration.id}
          title={`${TYPE_NAMES[integration.type]}: ${integration.workspace_name || integration.external_id}`}
        >
          {integration.type === "GITHUB" ? (
            <GitHubAppForm slug={slug} id={integration.id} onSaved={refresh} />
          ) : (
            <IntegrationForm slug={slug} integration={integration} onSaved={refresh} />
          )}
        </Card>
      ))}
      <Card title="Connect a bot">
        <p>
          Setup steps for each platform are in <code>docs/bots.md</code>.
        </p>
        <IntegrationForm
          key={added}
          slug={slug}
          onSaved={() => {
            refresh();
            setAdded((n) => n + 1);
          }}
        />
      </Card>
      <Card title="Connect a GitHub App">
        <p>
          Answers in issues and discussions when mentioned. Creating the app is described in{" "}
          <code>docs/bots.md</code>.
        </p>
        <GitHubAppForm
          key={`github-${added}`}
          slug={slug}
          onSaved={() => {
            refresh();
            setAdded((n) => n + 1);
          }}
        />
      </Card>
    </>
  );
}
