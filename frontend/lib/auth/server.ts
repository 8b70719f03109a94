import "server-only";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";

import { getJson } from "@/lib/api/client";
import { isRecord } from "@/lib/json";

import { METHODS_PATH, SESSION_PATH } from "./api";
import { isConsoleUser, type Session, type SignInMethods } from "./types";

export function signInPath(next: string): string {
  return `/console/sign-in?next=${encodeURIComponent(next)}`;
}

function parseSession(body: unknown): Session | null {
  if (!isRecord(body) || typeof body.authenticated !== "boolean") return null;
  const user = isRecord(body.user) ? body.user : null;
  return {
    authenticated: body.authenticated,
    user: user
      ? {
          username: String(user.username ?? ""),
          is_staff: user.is_staff === true,
          console: user.console === true,
        }
      : null,
  };
}

/**
 * Asks Django, with the visitor's cookies, who is signed in; sends anyone who may not use the
 * console to the sign-in page before any of it renders. Null when the API could not say: the
 * page then explains that in the browser instead of bouncing a signed-in admin.
 */
export async function requireConsoleUser(path: string): Promise<Session | null> {
  const cookie = (await cookies()).toString();
  const result = await getJson(SESSION_PATH, {
    parse: parseSession,
    headers: cookie ? { Cookie: cookie } : {},
  });
  if (!result.ok) return null;
  if (!isConsoleUser(result.data)) redirect(signInPath(path));
  return result.data;
}

/** What the sign-in page offers; when the API cannot say, the password form (it explains). */
export async function signInMethods(): Promise<SignInMethods> {
  const result = await getJson(METHODS_PATH, {
    parse: (body) =>
      isRecord(body) && typeof body.password === "boolean"
        ? {
            password: body.password,
            sso: body.sso === true,
            sso_label: String(body.sso_label ?? ""),
            sso_url: String(body.sso_url ?? ""),
          }
        : null,
  });
  return result.ok ? result.data : { password: true, sso: false, sso_label: "", sso_url: "" };
}
