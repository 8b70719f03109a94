"use client";

import { useState } from "react";

import styles from "./answers.module.css";

export function CopyButton({ text }: { text: string }) {
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
    <button type="button" className={styles.secondaryButton} onClick={copy}>
      {copied === "yes" ? "Copied" : copied === "no" ? "Copy failed" : "Copy as markdown"}
    </button>
  );
}
