import { describe, expect, it } from "vitest";

import { indexedSitemaps, questionUrls, sitemapIndexXml, urlsetXml } from "./sitemap";
import { parseSitemapIndex } from "./types";

describe("the sitemap", () => {
  it("escapes what XML reserves and keeps the lastmod", () => {
    const urls = questionUrls("https://site.example", [
      { guru_slug: "py", slug: "a-b", date_updated: "2025-01-01T00:00:00Z" },
    ]);
    const xml = urlsetXml([...urls, { loc: "https://site.example/?a=1&b=<2>" }]);
    expect(xml).toContain("<loc>https://site.example/g/py/a-b</loc>");
    expect(xml).toContain("<lastmod>2025-01-01T00:00:00Z</lastmod>");
    expect(xml).toContain("<loc>https://site.example/?a=1&amp;b=&lt;2&gt;</loc>");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset')).toBe(true);
  });

  it("past one page, an index names the gurus' file and one file per page", () => {
    const index = parseSitemapIndex({ page_size: 50000, pages: [3, 4], gurus: ["py"] });
    expect(index).not.toBeNull();
    const xml = sitemapIndexXml(indexedSitemaps("https://site.example", index!));
    expect(xml).toContain("<sitemapindex ");
    expect(xml).toContain("<sitemap><loc>https://site.example/sitemaps/gurus.xml</loc></sitemap>");
    expect(xml).toContain("<loc>https://site.example/sitemaps/4.xml</loc>");
  });

  it("refuses an index of another shape", () => {
    expect(parseSitemapIndex({ pages: ["1"], gurus: [], page_size: 1 })).toBeNull();
    expect(parseSitemapIndex([])).toBeNull();
  });
});
