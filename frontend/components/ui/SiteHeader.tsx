import Link from "next/link";

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
          <Link href="/console">Console</Link>
        </nav>
      </div>
    </header>
  );
}
