import { apiRequest, guruPath, v1Path } from "@/lib/api/client";
import { saveResponse } from "@/lib/console/download";

import type { ExportType, Interval } from "./types";

export const analyticsPath = (slug: string, interval: Interval) =>
  `${guruPath(slug)}/analytics/?interval=${interval}`;

export const refusalsPath = (slug: string, interval: Interval, page: number) =>
  `${guruPath(slug)}/analytics/refusals/?interval=${interval}&page=${page}`;

export const gapsPath = (slug: string, interval: Interval) =>
  `${guruPath(slug)}/analytics/gaps/?interval=${interval}`;

/** Downloads the questions of the interval as a file; resolves to the file's name. */
export async function exportAnalytics(
  slug: string,
  exportType: ExportType,
  interval: Interval,
): Promise<string> {
  const response = await apiRequest(`${v1Path(slug)}/analytics/export/`, {
    method: "POST",
    json: { export_type: exportType, interval },
  });
  return saveResponse(response, `${slug}-questions-${interval}.${exportType}`);
}
