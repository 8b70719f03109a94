"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

import styles from "../ui/layout.module.css";

const TABS = [
  { path: "", label: "Settings" },
  { path: "/sources", label: "Sources" },
  { path: "/analytics", label: "Analytics" },
  { path: "/widget", label: "Widget" },
  { path: "/integrations", label: "Integrations" },
];

/** The pages of one guru in the console. */
export function GuruTabs({ slug }: { slug: string }) {
  const pathname = usePathname();
  const base = `/console/gurus/${slug}`;
  return (
    <nav className={styles.tabs} aria-label="Guru">
      {TABS.map((tab) => (
        <Link
          key={tab.path}
          href={`${base}${tab.path}`}
          className={styles.tab}
          aria-current={pathname === `${base}${tab.path}` ? "page" : undefined}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
