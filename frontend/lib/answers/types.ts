import type { Schemas } from "@/lib/api/types";
import { isRecord, stringOr } from "@/lib/json";

/** A source an answer cites; `icon` is the source's kind (web, pdf, youtube, github, text, faq). */
export type Reference = Schemas["Reference"];

/** A question as the guru page lists it. */
export type QuestionSummary = Schemas["SiteQuestion"];

export type GuruOverview = Schemas["GuruOverview"];

/** An answer's claims checked against its sources after it was saved (null: not checked). */
export type Grounding = Schemas["GroundingOutput"];

/** A saved answer, as a conversation lists it. */
export type Answer = Schemas["QuestionOutput"];

/** `GET /api/gurus/<slug>/questions/<qslug>/`: a saved answer with its votes and follow-ups. */
export type Question = Schemas["QuestionDetailOutput"];

export type Binge = Schemas["BingeDetail"];

export type SitemapEntry = Schemas["SitemapQuestions"];
export type SitemapIndex = Schemas["SitemapIndex"];

// The guards below keep a page from rendering half an object when a proxy or an older server
// answers with something else; Django's serializers define the shapes.

const isNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === "string");
const hasStrings = (value: Record<string, unknown>, keys: readonly string[]): boolean =>
  keys.every((key) => typeof value[key] === "string");

/** Drops references that are not {title, link, icon} strings (a stream may carry any JSON). */
export function parseReferences(value: unknown): Reference[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((r) => ({
    title: stringOr(r.title, ""),
    link: stringOr(r.link, ""),
    icon: stringOr(r.icon, ""),
  }));
}

function isSummary(value: unknown): value is QuestionSummary {
  return (
    isRecord(value) &&
    hasStrings(value, ["slug", "question", "description", "date_updated"]) &&
    isNumber(value.trust_score)
  );
}

function isSourceTotals(value: unknown): value is GuruOverview["sources"] {
  return (
    isRecord(value) &&
    isNumber(value.total) &&
    Array.isArray(value.by_type) &&
    value.by_type.every((t) => isRecord(t) && typeof t.type === "string" && isNumber(t.count)) &&
    Array.isArray(value.titles) &&
    value.titles.every((t) => isRecord(t) && hasStrings(t, ["title", "type"]))
  );
}

export function parseOverview(value: unknown): GuruOverview | null {
  if (!isRecord(value) || !isStrings(value.example_questions)) return null;
  const { recent, popular, sources } = value;
  if (!Array.isArray(recent) || !recent.every(isSummary)) return null;
  if (!Array.isArray(popular) || !popular.every(isSummary)) return null;
  if (!isSourceTotals(sources) || typeof value.indexable !== "boolean") return null;
  const { example_questions, indexable } = value;
  // Versions: absent from an older server, read as none.
  const versions = isStrings(value.versions) ? value.versions : [];
  const default_version = typeof value.default_version === "string" ? value.default_version : "";
  return { example_questions, indexable, recent, popular, sources, versions, default_version };
}

function isGrounding(value: unknown): value is Grounding {
  return (
    isRecord(value) &&
    (value.status === "checked" || value.status === "unchecked" || value.status === "skipped") &&
    isNumber(value.unsupported) &&
    isNumber(value.partly)
  );
}

function isAnswer(value: unknown): value is Answer & Record<string, unknown> {
  return (
    isRecord(value) &&
    hasStrings(value, ["slug", "question", "user_question", "content", "description"]) &&
    hasStrings(value, ["created_at", "updated_at"]) &&
    isNumber(value.trust_score) &&
    Array.isArray(value.references) &&
    value.references.every((r) => isRecord(r) && hasStrings(r, ["title", "link", "icon"])) &&
    (value.grounding === null || isGrounding(value.grounding)) &&
    (value.binge_id === null || typeof value.binge_id === "string") &&
    (value.parent_slug === null || typeof value.parent_slug === "string") &&
    // Absent from an older server: read as no version.
    (value.version === undefined || typeof value.version === "string")
  );
}

/** The question page's badge: "Version 4.2", or null when the guru has no versions. */
export function versionBadge(answer: Pick<Answer, "version">): string | null {
  return answer.version ? `Version ${answer.version}` : null;
}

function isDetail(value: Answer & Record<string, unknown>): value is Question {
  const { children } = value;
  return (
    Array.isArray(children) &&
    children.every((c) => isRecord(c) && hasStrings(c, ["slug", "question"])) &&
    isNumber(value.upvotes) &&
    isNumber(value.downvotes) &&
    typeof value.stale === "boolean" &&
    typeof value.indexable === "boolean"
  );
}

export function parseQuestion(value: unknown): Question | null {
  return isAnswer(value) && isDetail(value) ? value : null;
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
  const { root, questions } = value;
  if (!(root === null || isAnswer(root))) return null;
  if (!Array.isArray(questions) || !questions.every(isAnswer)) return null;
  return { binge_id: value.binge_id, root, questions };
}

export function parseStrings(value: unknown): string[] | null {
  return isStrings(value) ? value : null;
}

function isSitemapEntry(value: unknown): value is SitemapEntry {
  return isRecord(value) && hasStrings(value, ["guru_slug", "slug", "date_updated"]);
}

/** The entries that make a URL; any other is left out of the sitemap, not the whole of it. */
export function parseSitemap(value: unknown): SitemapEntry[] | null {
  return Array.isArray(value) ? value.filter(isSitemapEntry) : null;
}

/** The index's page numbers and guru slugs; null for anything else. */
export function parseSitemapIndex(value: unknown): SitemapIndex | null {
  if (!isRecord(value) || !isNumber(value.page_size) || !isStrings(value.gurus)) return null;
  const pages = value.pages;
  if (!Array.isArray(pages) || !pages.every(isNumber)) return null;
  return { page_size: value.page_size, pages, gurus: value.gurus };
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
