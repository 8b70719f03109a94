"use client";

import useSWR, { type SWRConfiguration } from "swr";

import { apiJson, type ApiError } from "@/lib/api/client";

const fetcher = <T>(path: string) => apiJson<T>(path);

/** A GET resource, cached per path and revalidated by SWR; `null` skips the call. */
export function useApi<T>(path: string | null, config?: SWRConfiguration<T, ApiError>) {
  return useSWR<T, ApiError>(path, fetcher, config);
}
