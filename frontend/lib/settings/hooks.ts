"use client";

import useSWR from "swr";

import { ApiError } from "@/lib/console/client";
import { useApi } from "@/lib/console/hooks";
import { parseHealthReport, type HealthReport } from "@/lib/health/types";

import { HEALTH_PATH, SETTINGS_PATH } from "./api";
import type { PlatformSettings } from "./types";

export function usePlatformSettings() {
  return useApi<PlatformSettings>(SETTINGS_PATH);
}

/** Health answers 503 with the same report when a component is down: that is still the report. */
async function fetchHealth(path: string): Promise<HealthReport> {
  const response = await fetch(path, { credentials: "include", cache: "no-store" });
  const report = parseHealthReport(await response.json().catch(() => null));
  if (!report) throw new ApiError(response.status, "invalid", "Health could not be read.");
  return report;
}

export function useHealth() {
  return useSWR<HealthReport, ApiError>(HEALTH_PATH, fetchHealth, { refreshInterval: 10_000 });
}
