/* eslint-disable @next/next/no-img-element -- icons live on arbitrary admin-chosen hosts, and the
   image optimizer would have to fetch them; a plain <img> lets the browser do it. */
import type { CSSProperties } from "react";

import { safeHexColor } from "@/lib/color";
import type { Guru } from "@/lib/gurus/types";

import styles from "./GuruAvatar.module.css";

type AvatarSize = "medium" | "large";

export function GuruAvatar({ guru, size = "medium" }: { guru: Guru; size?: AvatarSize }) {
  const className = `${styles.avatar} ${styles[size]}`;
  if (guru.icon_url) {
    return <img className={className} src={guru.icon_url} alt="" loading="lazy" />;
  }
  const style: CSSProperties = { background: safeHexColor(guru.base_color, "#1f6feb") };
  return (
    <span className={className} style={style} aria-hidden="true">
      {guru.name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
