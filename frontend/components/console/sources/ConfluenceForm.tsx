"use client";

import { useState } from "react";

import { Checkbox } from "@/components/console/ui/Checkbox";
import { Field } from "@/components/console/ui/Field";

import {
  AccountEmailField,
  atlassianTokenHint,
  DeploymentField,
  type Deployment,
} from "./AtlassianFields";
import { ConnectorForm } from "./ConnectorForm";

/** A Confluence space or page tree (Cloud or Data Center). */
export function ConfluenceForm({ slug, onAdded }: { slug: string; onAdded: () => void }) {
  const [deployment, setDeployment] = useState<Deployment>("cloud");
  const [url, setUrl] = useState("");
  const [space, setSpace] = useState("");
  const [rootPage, setRootPage] = useState("");
  const [email, setEmail] = useState("");
  const [attachments, setAttachments] = useState(true);
  const cloud = deployment === "cloud";

  return (
    <ConnectorForm
      slug={slug}
      type="confluence"
      label="Add Confluence"
      url={url}
      options={() => ({
        deployment,
        space: space.trim(),
        root_page: rootPage.trim(),
        attachments,
        ...(cloud ? { email: email.trim() } : {}),
      })}
      tokenHint={atlassianTokenHint(deployment)}
      onAdded={onAdded}
      onReset={() => setUrl("")}
    >
      <DeploymentField product="Confluence" value={deployment} onChange={setDeployment} />
      <Field
        label="Confluence base URL"
        hint={
          cloud
            ? "https://your-site.atlassian.net/wiki, or a space or page link copied from it."
            : "The address Confluence answers on, with its context path if it has one."
        }
      >
        {(c) => (
          <input
            {...c}
            type="url"
            required
            placeholder={
              cloud ? "https://your-site.atlassian.net/wiki" : "https://confluence.example.com"
            }
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field label="Space key" hint="Every page of the space. Or give a root page below.">
        {(c) => <input {...c} value={space} onChange={(e) => setSpace(e.target.value)} />}
      </Field>
      <Field label="Root page id" hint="This page and every page below it (instead of a space).">
        {(c) => (
          <input
            {...c}
            inputMode="numeric"
            value={rootPage}
            onChange={(e) => setRootPage(e.target.value)}
          />
        )}
      </Field>
      {cloud ? <AccountEmailField value={email} onChange={setEmail} /> : null}
      <Checkbox checked={attachments} onChange={setAttachments}>
        PDF attachments too
      </Checkbox>
    </ConnectorForm>
  );
}
