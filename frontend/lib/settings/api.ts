import { apiJson } from "@/lib/api/client";

import type { PlatformSettings, SettingsChange } from "./types";

export const SETTINGS_PATH = "/api/settings/";
export const HEALTH_PATH = "/api/health/";

export function saveSettings(values: SettingsChange): Promise<PlatformSettings> {
  return apiJson<PlatformSettings>(SETTINGS_PATH, { method: "PATCH", json: values });
}
