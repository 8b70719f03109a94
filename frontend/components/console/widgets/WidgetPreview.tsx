"use client";

import { useState } from "react";

import { Button } from "@/components/console/ui/Button";
import styles from "@/components/console/ui/layout.module.css";

/** A stand-in page with the snippet in it. The frame shares the console's origin, so the
 * widget id must allow this site for the preview to answer. */
function previewPage(snippet: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widget preview</title></head>
<body style="font-family:system-ui;margin:1.5rem;color:#333"><h1 style="font-size:1.1rem">Your page</h1>
<p>The widget opens from the corner.</p>${snippet}</body></html>`;
}

export function WidgetPreview({ snippet }: { snippet: string }) {
  const [shown, setShown] = useState(false);
  const [round, setRound] = useState(0);
  if (!shown) {
    return (
      <div>
        <Button onClick={() => setShown(true)}>Preview the widget</Button>
      </div>
    );
  }
  return (
    <div>
      <p className={styles.muted}>
        Live preview on this console&apos;s address; it answers when the widget id allows this site.{" "}
        <Button small onClick={() => setRound((n) => n + 1)}>
          Reload preview
        </Button>
      </p>
      <iframe
        key={round}
        title="Widget preview"
        srcDoc={previewPage(snippet)}
        style={{
          width: "100%",
          height: "34rem",
          border: "1px solid var(--border)",
          borderRadius: 12,
        }}
        data-part="widget-preview"
      />
    </div>
  );
}
