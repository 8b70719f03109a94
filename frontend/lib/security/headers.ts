/**
 * The security headers the UI's own server sends on every page, so a `next start` without nginx
 * in front (as `make run` serves it) is as strict as one behind it. nginx sends the same set and
 * hides these copies, so each header appears once.
 */

type Header = { key: string; value: string };

function originOf(url: string): string {
  try {
    return url ? new URL(url).origin : "";
  } catch {
    return "";
  }
}

/**
 * What the UI needs: Next inlines its bootstrap scripts and styles, guru icons may be any https
 * image, and API calls are same-origin. When the browser is told to reach Django on another
 * origin (NEXT_PUBLIC_API_URL, as under `make run`), that origin serves the widget preview's
 * script, its API and uploaded icons, so it is allowed for those.
 */
export function contentSecurityPolicy(publicApiUrl: string): string {
  const api = originOf(publicApiUrl);
  const self = api ? `'self' ${api}` : "'self'";
  return [
    "default-src 'self'",
    `script-src ${self} 'unsafe-inline'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${self} data: blob: https:`,
    "font-src 'self' data:",
    `connect-src ${self}`,
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * The development server evaluates code and reloads over a WebSocket, which the policy above
 * would block; it gets every header but the CSP.
 */
export function securityHeaders({
  production,
  publicApiUrl,
}: {
  production: boolean;
  publicApiUrl: string;
}): Header[] {
  const headers: Header[] = [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
    { key: "X-Frame-Options", value: "SAMEORIGIN" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  ];
  if (production) {
    headers.push({ key: "Content-Security-Policy", value: contentSecurityPolicy(publicApiUrl) });
  }
  return headers;
}
