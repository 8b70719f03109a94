import type { Mode, Theme, WidgetConfig } from "./types";

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T {
  return allowed.find((option) => option === value) ?? fallback;
}

/** Reads the widget's settings from its own <script> tag's data-* attributes. */
export function configFromScript(script: HTMLScriptElement): WidgetConfig | null {
  const data = script.dataset;
  const widgetId = (data.widgetId ?? "").trim();
  if (!widgetId) return null;
  // Without data-base-url the API lives on the same origin that served this script.
  const baseUrl = (data.baseUrl ?? `${new URL(script.src, location.href).origin}/api`).replace(
    /\/+$/,
    "",
  );
  return {
    widgetId,
    token: (data.token ?? "").trim(),
    baseUrl,
    mode: oneOf<Mode>(data.mode, ["button", "sidebar"], "button"),
    theme: oneOf<Theme>(data.theme, ["light", "dark", "auto"], "auto"),
    name: (data.name ?? "").trim(),
  };
}
