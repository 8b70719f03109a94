/** The guru form's values (all text, as inputs hold them) and their API payload. */
import type { Guru, Visibility } from "@/lib/gurus/types";

import type { AdminGuru, AnswerMode, GuruInput } from "./gurus";

export interface GuruFormValues {
  slug: string;
  name: string;
  domain_knowledge: string;
  custom_instruction: string;
  icon_url: string;
  base_color: string;
  light_color: string;
  active: boolean;
  visibility: string;
  anonymous_asks_per_hour: string;
  anonymous_asks_per_day: string;
  github_webhook_secret: string;
  trust_threshold: string;
  answer_mode: string;
  default_version: string;
}

export const EMPTY_GURU: GuruFormValues = {
  slug: "",
  name: "",
  domain_knowledge: "",
  custom_instruction: "",
  icon_url: "",
  base_color: "#1f6feb",
  light_color: "#e8f0fe",
  active: true,
  visibility: "public",
  anonymous_asks_per_hour: "",
  anonymous_asks_per_day: "",
  github_webhook_secret: "",
  trust_threshold: "",
  answer_mode: "",
  default_version: "",
};

const limit = (value: number | null | undefined) => (value == null ? "" : String(value));

export function valuesFromGuru(guru: AdminGuru): GuruFormValues {
  return {
    ...EMPTY_GURU,
    slug: guru.slug,
    name: guru.name,
    domain_knowledge: guru.domain_knowledge,
    custom_instruction: guru.custom_instruction ?? "",
    icon_url: guru.icon_url,
    base_color: guru.base_color || EMPTY_GURU.base_color,
    light_color: guru.light_color || EMPTY_GURU.light_color,
    active: guru.active,
    visibility: guru.visibility ?? "public",
    anonymous_asks_per_hour: limit(guru.anonymous_asks_per_hour),
    anonymous_asks_per_day: limit(guru.anonymous_asks_per_day),
    trust_threshold: limit(guru.trust_threshold),
    answer_mode: guru.answer_mode ?? "",
    default_version: guru.default_version ?? "",
  };
}

const toLimit = (text: string) => (text.trim() === "" ? null : Number(text));

function payload(values: GuruFormValues): GuruInput {
  return {
    slug: values.slug.trim(),
    name: values.name.trim(),
    domain_knowledge: values.domain_knowledge.trim(),
    custom_instruction: values.custom_instruction,
    icon_url: values.icon_url.trim(),
    base_color: values.base_color,
    light_color: values.light_color,
    active: values.active,
    visibility: values.visibility as Visibility,
    anonymous_asks_per_hour: toLimit(values.anonymous_asks_per_hour),
    anonymous_asks_per_day: toLimit(values.anonymous_asks_per_day),
    github_webhook_secret: values.github_webhook_secret,
    trust_threshold: toLimit(values.trust_threshold),
    answer_mode: values.answer_mode as AnswerMode,
    default_version: values.default_version.trim(),
  };
}

/** A new guru's fields; limits and "active" take their defaults until it is edited. */
export function createInput(values: GuruFormValues): GuruInput {
  const all = payload(values);
  const input: GuruInput = {
    slug: all.slug,
    name: all.name,
    domain_knowledge: all.domain_knowledge,
    custom_instruction: all.custom_instruction,
    icon_url: all.icon_url,
    base_color: all.base_color,
    light_color: all.light_color,
  };
  if (all.github_webhook_secret) input.github_webhook_secret = all.github_webhook_secret;
  if (all.trust_threshold != null) input.trust_threshold = all.trust_threshold;
  if (all.answer_mode) input.answer_mode = all.answer_mode;
  return input;
}

/** Only what the admin changed: a field Django does not send back (custom instructions, the
 * webhook secret) is never overwritten with an empty value. */
export function updateInput(values: GuruFormValues, initial: GuruFormValues): Partial<GuruInput> {
  const now = payload(values);
  const before = payload(initial);
  const changed: Partial<GuruInput> = {};
  for (const key of Object.keys(now) as (keyof GuruInput)[]) {
    if (key !== "slug" && now[key] !== before[key]) Object.assign(changed, { [key]: now[key] });
  }
  return changed;
}

/** What the preview draws: the form's values as the guru page would get them. */
export function previewGuru(values: GuruFormValues, iconPreview: string): Guru {
  return {
    slug: values.slug,
    name: values.name || "Your guru",
    domain_knowledge: values.domain_knowledge,
    icon_url: iconPreview || values.icon_url,
    base_color: values.base_color,
    light_color: values.light_color,
    active: values.active,
    visibility: values.visibility as Visibility,
    embedding_model: "",
    embedding_dimension: 0,
    created_at: "",
  };
}

/** A slug suggestion from a name: lowercase words joined by single hyphens. */
export function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
}
