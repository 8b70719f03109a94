import { apiJson, apiRequest, guruPath } from "@/lib/api/client";

import type { ConnectionTest, Integration, IntegrationCreate, IntegrationInput } from "./types";

export const integrationsPath = (slug: string) => `${guruPath(slug)}/integrations/`;

export function createIntegration(slug: string, input: IntegrationCreate): Promise<Integration> {
  return apiJson<Integration>(integrationsPath(slug), { method: "POST", json: input });
}

export function updateIntegration(
  slug: string,
  id: number,
  input: IntegrationInput,
): Promise<Integration> {
  return apiJson<Integration>(`${integrationsPath(slug)}${id}/`, { method: "PATCH", json: input });
}

export async function deleteIntegration(slug: string, id: number): Promise<void> {
  await apiRequest(`${integrationsPath(slug)}${id}/`, { method: "DELETE" });
}

export function testIntegration(slug: string, id: number): Promise<ConnectionTest> {
  return apiJson<ConnectionTest>(`${integrationsPath(slug)}${id}/test/`);
}

/** The Teams bot's app package (manifest.json and icons, zipped) to upload to Teams. */
export const teamsPackageUrl = (slug: string, id: number) =>
  `${integrationsPath(slug)}${id}/teams/manifest/`;
