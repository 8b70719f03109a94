import type { Schemas } from "@/lib/api/types";

/** `GET /api/gurus/<slug>/analytics/…` and the export (the console contract's shapes). */
export type Interval = Schemas["IntervalEnum"];

export const INTERVALS = [
  { value: "today", label: "Today" },
  { value: "yesterday", label: "Yesterday" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "3m", label: "3 months" },
  { value: "6m", label: "6 months" },
  { value: "12m", label: "12 months" },
] as const satisfies readonly { value: Interval; label: string }[];

/** A day's questions, per channel (each channel a key of `DayCounts`). */
export type DayCounts = Schemas["DayCounts"];
export type Channel = Exclude<keyof DayCounts, "date" | "total">;

export const CHANNELS = [
  "ui",
  "api",
  "widget",
  "slack",
  "discord",
  "teams",
  "github",
] as const satisfies readonly Channel[];

export const CHANNEL_LABELS: Record<Channel, string> = {
  ui: "Web",
  api: "API",
  widget: "Widget",
  slack: "Slack",
  discord: "Discord",
  teams: "Teams",
  github: "GitHub",
};

export type TrustBucket = Schemas["Bucket"];
export type TopSource = Schemas["CitedSource"];
export type VotesDay = Schemas["DayVotes"];
export type Totals = Schemas["Totals"];
export type Analytics = Schemas["AnalyticsOutput"];

/** A question the guru declined, or answered with little trust. */
export type Refusal = Schemas["WeakQuestion"];
export type RefusalPage = Schemas["WeakQuestionPage"];

export type GapCluster = Schemas["Gap"];
export type Gaps = Schemas["GapsOutput"];

export type ExportType = Schemas["ExportTypeEnum"];
