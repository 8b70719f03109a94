import { apiJson, apiRequest } from "@/lib/api/client";

import type { Session } from "./types";

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
