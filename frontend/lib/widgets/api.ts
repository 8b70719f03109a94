import { apiJson, apiRequest, guruPath } from "@/lib/api/client";

import type { WidgetId } from "./types";

export const widgetIdsPath = (slug: string) => `${guruPath(slug)}/widget-ids/`;

export function createWidgetId(slug: string, domainPattern: string): Promise<WidgetId> {
  return apiJson<WidgetId>(widgetIdsPath(slug), {
    method: "POST",
    json: { domain_pattern: domainPattern },
  });
}

export async function deleteWidgetId(slug: string, id: number): Promise<void> {
  await apiRequest(`${widgetIdsPath(slug)}${id}/`, { method: "DELETE" });
}

/** A new secret for signing this widget id's identity tokens: in this answer only. */
export async function rotateWidgetSecret(slug: string, id: number): Promise<string> {
  const made = await apiJson<{ secret: string }>(`${widgetIdsPath(slug)}${id}/secret/`, {
    method: "POST",
  });
  return made.secret;
}
