"use client";

import useSWR from "swr";

import { ApiError, apiJson, INVALID } from "@/lib/api/client";
import { useApi } from "@/lib/console/hooks";
import { parseHealthReport, type HealthReport } from "@/lib/health/types";

import { HEALTH_PATH, SETTINGS_PATH } from "./api";
import type { PlatformSettings } from "./types";

export function usePlatformSettings() {
  return useApi<PlatformSettings>(SETTINGS_PATH);
}

/** Health answers 503 with the same report when a component is down: that is still the report. */
async function fetchHealth(path: string): Promise<HealthReport> {
  const report = parseHealthReport(await apiJson<unknown>(path, { acceptStatuses: [503] }));
  if (!report) throw new ApiError(200, INVALID, "Health could not be read.");
  return report;
}

export function useHealth() {
  return useSWR<HealthReport, ApiError>(HEALTH_PATH, fetchHealth, { refreshInterval: 10_000 });
}
