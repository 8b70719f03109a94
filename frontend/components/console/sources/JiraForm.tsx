"use client";

import { useState } from "react";

import { Field } from "@/components/console/ui/Field";

import {
  AccountEmailField,
  atlassianTokenHint,
  DeploymentField,
  type Deployment,
} from "./AtlassianFields";
import { ConnectorForm } from "./ConnectorForm";

/** Jira issues chosen by a JQL query. */
export function JiraForm({ slug, onAdded }: { slug: string; onAdded: () => void }) {
  const [deployment, setDeployment] = useState<Deployment>("cloud");
  const [url, setUrl] = useState("");
  const [jql, setJql] = useState("");
  const [email, setEmail] = useState("");
  const cloud = deployment === "cloud";

  return (
    <ConnectorForm
      slug={slug}
      type="jira"
      label="Add Jira issues"
      url={url}
      options={() => ({ deployment, jql: jql.trim(), ...(cloud ? { email: email.trim() } : {}) })}
      tokenHint={atlassianTokenHint(deployment)}
      onAdded={onAdded}
      onReset={() => {
        setUrl("");
        setJql("");
      }}
    >
      <DeploymentField product="Jira" value={deployment} onChange={setDeployment} />
      <Field label="Jira site URL">
        {(c) => (
          <input
            {...c}
            type="url"
            required
            placeholder={cloud ? "https://your-site.atlassian.net" : "https://jira.example.com"}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field label="JQL" hint="The issues to read, such as: project = DOCS AND status = Done">
        {(c) => <input {...c} required value={jql} onChange={(e) => setJql(e.target.value)} />}
      </Field>
      {cloud ? <AccountEmailField value={email} onChange={setEmail} /> : null}
    </ConnectorForm>
  );
}
