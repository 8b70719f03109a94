import type { Schemas } from "@/lib/api/types";
import { isRecord } from "@/lib/json";

/** `GET /api/health/`: "degraded" (HTTP 503) when any component reports an error. Each
 * component's state is "ok", "not configured" or "error: <reason>". */
export type HealthReport = Schemas["Health"];

export type ComponentLevel = "ok" | "off" | "error";

export interface ComponentView {
  label: string;
  level: ComponentLevel;
  /** What the badge says: the state itself, or just "error" with the reason beside it. */
  summary: string;
  reason: string;
}

const COMPONENT_LABELS: Record<string, string> = {
  llm: "LLM",
  vector_store: "Vector store",
};

/** How a component's state should look; Django decides the state, this only presents it. */
export function describeComponent(name: string, state: string): ComponentView {
  const label = COMPONENT_LABELS[name] ?? capitalize(name.replaceAll("_", " "));
  if (state === "ok") return { label, level: "ok", summary: "ok", reason: "" };
  if (state === "not configured") return { label, level: "off", summary: state, reason: "" };
  const reason = state.startsWith("error:") ? state.slice("error:".length).trim() : state;
  return { label, level: "error", summary: "error", reason };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The report, with any component whose state is not a string left out. */
export function parseHealthReport(value: unknown): HealthReport | null {
  if (!isRecord(value) || !isRecord(value.components)) return null;
  if (value.status !== "ok" && value.status !== "degraded") return null;
  const components: HealthReport["components"] = {};
  for (const [name, state] of Object.entries(value.components)) {
    if (typeof state === "string") components[name] = state;
  }
  return { status: value.status, components };
}
