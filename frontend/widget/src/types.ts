// The widget protocol's shapes, as the backend's /api/widget/ endpoints return them.

export interface GuruInfo {
  name: string;
  slug: string;
  icon_url: string;
  colors: { base_color?: string };
  example_questions: string[];
  /** Documentation versions, newest first: more than one shows a selector. */
  versions?: string[];
  default_version?: string;
}

export interface Reference {
  question: string; // the reference's title
  link: string;
  icon: string; // the source's kind: web, pdf, youtube, github, text
}

export interface Answer {
  slug: string;
  content: string;
  question: string;
  date_updated: string;
  trust_score: number; // 0-100
  references: Reference[];
}

export interface Binge {
  id: string;
  root_slug: string;
}

export type VoteType = "upvote" | "downvote";
export type Theme = "light" | "dark" | "auto";
export type Mode = "button" | "sidebar";

export interface WidgetConfig {
  widgetId: string;
  /** A private guru's identity token, signed by the embedding site's server (data-token). */
  token: string;
  baseUrl: string; // without a trailing slash
  mode: Mode;
  theme: Theme;
  name: string;
}
