import {
  CHANNEL_LABELS,
  CHANNELS,
  type DayCounts,
  type TrustBucket,
  type VotesDay,
} from "@/lib/analytics/types";

import { ChartFigure } from "./ChartFigure";
import { percentRange, shortDay } from "./format";

/** One colour per channel, apart for the common kinds of colour blindness. */
const CHANNEL_COLORS = {
  ui: "#0969da",
  api: "#8250df",
  widget: "#1a7f37",
  slack: "#bf3989",
  discord: "#bc4c00",
  teams: "#4f52b2",
  github: "#57606a",
} as const;

const CHANNEL_SERIES = CHANNELS.map((key) => ({
  key,
  label: CHANNEL_LABELS[key],
  color: CHANNEL_COLORS[key],
}));

/** Questions per day, stacked by the channel they came from. */
export function QuestionsChart({ days }: { days: DayCounts[] }) {
  return (
    <ChartFigure
      name="questions"
      title="Questions per day by channel"
      rowHeader="Day"
      series={CHANNEL_SERIES}
      extraColumns={[{ key: "total", label: "Total" }]}
      rows={days.map(({ date, ...counts }) => ({ id: date, label: date, values: counts }))}
      tickLabel={shortDay}
    />
  );
}

/** How many answers had each trust score, in tenths. */
export function TrustChart({ buckets }: { buckets: TrustBucket[] }) {
  const rows = buckets.map((b) => ({
    id: `${b.start}-${b.end}`,
    label: percentRange(b.start, b.end),
    values: { count: b.count },
  }));
  const labels = new Map(rows.map((r) => [r.id, r.label]));
  return (
    <ChartFigure
      name="trust"
      title="Trust scores of answers"
      rowHeader="Trust score"
      series={[{ key: "count", label: "Answers", color: "#0969da" }]}
      rows={rows}
      tickLabel={(id) => (labels.get(id) ?? id).split("–")[0] ?? id}
    />
  );
}

/** Up and down votes per day. */
export function VotesChart({ days }: { days: VotesDay[] }) {
  return (
    <ChartFigure
      name="votes"
      title="Votes per day"
      rowHeader="Day"
      series={[
        { key: "up", label: "Up", color: "#1a7f37" },
        { key: "down", label: "Down", color: "#cf222e" },
      ]}
      rows={days.map((d) => ({ id: d.date, label: d.date, values: { up: d.up, down: d.down } }))}
      tickLabel={shortDay}
    />
  );
}
