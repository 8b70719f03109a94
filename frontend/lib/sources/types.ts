/** A source as `SourceOutput` (sources/apis.py) returns it. */
export type SourceType =
  "website" | "pdf" | "youtube" | "github_repo" | "text" | "faq" | FileSourceType;
/** Uploaded files beyond PDFs (sources/file_kinds.py). */
export type FileSourceType = "docx" | "pptx" | "xlsx" | "csv" | "html" | "markdown" | "epub";
export type SourceStatus = "NOT_PROCESSED" | "PROCESSING" | "SUCCESS" | "FAILED";
export type CrawlMode = "single" | "crawl" | "sitemap";

/** Counters the indexer writes while it runs (`IndexStats`); any may be missing early on. */
export interface SourceProgress {
  pages_discovered?: number;
  pages_fetched?: number;
  pages_skipped?: number;
  pages_failed?: number;
  chunks_total?: number;
  chunks_new?: number;
  chunks_embedded?: number;
  chunks_unchanged?: number;
  chunks_deleted?: number;
}

export interface Source {
  id: number;
  type: SourceType;
  url: string;
  title: string;
  crawl_mode: CrawlMode;
  options: Record<string, unknown>;
  private: boolean;
  status: SourceStatus;
  user_error: string;
  progress: SourceProgress;
  last_result: SourceProgress;
  chunk_count: number;
  last_indexed_at: string | null;
  reindex_count: number;
  created_at: string;
}

export interface NewSource {
  type: Exclude<SourceType, "pdf" | FileSourceType>;
  url?: string;
  title?: string;
  content?: string;
  crawl_mode?: CrawlMode;
  options?: Record<string, unknown>;
  private?: boolean;
}

/** A crawl discovery run (`api_v1/crawl_apis.py`). */
export interface Crawl {
  id: number;
  url: string;
  status: "RUNNING" | "COMPLETED" | "STOPPED" | "FAILED";
  discovered_urls: string[];
  link_limit: number;
  error: string;
}

export const SOURCE_TYPE_LABELS: Record<SourceType, string> = {
  website: "Website",
  pdf: "PDF",
  youtube: "YouTube",
  github_repo: "GitHub",
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

export function isInProgress(source: Source): boolean {
  return source.status === "NOT_PROCESSED" || source.status === "PROCESSING";
}
