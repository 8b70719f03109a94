import { describe, expect, it } from "vitest";

import { auditExportPath, auditPagePath } from "./api";
import { NO_FILTERS } from "./types";

describe("the audit log's query", () => {
  it("sends only the filters set, the last day included", () => {
    const filters = { ...NO_FILTERS, actor: " ada ", since: "2026-02-27", until: "2026-02-28" };
    const query = new URL(auditPagePath(filters, 3), "http://x").searchParams;
    expect(Object.fromEntries(query)).toEqual({
      actor: "ada",
      since: "2026-02-27T00:00:00Z",
      // The API's `until` is exclusive: the day after the last day shown, across a month's end.
      until: "2026-03-01T00:00:00.000Z",
      page: "3",
      page_size: "50",
    });
  });

  it("exports the same selection without paging", () => {
    expect(auditExportPath(NO_FILTERS)).toBe("/api/audit/export/");
    expect(auditExportPath({ ...NO_FILTERS, action: "auth", guru: "python" })).toBe(
      "/api/audit/export/?action=auth&guru=python",
    );
  });
});
