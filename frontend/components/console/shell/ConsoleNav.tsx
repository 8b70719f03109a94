"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

import styles from "../ui/layout.module.css";
import { SignOutButton } from "./SignOutButton";

const LINKS = [
  {
    href: "/console",
    label: "Gurus",
    exact: false,
    skip: ["/console/api-keys", "/console/settings"],
  },
  { href: "/console/api-keys", label: "API keys", exact: true, skip: [] },
  { href: "/console/settings", label: "Settings", exact: true, skip: [] },
];

function isCurrent(pathname: string, link: (typeof LINKS)[number]): boolean {
  if (link.skip.some((path) => pathname.startsWith(path))) return false;
  return link.exact ? pathname === link.href : pathname.startsWith(link.href);
}

export function ConsoleNav({ username }: { username: string }) {
  const pathname = usePathname();
  return (
    <nav className={styles.nav} aria-label="Console">
      <p className={styles.navTitle}>Console</p>
      {LINKS.map((link) => (
        <Link
          key={link.href}
          href={link.href}
          className={styles.navLink}
          aria-current={isCurrent(pathname, link) ? "page" : undefined}
        >
          {link.label}
        </Link>
      ))}
      <div className={styles.user}>
        <span>
          Signed in as <strong>{username}</strong>
        </span>
        <SignOutButton />
      </div>
    </nav>
  );
}
