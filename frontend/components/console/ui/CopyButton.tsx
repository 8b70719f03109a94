"use client";

import { useState } from "react";

import { Button } from "./Button";

export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<"" | "yes" | "no">("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }
  return (
    <Button small onClick={copy} aria-live="polite">
      {copied === "yes" ? "Copied" : copied === "no" ? "Copy failed" : label}
    </Button>
  );
}
