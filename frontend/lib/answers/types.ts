import type { SourceTotals } from "@/lib/api/types";
import { isRecord, stringOr } from "@/lib/json";

/** A source an answer cites; `icon` is the source's kind (web, pdf, youtube, github, text, faq). */
export interface Reference {
  title: string;
  link: string;
  icon: string;
}

/** A question as the guru page lists it. */
export interface QuestionSummary {
  slug: string;
  question: string;
  description: string;
  trust_score: number;
  date_updated: string;
}

export interface GuruOverview {
  example_questions: string[];
  recent: QuestionSummary[];
  popular: QuestionSummary[];
  sources: SourceTotals;
}

/** An answer's claims checked against its sources after it was saved (null: not checked). */
export interface Grounding {
  status: "checked" | "unchecked" | "skipped";
  unsupported: number;
  partly: number;
}

/** `GET /api/gurus/<slug>/questions/<qslug>/`: a saved answer. */
export interface Question {
  slug: string;
  question: string;
  user_question: string;
  content: string;
  description: string;
  references: Reference[];
  trust_score: number;
  grounding: Grounding | null;
  binge_id: string | null;
  parent_slug: string | null;
  created_at: string;
  updated_at: string;
  stale: boolean;
  upvotes: number;
  downvotes: number;
  children: { slug: string; question: string }[];
}

export interface Binge {
  binge_id: string;
  root: Question | null;
  questions: Question[];
}

export interface SitemapEntry {
  guru_slug: string;
  slug: string;
  date_updated: string;
}

const num = (value: unknown, fallback = 0): number =>
  typeof value === "number" && Number.isFinite(value) ? value : fallback;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

export function parseReferences(value: unknown): Reference[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((r) => ({
    title: stringOr(r.title, ""),
    link: stringOr(r.link, ""),
    icon: stringOr(r.icon, ""),
  }));
}

function parseSummary(value: unknown): QuestionSummary | null {
  if (!isRecord(value) || typeof value.slug !== "string") return null;
  return {
    slug: value.slug,
    question: stringOr(value.question, value.slug),
    description: stringOr(value.description, ""),
    trust_score: num(value.trust_score),
    date_updated: stringOr(value.date_updated, ""),
  };
}

function summaries(value: unknown): QuestionSummary[] {
  if (!Array.isArray(value)) return [];
  return value.map(parseSummary).filter((q): q is QuestionSummary => q !== null);
}

export function parseOverview(value: unknown): GuruOverview | null {
  if (!isRecord(value)) return null;
  const sources = isRecord(value.sources) ? value.sources : {};
  const byType = Array.isArray(sources.by_type) ? sources.by_type.filter(isRecord) : [];
  return {
    example_questions: strings(value.example_questions),
    recent: summaries(value.recent),
    popular: summaries(value.popular),
    sources: {
      total: num(sources.total),
      by_type: byType.map((t) => ({ type: stringOr(t.type, "other"), count: num(t.count) })),
      titles: (Array.isArray(sources.titles) ? sources.titles.filter(isRecord) : []).map((t) => ({
        title: stringOr(t.title, ""),
        type: stringOr(t.type, ""),
      })),
    },
  };
}

export function parseQuestion(value: unknown): Question | null {
  if (!isRecord(value) || typeof value.slug !== "string") return null;
  const children = Array.isArray(value.children) ? value.children.filter(isRecord) : [];
  return {
    slug: value.slug,
    question: stringOr(value.question, ""),
    user_question: stringOr(value.user_question, ""),
    content: stringOr(value.content, ""),
    description: stringOr(value.description, ""),
    references: parseReferences(value.references),
    trust_score: num(value.trust_score),
    grounding: parseGrounding(value.grounding),
    binge_id: typeof value.binge_id === "string" ? value.binge_id : null,
    parent_slug: typeof value.parent_slug === "string" ? value.parent_slug : null,
    created_at: stringOr(value.created_at, ""),
    updated_at: stringOr(value.updated_at, ""),
    stale: value.stale === true,
    upvotes: num(value.upvotes),
    downvotes: num(value.downvotes),
    children: children
      .filter((c) => typeof c.slug === "string")
      .map((c) => ({ slug: String(c.slug), question: stringOr(c.question, String(c.slug)) })),
  };
}

function parseGrounding(value: unknown): Grounding | null {
  if (!isRecord(value)) return null;
  const status = value.status;
  if (status !== "checked" && status !== "unchecked" && status !== "skipped") return null;
  return { status, unsupported: num(value.unsupported), partly: num(value.partly) };
}

/** What a reader is told about a checked answer's claims, or null when all were found. */
export function groundingNote(grounding: Grounding | null): string | null {
  if (grounding === null || grounding.status !== "checked") return null;
  const claims = (n: number) => (n === 1 ? "1 claim" : `${n} claims`);
  if (grounding.unsupported > 0) return `${claims(grounding.unsupported)} not found in the sources`;
  if (grounding.partly > 0) return `${claims(grounding.partly)} only partly found in the sources`;
  return null;
}

export function parseBinge(value: unknown): Binge | null {
  if (!isRecord(value) || typeof value.binge_id !== "string") return null;
  const questions = Array.isArray(value.questions) ? value.questions.map(parseQuestion) : [];
  return {
    binge_id: value.binge_id,
    root: parseQuestion(value.root),
    questions: questions.filter((q): q is Question => q !== null),
  };
}

export function parseStrings(value: unknown): string[] | null {
  return Array.isArray(value) ? strings(value) : null;
}

export function parseSitemap(value: unknown): SitemapEntry[] | null {
  if (!Array.isArray(value)) return null;
  return value
    .filter(isRecord)
    .filter((e) => typeof e.guru_slug === "string" && typeof e.slug === "string")
    .map((e) => ({
      guru_slug: String(e.guru_slug),
      slug: String(e.slug),
      date_updated: stringOr(e.date_updated, ""),
    }));
}

/** Where a question lives on the site; a binge's questions carry the binge in the query. */
export function questionPath(guruSlug: string, slug: string, bingeId?: string | null): string {
  const path = `/g/${encodeURIComponent(guruSlug)}/${encodeURIComponent(slug)}`;
  return bingeId ? `${path}?binge=${encodeURIComponent(bingeId)}` : path;
}

export function bingePath(guruSlug: string, bingeId: string): string {
  return `/g/${encodeURIComponent(guruSlug)}/b/${encodeURIComponent(bingeId)}`;
}

export function trustPercent(score: number): string {
  return `${Math.round(Math.max(0, Math.min(1, score)) * 100)}%`;
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toISOString().slice(0, 10);
}
