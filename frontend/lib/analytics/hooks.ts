"use client";

import { useApi } from "@/lib/console/hooks";

import { analyticsPath, gapsPath, refusalsPath } from "./api";
import type { Analytics, Gaps, Interval, RefusalPage } from "./types";

export function useAnalytics(slug: string, interval: Interval) {
  return useApi<Analytics>(analyticsPath(slug, interval), { keepPreviousData: true });
}

export function useRefusals(slug: string, interval: Interval, page: number) {
  return useApi<RefusalPage>(refusalsPath(slug, interval, page), { keepPreviousData: true });
}

export function useGaps(slug: string, interval: Interval) {
  return useApi<Gaps>(gapsPath(slug, interval));
}
