"use client";

import { useState } from "react";

import { CopyButton } from "@/components/console/ui/CopyButton";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import { publicApiUrl } from "@/lib/env";
import {
  embedSnippet,
  type WidgetId,
  type WidgetMode,
  type WidgetTheme,
} from "@/lib/widgets/types";

import { WidgetPreview } from "./WidgetPreview";

/** Where Django serves /widget.js: the API's public origin, else this site's (behind nginx). */
function scriptOrigin(): string {
  return publicApiUrl() || (typeof window === "undefined" ? "" : window.location.origin);
}

export function EmbedSnippet({ widget, guruName }: { widget: WidgetId; guruName: string }) {
  const [mode, setMode] = useState<WidgetMode>("button");
  const [theme, setTheme] = useState<WidgetTheme>("auto");
  const snippet = embedSnippet({
    scriptOrigin: scriptOrigin(),
    widgetId: widget.key,
    mode,
    theme,
    name: guruName,
  });
  return (
    <>
      <div className={formStyles.row}>
        <Field label="Look">
          {(c) => (
            <select {...c} value={mode} onChange={(e) => setMode(e.target.value as WidgetMode)}>
              <option value="button">Button</option>
              <option value="sidebar">Side panel</option>
            </select>
          )}
        </Field>
        <Field label="Theme">
          {(c) => (
            <select {...c} value={theme} onChange={(e) => setTheme(e.target.value as WidgetTheme)}>
              <option value="auto">Follow the visitor</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          )}
        </Field>
      </div>
      <p>Add this tag to the pages of the allowed sites:</p>
      <code className={formStyles.code} data-part="embed-snippet">
        {snippet}
      </code>
      <div>
        <CopyButton text={snippet} label="Copy snippet" />
      </div>
      <WidgetPreview snippet={snippet} />
    </>
  );
}
