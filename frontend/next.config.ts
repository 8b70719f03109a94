import type { NextConfig } from "next";

import { publicApiUrl, serverApiUrl } from "./lib/env";
import { securityHeaders } from "./lib/security/headers";

// Self-hosted installs often run without internet access; never try to phone home.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  // The browser tests run a `next dev` of their own beside a developer's `make run`; Next allows
  // one dev server per build folder, so theirs gets another one (inside .next, ignored by git),
  // and a tsconfig of its own there too, because `next dev` writes its folder into the tsconfig.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  typescript: { tsconfigPath: process.env.NEXT_TSCONFIG_PATH || "tsconfig.json" },
  poweredByHeader: false,
  // Next's gzip holds a proxied Server-Sent Events stream until it ends, so answers would arrive
  // in one piece through the /api rewrite. Compression is nginx's job in production anyway.
  compress: false,
  // Django's routes end in "/"; Next's default redirect to the slash-less URL would make the
  // proxied /api calls bounce between the two servers.
  skipTrailingSlashRedirect: true,
  // Question pages rendered on demand (and the 404 of any address anyone asks for) stay in a
  // bounded in-memory cache (`cacheMaxMemorySize`, 50 MB by default) instead of files that grow
  // with every address asked; a restarted server renders them again.
  experimental: { isrFlushToDisk: false },
  async headers() {
    const production = process.env.NODE_ENV === "production";
    const headers = securityHeaders({ production, publicApiUrl: publicApiUrl() });
    // Every page; not the proxied /api, whose answers carry Django's own headers.
    return [{ source: "/:path((?!api/).*)", headers }];
  },
  async redirects() {
    return [{ source: "/console/keys", destination: "/console/api-keys", permanent: true }];
  },
  async rewrites() {
    // The browser calls same-origin /api; in development Next forwards it to Django. In
    // production nginx routes /api/ straight to Django (streaming answers need unbuffered SSE).
    // `next build` writes these rules into the build, so the target is fixed at build time.
    // `:path*` drops a trailing slash, and Django's APPEND_SLASH would answer that with a redirect
    // back here, so slash-terminated paths get their own rule that keeps the slash.
    const api = serverApiUrl();
    return [
      { source: "/api/:path*/", destination: `${api}/api/:path*/` },
      { source: "/api/:path*", destination: `${api}/api/:path*` },
    ];
  },
};

export default nextConfig;
