import type { Schemas } from "@/lib/api/types";

/** `accounts/apis.py`: a person, their role and the gurus granted to them. */
export type Member = Schemas["MemberOutput"];
export type Role = Exclude<Member["role"], "">;
/** An invitation not yet accepted, revoked or expired. */
export type Invitation = Schemas["InvitationOutput"];
/** The creation answer: the one-time link too, for when the e-mail could not be sent. */
export type CreatedInvitation = Schemas["InvitationCreatedOutput"];
/** `GET /api/auth/me/`: the signed-in person's own role and gurus. */
export type Me = Schemas["Me"];

export const ROLES: { value: Role; label: string; hint: string }[] = [
  { value: "member", label: "Member", hint: "reads and asks the gurus granted" },
  { value: "maintainer", label: "Maintainer", hint: "manages the gurus granted" },
  { value: "admin", label: "Admin", hint: "everything, people and the audit log too" },
];
