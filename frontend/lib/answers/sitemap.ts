/**
 * The sitemap as XML (sitemaps.org 0.9). One file while the answers fit in one page of the API's
 * sitemap; past that an index naming one file for the gurus and one per page of answers.
 */

import { questionPath, type SitemapEntry, type SitemapIndex } from "./types";

export type SitemapUrl = { loc: string; lastmod?: string };

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

export function xmlEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function entry(tag: "url" | "sitemap", item: SitemapUrl): string {
  const lastmod = item.lastmod ? `<lastmod>${xmlEscape(item.lastmod)}</lastmod>` : "";
  return `<${tag}><loc>${xmlEscape(item.loc)}</loc>${lastmod}</${tag}>`;
}

export function urlsetXml(urls: SitemapUrl[]): string {
  return `${XML_HEAD}<urlset ${NS}>\n${urls.map((u) => entry("url", u)).join("\n")}\n</urlset>\n`;
}

export function sitemapIndexXml(sitemaps: SitemapUrl[]): string {
  const body = sitemaps.map((s) => entry("sitemap", s)).join("\n");
  return `${XML_HEAD}<sitemapindex ${NS}>\n${body}\n</sitemapindex>\n`;
}

export function guruUrls(base: string, index: SitemapIndex): SitemapUrl[] {
  return [
    { loc: `${base}/` },
    ...index.gurus.map((slug) => ({ loc: `${base}/g/${encodeURIComponent(slug)}` })),
  ];
}

export function questionUrls(base: string, rows: SitemapEntry[]): SitemapUrl[] {
  return rows.map((q) => ({
    loc: `${base}${questionPath(q.guru_slug, q.slug)}`,
    ...(q.date_updated ? { lastmod: q.date_updated } : {}),
  }));
}

/** The files an index names: the gurus', then one per page of answers. */
export function indexedSitemaps(base: string, index: SitemapIndex): SitemapUrl[] {
  return [
    { loc: `${base}/sitemaps/gurus.xml` },
    ...index.pages.map((page) => ({ loc: `${base}/sitemaps/${page}.xml` })),
  ];
}

export function xmlResponse(body: string): Response {
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
