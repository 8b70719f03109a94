import { describe, expect, it } from "vitest";

import { progressCounts } from "./progress";

const done = { status: "SUCCESS" as const, progress: {} };

describe("progressCounts", () => {
  it("counts one chunk in the singular", () => {
    const last_result = { pages_discovered: 1, pages_fetched: 1, chunks_embedded: 1 };
    expect(progressCounts({ ...done, type: "website", last_result })).toBe(
      "1 of 1 page fetched · 1 chunk embedded",
    );
  });

  it("says nothing of pages for a FAQ or a text", () => {
    const last_result = { pages_discovered: 2, pages_fetched: 2, chunks_embedded: 2 };
    expect(progressCounts({ ...done, type: "faq", last_result })).toBe("2 chunks embedded");
    expect(progressCounts({ ...done, type: "text", last_result })).toBe("2 chunks embedded");
  });

  it("reads the live counters while indexing", () => {
    const progress = { pages_discovered: 5, pages_fetched: 3 };
    const source = { type: "website" as const, status: "PROCESSING" as const, last_result: {} };
    expect(progressCounts({ ...source, progress })).toBe("3 of 5 pages fetched");
  });
});
