import { apiJson, apiRequest } from "@/lib/api/client";

import type { ApiKeyLimits, CreatedApiKey } from "./types";

export const KEYS_PATH = "/api/api-keys/";

export function createApiKey(
  name: string,
  limits: ApiKeyLimits = { scope: "", gurus: [] },
): Promise<CreatedApiKey> {
  return apiJson<CreatedApiKey>(KEYS_PATH, { method: "POST", json: { name, ...limits } });
}

export async function revokeApiKey(id: number): Promise<void> {
  await apiRequest(`${KEYS_PATH}${id}/`, { method: "DELETE" });
}
