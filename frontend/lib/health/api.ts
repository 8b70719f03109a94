import "server-only";

import { getJson, type ApiResult } from "@/lib/api/client";

import { parseHealthReport, type HealthReport } from "./types";

// The first check may load the embedding model, which takes a few seconds on a cold start.
const HEALTH_TIMEOUT_MS = 15_000;

export async function getHealth(): Promise<ApiResult<HealthReport>> {
  return getJson("/api/health/", {
    parse: parseHealthReport,
    acceptStatuses: [503],
    timeoutMs: HEALTH_TIMEOUT_MS,
  });
}
