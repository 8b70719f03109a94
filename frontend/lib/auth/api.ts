import { apiJson, apiRequest } from "@/lib/api/client";

import type { AcceptedInvitation, InvitationOffer, Session } from "./types";

export const SESSION_PATH = "/api/auth/session/";

/** Makes sure Django has set its csrftoken cookie, which the login POST must echo. */
export function getSession(): Promise<Session> {
  return apiJson<Session>(SESSION_PATH);
}

export async function signIn(username: string, password: string): Promise<Session> {
  await getSession();
  return apiJson<Session>("/api/auth/login/", { method: "POST", json: { username, password } });
}

export async function signOut(): Promise<void> {
  await apiRequest("/api/auth/logout/", { method: "POST" });
}

/** What an invitation link offers; a used, revoked or expired link is an `ApiError`. */
export async function lookUpInvitation(token: string): Promise<InvitationOffer> {
  await getSession();
  return apiJson<InvitationOffer>("/api/invitations/lookup/", {
    method: "POST",
    json: { token },
  });
}

/** Creates the invited account; Django's password validators answer in `ApiError.message`. */
export async function acceptInvitation(
  token: string,
  password: string,
): Promise<AcceptedInvitation> {
  await getSession();
  return apiJson<AcceptedInvitation>("/api/invitations/accept/", {
    method: "POST",
    json: { token, password },
  });
}

export const METHODS_PATH = "/api/auth/methods/";
