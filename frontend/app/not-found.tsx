import Link from "next/link";

import styles from "./page.module.css";

export default function NotFound() {
  return (
    <main className={styles.main}>
      <div className={styles.hero}>
        <h1>Not found</h1>
        <p>
          There is nothing at this address. <Link href="/">See all gurus</Link>.
        </p>
      </div>
    </main>
  );
}
