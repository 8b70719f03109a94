import type { MetadataRoute } from "next";

import { siteUrl } from "@/lib/env";

export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  const base = siteUrl();
  return {
    // Conversations are one visitor's path; the API and the admin are not pages.
    rules: [{ userAgent: "*", allow: "/", disallow: ["/api/", "/admin/", "/g/*/b/"] }],
    sitemap: `${base}/sitemap.xml`,
    host: base,
  };
}
