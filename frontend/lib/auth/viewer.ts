import "server-only";

import { cookies } from "next/headers";

/**
 * The visitor's cookies for Django: a private guru's pages are for the people granted it, and
 * Django tells them apart by their session. Public pages read the same either way.
 */
export async function viewerHeaders(): Promise<Record<string, string>> {
  const cookie = (await cookies()).toString();
  return cookie ? { Cookie: cookie } : {};
}

/** What a page of a guru that is not public tells search engines: nothing to index. */
export const UNINDEXED = { index: false, follow: false } as const;
