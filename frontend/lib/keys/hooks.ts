"use client";

import { useApi } from "@/lib/console/hooks";

import { KEYS_PATH } from "./api";
import type { ApiKey } from "./types";

export function useApiKeys() {
  return useApi<ApiKey[]>(KEYS_PATH);
}
