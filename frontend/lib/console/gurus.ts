/** Admin calls on gurus (`gurus/apis.py`): create, change, delete, icon upload. */
import type { Guru, Visibility } from "@/lib/gurus/types";

import { apiJson, apiRequest, guruPath } from "@/lib/api/client";
import { useApi } from "./hooks";

/** What the admin form edits; Django validates every field. */
export interface GuruInput {
  slug?: string;
  name: string;
  domain_knowledge: string;
  custom_instruction: string;
  icon_url: string;
  base_color: string;
  light_color: string;
  active?: boolean;
  visibility?: Visibility;
  anonymous_asks_per_hour?: number | null;
  anonymous_asks_per_day?: number | null;
  github_webhook_secret?: string;
  trust_threshold?: number | null;
  answer_mode?: AnswerMode;
  /** The documentation version a question naming none reads; "": the newest label. */
  default_version?: string;
}

/** "": the deployment's mode; "fast": one LLM round trip before the first word. */
export type AnswerMode = "" | "default" | "fast";

/** The guru as admins read it; fields Django may not return are optional. */
export type AdminGuru = Guru & {
  custom_instruction?: string;
  anonymous_asks_per_hour?: number | null;
  anonymous_asks_per_day?: number | null;
  trust_threshold?: number | null;
  /** Set from the guru's own sources after each ingestion; null until then. */
  calibrated_trust_threshold?: number | null;
  answer_mode?: AnswerMode;
  default_version?: string;
  github_webhook_secret_set?: boolean;
};

export const GURUS_PATH = "/api/gurus/";

export function useGurus() {
  return useApi<AdminGuru[]>(GURUS_PATH);
}

export function useGuru(slug: string) {
  return useApi<AdminGuru>(`${guruPath(slug)}/`);
}

export function createGuru(input: GuruInput): Promise<AdminGuru> {
  return apiJson<AdminGuru>(GURUS_PATH, { method: "POST", json: input });
}

export function updateGuru(slug: string, input: Partial<GuruInput>): Promise<AdminGuru> {
  return apiJson<AdminGuru>(`${guruPath(slug)}/`, { method: "PATCH", json: input });
}

export async function deleteGuru(slug: string): Promise<void> {
  await apiRequest(`${guruPath(slug)}/`, { method: "DELETE" });
}

export function uploadGuruIcon(slug: string, file: File): Promise<{ icon_url: string }> {
  const form = new FormData();
  form.append("file", file);
  return apiJson(`${guruPath(slug)}/icon/`, { method: "POST", form });
}
