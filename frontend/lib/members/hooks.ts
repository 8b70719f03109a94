"use client";

import { useApi } from "@/lib/console/hooks";

import { INVITATIONS_PATH, ME_PATH, MEMBERS_PATH } from "./api";
import type { Invitation, Me, Member } from "./types";

export function useMembers() {
  return useApi<Member[]>(MEMBERS_PATH);
}

export function useInvitations() {
  return useApi<Invitation[]>(INVITATIONS_PATH);
}

/** The signed-in person's role and granted gurus (admins see everything). */
export function useMe() {
  return useApi<Me>(ME_PATH);
}
