import { apiJson, apiRequest, guruPath, v1Path } from "@/lib/api/client";
import { uploadWithProgress, type UploadProgress } from "@/lib/console/upload";

import type { Crawl, NewSource, Source } from "./types";

export const sourcesPath = (slug: string) => `${guruPath(slug)}/sources/`;

export function addSource(slug: string, source: NewSource): Promise<Source> {
  return apiJson<Source>(sourcesPath(slug), { method: "POST", json: source });
}

/** A PDF or another uploadable file; the server takes its type from the extension. */
export function uploadFile(
  slug: string,
  file: File,
  isPrivate: boolean,
  onProgress: (progress: UploadProgress) => void,
): Promise<Source> {
  const form = new FormData();
  form.append("file", file);
  form.append("private", String(isPrivate));
  return uploadWithProgress<Source>(sourcesPath(slug), form, onProgress);
}

export async function reindexSource(slug: string, id: number): Promise<void> {
  await apiRequest(`${sourcesPath(slug)}${id}/reindex/`, { method: "POST" });
}

/** A connector's token: replaced ("" removes it), then the source syncs again. */
export async function replaceSourceToken(slug: string, id: number, token: string): Promise<void> {
  await apiRequest(`${sourcesPath(slug)}${id}/token/`, { method: "PUT", json: { token } });
}

/** A source's documentation version ("" : every version); its chunks stay as they are. */
export function setSourceVersion(slug: string, id: number, version: string): Promise<Source> {
  return apiJson<Source>(`${sourcesPath(slug)}${id}/`, { method: "PATCH", json: { version } });
}

export async function deleteSource(slug: string, id: number): Promise<void> {
  await apiRequest(`${sourcesPath(slug)}${id}/`, { method: "DELETE" });
}

export function startCrawl(slug: string, url: string, linkLimit: number): Promise<Crawl> {
  return apiJson<Crawl>(`${v1Path(slug)}/crawl/start/`, {
    method: "POST",
    json: { url, link_limit: linkLimit },
  });
}

export function crawlStatus(slug: string, id: number): Promise<Crawl> {
  return apiJson<Crawl>(`${v1Path(slug)}/crawl/${id}/status/`);
}

export function stopCrawl(slug: string, id: number): Promise<Crawl> {
  return apiJson<Crawl>(`${v1Path(slug)}/crawl/${id}/stop/`, { method: "POST" });
}

/** Adds each URL as a single-page website source, a few at a time; returns the failures. */
export async function addPages(
  slug: string,
  urls: string[],
  isPrivate: boolean,
): Promise<{ url: string; reason: unknown }[]> {
  const failures: { url: string; reason: unknown }[] = [];
  for (let start = 0; start < urls.length; start += 5) {
    const batch = urls.slice(start, start + 5);
    const results = await Promise.allSettled(
      batch.map((url) => addSource(slug, { type: "website", url, private: isPrivate })),
    );
    results.forEach((result, index) => {
      if (result.status === "rejected")
        failures.push({ url: batch[index]!, reason: result.reason });
    });
  }
  return failures;
}
