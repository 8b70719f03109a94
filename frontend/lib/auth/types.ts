import type { Schemas } from "@/lib/api/types";

/** `GET /api/auth/session/` and the login answer. */
export type SessionUser = Schemas["UserOutput"];
export type Session = Schemas["AuthSessionOutput"];

export function isConsoleUser(session: Session | undefined): boolean {
  return Boolean(session?.authenticated && session.user?.is_staff);
}
