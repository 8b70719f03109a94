"use client";

import { useState } from "react";

import { Field } from "@/components/console/ui/Field";

import { commaList, ConnectorForm } from "./ConnectorForm";

/** A Zendesk help center's articles. */
export function ZendeskForm({ slug, onAdded }: { slug: string; onAdded: () => void }) {
  const [url, setUrl] = useState("");
  const [locale, setLocale] = useState("en-us");
  const [sections, setSections] = useState("");
  const [email, setEmail] = useState("");

  return (
    <ConnectorForm
      slug={slug}
      type="zendesk"
      label="Add a Zendesk help center"
      url={url}
      options={() => ({
        locale: locale.trim(),
        section_ids: commaList(sections),
        email: email.trim(),
      })}
      tokenHint="None for a public help center. Stored encrypted."
      onAdded={onAdded}
      onReset={() => setUrl("")}
    >
      <Field label="Zendesk subdomain or URL" hint="acme, or https://acme.zendesk.com">
        {(c) => (
          <input
            {...c}
            required
            placeholder="acme"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field label="Locale">
        {(c) => (
          <input {...c} required value={locale} onChange={(e) => setLocale(e.target.value)} />
        )}
      </Field>
      <Field label="Section ids" hint="Comma-separated. Empty: every section.">
        {(c) => <input {...c} value={sections} onChange={(e) => setSections(e.target.value)} />}
      </Field>
      <Field label="Agent email" hint="With an API token. Empty with an OAuth token.">
        {(c) => (
          <input
            {...c}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
    </ConnectorForm>
  );
}
