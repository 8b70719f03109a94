import { apiJson, apiRequest } from "@/lib/api/client";

import type { CreatedInvitation, Member, Role } from "./types";

export const MEMBERS_PATH = "/api/members/";
export const INVITATIONS_PATH = "/api/invitations/";
export const ME_PATH = "/api/auth/me/";

const memberPath = (id: number) => `${MEMBERS_PATH}${id}/`;

export function inviteMember(email: string, role: Role, gurus: string[]) {
  return apiJson<CreatedInvitation>(INVITATIONS_PATH, {
    method: "POST",
    json: { email, role, gurus },
  });
}

export async function revokeInvitation(id: number): Promise<void> {
  await apiRequest(`${INVITATIONS_PATH}${id}/`, { method: "DELETE" });
}

export function updateMember(id: number, change: { role?: Role; active?: boolean }) {
  return apiJson<Member>(memberPath(id), { method: "PATCH", json: change });
}

export function grantGuru(id: number, guru: string) {
  return apiJson<Member>(`${memberPath(id)}gurus/`, { method: "POST", json: { guru } });
}

export async function revokeGuru(id: number, guru: string): Promise<void> {
  await apiRequest(`${memberPath(id)}gurus/${encodeURIComponent(guru)}/`, { method: "DELETE" });
}
