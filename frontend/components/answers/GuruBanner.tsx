import type { CSSProperties } from "react";

import { GuruAvatar } from "@/components/ui/GuruAvatar";
import { safeHexColor } from "@/lib/color";
import type { Guru } from "@/lib/gurus/types";

import styles from "./banner.module.css";

/** The guru's colours as CSS variables for everything on its pages. */
export function guruStyle(guru: Guru): CSSProperties {
  return {
    "--guru-color": safeHexColor(guru.base_color, "#1f6feb"),
    "--guru-light": safeHexColor(guru.light_color, "#e8f0fe"),
  } as CSSProperties;
}

export function GuruBanner({ guru, compact = false }: { guru: Guru; compact?: boolean }) {
  return (
    <header className={`${styles.banner} ${compact ? styles.compact : ""}`}>
      <GuruAvatar guru={guru} size={compact ? "medium" : "large"} />
      <div>
        {compact ? (
          <p className={styles.compactName}>{guru.name}</p>
        ) : (
          <h1 className={styles.name}>{guru.name}</h1>
        )}
        {guru.domain_knowledge ? <p className={styles.domain}>{guru.domain_knowledge}</p> : null}
      </div>
    </header>
  );
}
