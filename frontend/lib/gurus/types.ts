import { isRecord, stringOr } from "@/lib/json";

/** A guru as `GET /api/gurus/` returns it (Django's GuruOutput serializer). */
export interface Guru {
  slug: string;
  name: string;
  domain_knowledge: string;
  icon_url: string;
  base_color: string;
  light_color: string;
  active: boolean;
  /** "private": only admins and the people granted it see it; its pages are not indexed. */
  visibility: Visibility;
  embedding_model: string;
  embedding_dimension: number;
  created_at: string;
}

export type Visibility = "public" | "private";

export function parseGuru(value: unknown): Guru | null {
  if (!isRecord(value) || typeof value.slug !== "string" || typeof value.name !== "string") {
    return null;
  }
  return {
    slug: value.slug,
    name: value.name,
    domain_knowledge: stringOr(value.domain_knowledge, ""),
    icon_url: stringOr(value.icon_url, ""),
    base_color: stringOr(value.base_color, ""),
    light_color: stringOr(value.light_color, ""),
    active: value.active !== false,
    visibility: value.visibility === "private" ? "private" : "public",
    embedding_model: stringOr(value.embedding_model, ""),
    embedding_dimension:
      typeof value.embedding_dimension === "number" ? value.embedding_dimension : 0,
    created_at: stringOr(value.created_at, ""),
  };
}

export function parseGuruList(value: unknown): Guru[] | null {
  if (!Array.isArray(value)) return null;
  const gurus = value.map(parseGuru);
  return gurus.every((guru): guru is Guru => guru !== null) ? gurus : null;
}
