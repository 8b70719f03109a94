"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

import styles from "../ui/layout.module.css";
import { SignOutButton } from "./SignOutButton";

const OWN_PAGES = ["/console/api-keys", "/console/settings", "/console/members", "/console/audit"];

/** `admin`: shown to admins only (the API refuses the others anyway). */
const LINKS = [
  { href: "/console", label: "Gurus", exact: false, skip: OWN_PAGES, admin: false },
  { href: "/console/api-keys", label: "API keys", exact: true, skip: [], admin: false },
  { href: "/console/members", label: "Members", exact: true, skip: [], admin: true },
  { href: "/console/audit", label: "Audit log", exact: true, skip: [], admin: true },
  { href: "/console/settings", label: "Settings", exact: true, skip: [], admin: true },
];

function isCurrent(pathname: string, link: (typeof LINKS)[number]): boolean {
  if (link.skip.some((path) => pathname.startsWith(path))) return false;
  return link.exact ? pathname === link.href : pathname.startsWith(link.href);
}

export function ConsoleNav({ username, admin }: { username: string; admin: boolean }) {
  const pathname = usePathname();
  return (
    <nav className={styles.nav} aria-label="Console">
      <p className={styles.navTitle}>Console</p>
      {LINKS.filter((link) => admin || !link.admin).map((link) => (
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
