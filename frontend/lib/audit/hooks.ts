"use client";

import { useApi } from "@/lib/console/hooks";

import { auditPagePath } from "./api";
import type { AuditFilters, AuditPage } from "./types";

export function useAuditPage(filters: AuditFilters, page: number) {
  return useApi<AuditPage>(auditPagePath(filters, page), { keepPreviousData: true });
}
