import type { Schemas } from "@/lib/api/types";

/** `core/audit/apis.py`: one change or sign-in, newest first. */
export type AuditEvent = Schemas["AuditEventOutput"];
export type AuditPage = Schemas["AuditEventPage"];

/** The list's and the CSV export's filters, as the page keeps them (empty: not filtered). */
export interface AuditFilters {
  actor: string;
  action: string;
  guru: string;
  /** yyyy-mm-dd, the first day shown (UTC). */
  since: string;
  /** yyyy-mm-dd, the last day shown (UTC). */
  until: string;
}

export const NO_FILTERS: AuditFilters = { actor: "", action: "", guru: "", since: "", until: "" };
