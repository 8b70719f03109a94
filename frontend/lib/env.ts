/**
 * The one place that reads where the Django API lives. Django owns all data and logic; Next
 * only renders what the API returns.
 */

const LOCAL_API_URL = "http://127.0.0.1:8000";

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Origin the Next server uses to reach Django: server components and the /api rewrite. */
export function serverApiUrl(): string {
  const configured = process.env.OPENGURU_API_URL || process.env.NEXT_PUBLIC_API_URL;
  return withoutTrailingSlash(configured || LOCAL_API_URL);
}

/**
 * Origin the browser uses for pages Django serves itself (the admin). Empty means "same origin",
 * which is the case behind nginx. Next inlines NEXT_PUBLIC_* at build time, so the reference
 * must stay literal.
 */
export function publicApiUrl(): string {
  return withoutTrailingSlash(process.env.NEXT_PUBLIC_API_URL ?? "");
}

const LOCAL_SITE_URL = "http://127.0.0.1:3000";

/** The site's public origin, for canonical links, Open Graph, the sitemap and robots.txt. */
export function siteUrl(): string {
  return withoutTrailingSlash(process.env.SITE_URL || LOCAL_SITE_URL);
}
