"use client";

import { Card } from "@/components/console/ui/Card";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import { useSources } from "@/lib/sources/hooks";

import { AddSource } from "./AddSource";
import { SourcesTable } from "./SourcesTable";

/** A guru's sources: the live table, and the forms that add more. */
export function SourcesPanel({ slug }: { slug: string }) {
  const { data: sources, error, mutate } = useSources(slug);
  const refresh = () => void mutate();
  return (
    <>
      <Card title="Sources">
        {error ? <ErrorNotice title="Sources could not be loaded" error={error} /> : null}
        {!sources && !error ? <Loading what="sources" /> : null}
        {sources && sources.length === 0 ? <p>No sources yet: add one below.</p> : null}
        {sources && sources.length > 0 ? (
          <SourcesTable slug={slug} sources={sources} onChanged={refresh} />
        ) : null}
      </Card>
      <Card title="Add a source">
        <AddSource slug={slug} onAdded={refresh} />
      </Card>
    </>
  );
}
