"use client";

import { useApi } from "@/lib/console/hooks";

import { widgetIdsPath } from "./api";
import type { WidgetId } from "./types";

export function useWidgetIds(slug: string) {
  return useApi<WidgetId[]>(widgetIdsPath(slug));
}
