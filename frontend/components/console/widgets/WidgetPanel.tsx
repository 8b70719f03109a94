"use client";

import { useState } from "react";

import { Card } from "@/components/console/ui/Card";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import { useGuru } from "@/lib/console/gurus";
import { useWidgetIds } from "@/lib/widgets/hooks";

import { EmbedSnippet } from "./EmbedSnippet";
import { NewWidgetId } from "./NewWidgetId";
import { WidgetIdTable } from "./WidgetIdTable";

/** Widget ids of a guru, the tag to paste into a site, and a live preview. */
export function WidgetPanel({ slug }: { slug: string }) {
  const { data: ids, error, mutate } = useWidgetIds(slug);
  const { data: guru } = useGuru(slug);
  const [chosen, setChosen] = useState<number | null>(null);
  const widget = ids?.find((w) => w.id === chosen) ?? ids?.[0];

  return (
    <>
      <Card title="New widget id">
        <NewWidgetId
          slug={slug}
          onCreated={(created) => {
            setChosen(created.id);
            void mutate();
          }}
        />
      </Card>
      <Card title="Widget ids">
        {error ? <ErrorNotice title="Widget ids could not be loaded" error={error} /> : null}
        {!ids && !error ? <Loading what="widget ids" /> : null}
        {ids && ids.length === 0 ? <p>No widget ids yet.</p> : null}
        {ids && ids.length > 0 ? (
          <WidgetIdTable
            slug={slug}
            ids={ids}
            chosen={widget?.id ?? null}
            onChoose={setChosen}
            onDeleted={() => void mutate()}
          />
        ) : null}
      </Card>
      {widget ? (
        <Card title="Embed it">
          <EmbedSnippet key={widget.id} widget={widget} guruName={guru?.name ?? ""} />
        </Card>
      ) : null}
    </>
  );
}
