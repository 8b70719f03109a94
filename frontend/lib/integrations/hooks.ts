"use client";

import { useApi } from "@/lib/console/hooks";

import { integrationsPath } from "./api";
import type { Integration } from "./types";

export function useIntegrations(slug: string) {
  return useApi<Integration[]>(integrationsPath(slug));
}
