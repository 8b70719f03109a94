import type { Schemas } from "@/lib/api/types";

/** A widget id (`WidgetIdOutput`): public, bound to the domains that may embed the widget. */
export type WidgetId = Schemas["WidgetIdOutput"];

export type WidgetMode = "button" | "sidebar";
export type WidgetTheme = "light" | "dark" | "auto";

export interface SnippetOptions {
  scriptOrigin: string;
  widgetId: string;
  mode: WidgetMode;
  theme: WidgetTheme;
  name: string;
}

function attribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/** The one tag a site adds (the format README's widget section documents). */
export function embedSnippet({
  scriptOrigin,
  widgetId,
  mode,
  theme,
  name,
}: SnippetOptions): string {
  const attrs = [
    `src="${attribute(`${scriptOrigin}/widget.js`)}"`,
    `data-widget-id="${attribute(widgetId)}"`,
    `data-mode="${mode}"`,
    `data-theme="${theme}"`,
  ];
  if (name.trim()) attrs.push(`data-name="${attribute(name.trim())}"`);
  return `<script ${attrs.join(" ")}></script>`;
}
