"use client";

import { apiJson, guruPath } from "@/lib/api/client";
import type { Schemas } from "@/lib/api/types";
import { useApi } from "@/lib/console/hooks";

import { integrationsPath } from "./api";

/** A guru's GitHub App installation; its private key and webhook secret are write-only. */
export type GitHubApp = Schemas["GitHubAppOutput"];
/** The same, with the repositories the installation covers (`null`: GitHub could not say). */
export type GitHubAppDetail = Schemas["GitHubAppDetail"];
export type GitHubAppCreate = Schemas["GitHubAppInputRequest"];
export type GitHubAppChange = Schemas["PatchedGitHubAppInputRequest"];
export type RepositorySetting = Schemas["RepositorySetting"];

const githubAppPath = (slug: string, id: number) => `${integrationsPath(slug)}${id}/github/`;

export function createGitHubApp(slug: string, input: GitHubAppCreate): Promise<GitHubApp> {
  return apiJson<GitHubApp>(`${guruPath(slug)}/integrations/github/`, {
    method: "POST",
    json: input,
  });
}

export function updateGitHubApp(
  slug: string,
  id: number,
  input: GitHubAppChange,
): Promise<GitHubApp> {
  return apiJson<GitHubApp>(githubAppPath(slug, id), { method: "PATCH", json: input });
}

export function useGitHubApp(slug: string, id: number) {
  return useApi<GitHubAppDetail>(githubAppPath(slug, id));
}
