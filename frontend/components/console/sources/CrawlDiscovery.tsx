"use client";

import { useState } from "react";

import { ActionStatus } from "@/components/console/ui/ActionStatus";
import { Button } from "@/components/console/ui/Button";
import formStyles from "@/components/console/ui/forms.module.css";
import { describeError, v1Path } from "@/lib/api/client";
import { useApi } from "@/lib/console/hooks";
import { useAction } from "@/lib/console/useAction";
import { addPages, startCrawl, stopCrawl } from "@/lib/sources/api";
import type { Crawl } from "@/lib/sources/types";

import styles from "./sources.module.css";

interface CrawlDiscoveryProps {
  slug: string;
  url: string;
  linkLimit: number;
  isPrivate: boolean;
  onAdded: () => void;
}

/** Finds a site's pages first (nothing is indexed), live, stoppable; then adds the chosen
 * pages as single-page sources. */
export function CrawlDiscovery({ slug, url, linkLimit, isPrivate, onAdded }: CrawlDiscoveryProps) {
  const [crawlId, setCrawlId] = useState<number | null>(null);
  const [skipped, setSkipped] = useState<Set<string>>(new Set());
  const { run, busy, error, message } = useAction();
  const { data: crawl, mutate } = useApi<Crawl>(
    crawlId ? `${v1Path(slug)}/crawl/${crawlId}/status/` : null,
    { refreshInterval: (c) => (c?.status === "RUNNING" ? 1000 : 0) },
  );
  const running = crawl?.status === "RUNNING";
  const chosen = (crawl?.discovered_urls ?? []).filter((u) => !skipped.has(u));

  const start = () =>
    run(async () => {
      const started = await startCrawl(slug, url, linkLimit);
      setSkipped(new Set());
      setCrawlId(started.id);
      await mutate(started, { revalidate: false });
    });

  const stop = () =>
    run(async () => {
      if (crawlId) await mutate(await stopCrawl(slug, crawlId), { revalidate: false });
    });

  const add = () =>
    run(async () => {
      const failures = await addPages(slug, chosen, isPrivate);
      onAdded();
      if (failures[0])
        throw new Error(`${failures.length} not added: ${describeError(failures[0].reason)}`);
      return `${chosen.length} pages added.`;
    });

  function toggle(page: string, on: boolean) {
    setSkipped((current) => {
      const next = new Set(current);
      if (on) next.delete(page);
      else next.add(page);
      return next;
    });
  }

  return (
    <fieldset className={formStyles.fieldset} data-part="crawl">
      <legend className={formStyles.legend}>Or pick the pages first</legend>
      <div className={formStyles.actions}>
        <Button onClick={start} disabled={busy || running || !url}>
          Discover pages
        </Button>
        {running ? <Button onClick={stop}>Stop</Button> : null}
      </div>
      {crawl ? (
        <p aria-live="polite" data-part="crawl-count">
          {crawl.discovered_urls.length} pages discovered
          {running ? " so far…" : ` (${crawl.status.toLowerCase()})`}
          {crawl.error ? `: ${crawl.error}` : ""}
        </p>
      ) : null}
      {crawl && !running && crawl.discovered_urls.length ? (
        <>
          <ul className={styles.urls} aria-label="Discovered pages">
            {crawl.discovered_urls.map((page) => (
              <li key={page}>
                <label className={formStyles.check}>
                  <input
                    type="checkbox"
                    checked={!skipped.has(page)}
                    onChange={(e) => toggle(page, e.target.checked)}
                  />
                  {page}
                </label>
              </li>
            ))}
          </ul>
          <div>
            <Button variant="primary" onClick={add} disabled={busy || chosen.length === 0}>
              Add {chosen.length} selected pages
            </Button>
          </div>
        </>
      ) : null}
      <ActionStatus error={error} message={message} />
    </fieldset>
  );
}
