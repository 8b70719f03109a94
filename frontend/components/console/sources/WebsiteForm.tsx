"use client";

import { useState, type FormEvent } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { useAction } from "@/lib/console/useAction";
import { addSource } from "@/lib/sources/api";
import type { CrawlMode } from "@/lib/sources/types";

import { CrawlDiscovery } from "./CrawlDiscovery";
import { PrivateCheckbox } from "./PrivateCheckbox";
import { VersionInput } from "./VersionInput";

const MODES: { value: CrawlMode; label: string }[] = [
  { value: "single", label: "Just this page" },
  { value: "crawl", label: "Crawl the site from here" },
  { value: "sitemap", label: "Pages listed in this sitemap" },
];

const patterns = (text: string) =>
  text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);

/** A website: one page, a crawl from a start page, or a sitemap. */
export function WebsiteForm({ slug, onAdded }: { slug: string; onAdded: () => void }) {
  const [url, setUrl] = useState("");
  const [mode, setMode] = useState<CrawlMode>("single");
  const [maxPages, setMaxPages] = useState("200");
  const [include, setInclude] = useState("");
  const [exclude, setExclude] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const [version, setVersion] = useState("");
  const { run, busy, error, message } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const options =
      mode === "single"
        ? {}
        : {
            max_pages: Number(maxPages) || undefined,
            include_patterns: patterns(include),
            exclude_patterns: patterns(exclude),
          };
    const ok = await run(async () => {
      await addSource(slug, {
        type: "website",
        url: url.trim(),
        crawl_mode: mode,
        options,
        private: isPrivate,
        version: version.trim(),
      });
      return "Added: indexing starts in a moment; the table shows its progress.";
    });
    if (ok) {
      setUrl("");
      onAdded();
    }
  }

  return (
    <form className={formStyles.form} onSubmit={submit} aria-label="Add a website">
      <Field label="Website URL">
        {(c) => (
          <input
            {...c}
            type="url"
            required
            placeholder="https://docs.example.com/"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <fieldset className={formStyles.fieldset}>
        <legend className={formStyles.legend}>What to index</legend>
        {MODES.map((option) => (
          <label key={option.value} className={formStyles.check}>
            <input
              type="radio"
              name="crawl_mode"
              value={option.value}
              checked={mode === option.value}
              onChange={() => setMode(option.value)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {mode === "single" ? null : (
        <>
          <Field label="Most pages">
            {(c) => (
              <input
                {...c}
                type="number"
                min={1}
                value={maxPages}
                onChange={(e) => setMaxPages(e.target.value)}
              />
            )}
          </Field>
          <div className={formStyles.row}>
            <Field label="Only paths matching" hint="Comma or line separated, e.g. /docs/*">
              {(c) => (
                <textarea
                  {...c}
                  rows={2}
                  value={include}
                  onChange={(e) => setInclude(e.target.value)}
                />
              )}
            </Field>
            <Field label="Skip paths matching" hint="e.g. /blog/*">
              {(c) => (
                <textarea
                  {...c}
                  rows={2}
                  value={exclude}
                  onChange={(e) => setExclude(e.target.value)}
                />
              )}
            </Field>
          </div>
        </>
      )}
      <VersionInput value={version} onChange={setVersion} />
      <PrivateCheckbox checked={isPrivate} onChange={setPrivate} />
      <ActionStatus error={error} message={message} />
      <div className={formStyles.actions}>
        <Button type="submit" variant="primary" disabled={busy}>
          {mode === "single" ? "Add page" : "Add site"}
        </Button>
      </div>
      {mode === "crawl" ? (
        <CrawlDiscovery
          slug={slug}
          url={url.trim()}
          linkLimit={Number(maxPages) || 200}
          isPrivate={isPrivate}
          onAdded={onAdded}
        />
      ) : null}
    </form>
  );
}
