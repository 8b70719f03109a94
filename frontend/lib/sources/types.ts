import type { Schemas } from "@/lib/api/types";

/** A source as `SourceOutput` (sources/apis.py) returns it. */
export type Source = Schemas["SourceOutput"];
export type SourceType = Schemas["SourceTypeEnum"];
export type SourceStatus = Schemas["SourceOutputStatusEnum"];
export type CrawlMode = Schemas["CrawlModeEnum"];

/** Counters the indexer writes while it runs (`IndexStats`); any may be missing early on. */
export type SourceProgress = Schemas["IndexStatsOutput"];

/** A source to add from a URL or pasted text (files are uploaded instead). */
export type NewSource = Schemas["SourceListRequest"];

/** A crawl discovery run (`api_v1/crawl_apis.py`). */
export type Crawl = Schemas["CrawlOutput"];

export const SOURCE_TYPE_LABELS: Record<SourceType, string> = {
  website: "Website",
  pdf: "PDF",
  youtube: "YouTube",
  github_repo: "GitHub",
  github_issues: "GitHub issues",
  confluence: "Confluence",
  jira: "Jira",
  zendesk: "Zendesk",
  text: "Text",
  faq: "FAQ",
  docx: "Word",
  pptx: "PowerPoint",
  xlsx: "Excel",
  csv: "CSV",
  html: "HTML",
  markdown: "Markdown",
  epub: "EPUB",
};

/** Types read from an outside system with a token of their own (sources/services.py). */
export const TOKEN_SOURCE_TYPES: ReadonlySet<SourceType> = new Set<SourceType>([
  "github_issues",
  "confluence",
  "jira",
  "zendesk",
]);

export function isInProgress(source: Source): boolean {
  return source.status === "NOT_PROCESSED" || source.status === "PROCESSING";
}
