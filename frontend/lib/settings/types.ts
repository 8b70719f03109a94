import type { Schemas } from "@/lib/api/types";

/** `GET/PATCH /api/settings/`: editable values beside read-only facts about the deployment. */
export type PlatformSettings = Schemas["SettingsReadOnly"];
/** A PATCH: the values to change; the rest stay. */
export type SettingsChange = Schemas["PatchedSettingsRequest"];
export type SettingValue = number | boolean | string;

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
const FACTS = ["llm_model", "embedding_model", "answer_mode"] as const;

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
  for (const [name, value] of Object.entries(settings.providers)) {
    facts.push([`${name} provider`, String(value)]);
  }
  for (const field of FACTS) {
    const value = settings[field];
    if (typeof value === "string" && value) facts.push([field.replaceAll("_", " "), value]);
  }
  return facts;
}

/** Names a field's words would get wrong ("Llm provider"). */
const LABELS: Record<string, string> = {
  "llm provider": "LLM provider",
  "llm model": "LLM model",
  "vector_store provider": "Vector store provider",
  widget_answer_max_length: "Widget answer length (characters)",
  answer_cache_enabled: "Reuse saved answers to similar questions",
};

/** What each threshold does, under its field (each is between 0 and 1). */
export const HELP: Record<string, string> = {
  rerank_threshold: "A reranker score (0 to 1); answers do not read it yet.",
  trust_score_threshold:
    "Sources less relevant than this are dropped; with none left, the guru declines to answer (0 to 1).",
  trust_score_margin:
    "Sources further than this below the best one are dropped, so weak ones do not dilute it (0 to 1).",
  similar_question_threshold:
    "How close a new question must be to a saved one for its answer to be reused (0 to 1; 1 means identical).",
  low_trust_threshold: "Analytics count answers whose trust score is below this as weak (0 to 1).",
  widget_answer_max_length:
    "A length in characters for widget answers; answers do not read it yet.",
};

export function labelFor(field: string): string {
  const known = LABELS[field];
  if (known) return known;
  const text = field.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
