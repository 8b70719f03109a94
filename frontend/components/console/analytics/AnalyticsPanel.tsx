"use client";

import { useState } from "react";

import { Card } from "@/components/console/ui/Card";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import layout from "@/components/console/ui/layout.module.css";
import { useAnalytics } from "@/lib/analytics/hooks";
import type { Interval } from "@/lib/analytics/types";

import styles from "./analytics.module.css";
import { ExportButtons } from "./ExportButtons";
import { GapList } from "./GapList";
import { IntervalPicker } from "./IntervalPicker";
import { QuestionsChart, TrustChart, VotesChart } from "./Charts";
import { RefusalList } from "./RefusalList";
import { TopSources } from "./TopSources";
import { TotalsList } from "./TotalsList";

/** A guru's questions over an interval: counts, charts, what it could not answer, gaps. */
export function AnalyticsPanel({ slug }: { slug: string }) {
  const [interval, setInterval] = useState<Interval>("30d");
  const { data, error } = useAnalytics(slug, interval);
  return (
    <>
      <div className={styles.toolbar}>
        <IntervalPicker value={interval} onChange={setInterval} />
        <ExportButtons slug={slug} interval={interval} />
      </div>
      {error ? <ErrorNotice title="Analytics could not be loaded" error={error} /> : null}
      {!data && !error ? <Loading what="analytics" /> : null}
      {data ? (
        <>
          <TotalsList totals={data.totals} />
          <Card title="Questions">
            <QuestionsChart days={data.questions_per_day} />
          </Card>
          <div className={layout.grid2}>
            <Card title="Trust">
              <TrustChart buckets={data.trust_histogram} />
            </Card>
            <Card title="Votes">
              <VotesChart days={data.votes_per_day} />
            </Card>
          </div>
          <Card title="Most cited sources">
            <TopSources sources={data.top_sources} />
          </Card>
        </>
      ) : null}
      <Card title="Questions it could not answer">
        <RefusalList key={interval} slug={slug} interval={interval} />
      </Card>
      <Card title="Docs gaps">
        <GapList slug={slug} interval={interval} />
      </Card>
    </>
  );
}
