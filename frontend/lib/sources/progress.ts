import type { Source } from "./types";

type Words = [one: string, many: string];

/** What a loader fetches one by one: only crawls and repositories have pages worth counting
 * (a FAQ's entries or a text's body arrive in one piece). */
const FETCHED: Partial<Record<Source["type"], Words>> = {
  website: ["page", "pages"],
  github_repo: ["file", "files"],
  github_issues: ["issue or discussion", "issues and discussions"],
  confluence: ["page", "pages"],
  jira: ["issue", "issues"],
  zendesk: ["article", "articles"],
};

export function counted(n: number, [one, many]: Words): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "3 of 5 pages fetched · 12 chunks embedded": the run's counters in words. */
export function progressCounts(
  source: Pick<Source, "type" | "status" | "progress" | "last_result">,
): string {
  const p = source.status === "SUCCESS" ? source.last_result : source.progress;
  const parts: string[] = [];
  const fetched = FETCHED[source.type];
  if (fetched && p.pages_discovered) {
    parts.push(`${p.pages_fetched ?? 0} of ${counted(p.pages_discovered, fetched)} fetched`);
  }
  if (p.chunks_embedded || p.chunks_new) {
    parts.push(`${counted(p.chunks_embedded ?? 0, ["chunk", "chunks"])} embedded`);
  }
  return parts.join(" · ");
}
