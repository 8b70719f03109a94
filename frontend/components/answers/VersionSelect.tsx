"use client";

import { useId } from "react";

import styles from "./answers.module.css";

interface VersionSelectProps {
  versions: string[];
  value: string;
  onChange: (version: string) => void;
}

/** Which documentation version the next answer reads (shown when a guru has several). */
export function VersionSelect({ versions, value, onChange }: VersionSelectProps) {
  const id = useId();
  return (
    <span className={styles.versionSelect}>
      <label htmlFor={id}>Version</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {versions.map((version) => (
          <option key={version} value={version}>
            {version}
          </option>
        ))}
      </select>
    </span>
  );
}
