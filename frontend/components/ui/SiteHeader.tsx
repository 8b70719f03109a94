import Link from "next/link";

import { publicApiUrl } from "@/lib/env";

import styles from "./SiteHeader.module.css";

export function SiteHeader() {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link href="/" className={styles.brand}>
          <span className={styles.mark} aria-hidden="true" />
          OpenGuru
        </Link>
        <nav className={styles.nav} aria-label="Main">
          <Link href="/">Gurus</Link>
          {/* Django serves the admin itself: same origin behind nginx, the API port in development. */}
          <a href={`${publicApiUrl()}/admin/`}>Admin</a>
        </nav>
      </div>
    </header>
  );
}
