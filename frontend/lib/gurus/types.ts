import type { Schemas } from "@/lib/api/types";
import { isRecord } from "@/lib/json";

/** A guru as `GET /api/gurus/` returns it (Django's GuruOutput serializer). */
export type Guru = Schemas["GuruOutput"];

/** "private": only admins and the people granted it see it; its pages are not indexed. */
export type Visibility = Guru["visibility"];

const STRINGS = [
  "slug",
  "name",
  "domain_knowledge",
  "icon_url",
  "base_color",
  "light_color",
  "embedding_model",
  "created_at",
] as const;

/** Whether an answer is a guru; a page shows an error rather than half a guru. */
export function parseGuru(value: unknown): Guru | null {
  if (!isRecord(value) || !STRINGS.every((key) => typeof value[key] === "string")) return null;
  if (typeof value.active !== "boolean" || typeof value.embedding_dimension !== "number") {
    return null;
  }
  return value as Guru;
}

export function parseGuruList(value: unknown): Guru[] | null {
  if (!Array.isArray(value)) return null;
  const gurus = value.map(parseGuru);
  return gurus.every((guru): guru is Guru => guru !== null) ? gurus : null;
}
