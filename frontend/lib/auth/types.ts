import type { Schemas } from "@/lib/api/types";

/** `GET /api/auth/session/` and the login answer. */
export type SessionUser = Schemas["UserOutput"];
export type Session = Schemas["AuthSessionOutput"];

/** `POST /api/invitations/lookup/` and `/accept/`. */
export type InvitationOffer = Schemas["InvitationLookup"];
export type AcceptedInvitation = Schemas["InvitationAccept"];

/** Admins, maintainers and members use the console; the API decides what each may do there. */
export function isConsoleUser(session: Session | undefined): boolean {
  return Boolean(session?.authenticated && session.user?.console);
}

export function isAdmin(session: Session | undefined): boolean {
  return Boolean(session?.authenticated && session.user?.is_staff);
}
