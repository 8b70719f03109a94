/** `GET /api/gurus/<slug>/analytics/…` and the export (the console contract's shapes). */
export const INTERVALS = [
  { value: "today", label: "Today" },
  { value: "yesterday", label: "Yesterday" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "3m", label: "3 months" },
  { value: "6m", label: "6 months" },
  { value: "12m", label: "12 months" },
] as const;

export type Interval = (typeof INTERVALS)[number]["value"];

export const CHANNELS = ["ui", "api", "widget", "slack", "discord"] as const;
export type Channel = (typeof CHANNELS)[number];

export const CHANNEL_LABELS: Record<Channel, string> = {
  ui: "Web",
  api: "API",
  widget: "Widget",
  slack: "Slack",
  discord: "Discord",
};

export type DayCounts = { date: string; total: number } & Record<Channel, number>;

export interface TrustBucket {
  start: number;
  end: number;
  count: number;
}

export interface TopSource {
  title: string;
  url: string;
  citations: number;
}

export interface VotesDay {
  date: string;
  up: number;
  down: number;
}

export interface Totals {
  questions: number;
  refused: number;
  out_of_context: number;
  low_trust: number;
  upvotes: number;
  downvotes: number;
}

export interface Analytics {
  interval: Interval;
  start: string;
  end: string;
  totals: Totals;
  questions_per_day: DayCounts[];
  trust_histogram: TrustBucket[];
  top_sources: TopSource[];
  votes_per_day: VotesDay[];
}

export interface Refusal {
  question: string;
  asked_at: string;
  channel: string;
  reason: "refused" | "out_of_context" | "low_trust";
  trust_score: number | null;
}

export interface RefusalPage {
  count: number;
  results: Refusal[];
}

export interface GapCluster {
  label: string;
  size: number;
  examples: string[];
}

export type ExportType = "csv" | "json" | "xlsx";
