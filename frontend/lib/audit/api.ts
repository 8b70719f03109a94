import type { AuditFilters } from "./types";

export const AUDIT_PATH = "/api/audit/";
export const AUDIT_EXPORT_PATH = "/api/audit/export/";
export const AUDIT_PAGE_SIZE = 50;

/** A day after `day` (yyyy-mm-dd): the API's `until` is exclusive, the page's last day is not. */
function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/** The query string both the list and the export take. */
export function auditQuery(filters: AuditFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.actor.trim()) query.set("actor", filters.actor.trim());
  if (filters.action.trim()) query.set("action", filters.action.trim());
  if (filters.guru.trim()) query.set("guru", filters.guru.trim());
  if (filters.since) query.set("since", `${filters.since}T00:00:00Z`);
  if (filters.until) query.set("until", dayAfter(filters.until));
  return query;
}

export function auditPagePath(filters: AuditFilters, page: number): string {
  const query = auditQuery(filters);
  query.set("page", String(page));
  query.set("page_size", String(AUDIT_PAGE_SIZE));
  return `${AUDIT_PATH}?${query}`;
}

export function auditExportPath(filters: AuditFilters): string {
  const query = auditQuery(filters).toString();
  return query ? `${AUDIT_EXPORT_PATH}?${query}` : AUDIT_EXPORT_PATH;
}
