/** `GET/PATCH /api/settings/`: editable values beside read-only facts about the deployment. */
export type SettingValue = number | boolean | string;

export interface PlatformSettings {
  providers?: Record<string, string>;
  embedding_model?: string;
  [field: string]: unknown;
}

/** Fields Django reports but an admin cannot change here. */
const READ_ONLY = new Set([
  "providers",
  "llm_model",
  "embedding_model",
  "answer_mode",
  "updated_at",
  "id",
]);

/** The read-only facts worth showing, in this order. */
const FACTS = ["llm_model", "embedding_model", "answer_mode"];

/** The editable scalar fields, in Django's order. */
export function editableFields(settings: PlatformSettings): [string, SettingValue][] {
  return Object.entries(settings).filter(
    (entry): entry is [string, SettingValue] =>
      !READ_ONLY.has(entry[0]) && ["number", "boolean", "string"].includes(typeof entry[1]),
  );
}

/** The read-only facts (strings), e.g. the embedding model. */
export function readOnlyFacts(settings: PlatformSettings): [string, string][] {
  const facts: [string, string][] = [];
  for (const [name, value] of Object.entries(settings.providers ?? {})) {
    facts.push([`${name} provider`, String(value)]);
  }
  for (const field of FACTS) {
    const value = settings[field];
    if (typeof value === "string" && value) facts.push([field.replaceAll("_", " "), value]);
  }
  return facts;
}

export function labelFor(field: string): string {
  const text = field.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
