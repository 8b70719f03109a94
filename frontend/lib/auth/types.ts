import type { Schemas } from "@/lib/api/types";

/** `GET /api/auth/session/` and the login answer. */
export type SessionUser = Schemas["UserOutput"];
export type Session = Schemas["AuthSessionOutput"];

/** `GET /api/auth/methods/`: password, single sign-on, or both. */
export type SignInMethods = Schemas["SignInMethods"];

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

/** Only console paths: `next` comes from the address bar and must not lead elsewhere. */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/console") && !next.startsWith("//") ? next : "/console";
}

/** What a sign-in the browser posted itself (without JavaScript) came back with, as ?error=. */
const FORM_ERRORS: Record<string, string> = {
  invalid_credentials: "Wrong username or password.",
  not_staff: "This account has no role here; an administrator can invite you.",
  rate_limited: "Too many failed sign-ins; try again in a few minutes.",
  invalid_input: "Enter a username and a password.",
  password_sign_in_off: "Password sign-in is turned off here: sign in with single sign-on.",
  sso_failed: "Single sign-on did not let you in: ask an administrator for access.",
};

/** The sentence for a sign-in failure the API reported as ?error=<code>. */
export function failureMessage(code: string): string {
  return FORM_ERRORS[code] ?? "Could not sign in; try again.";
}
