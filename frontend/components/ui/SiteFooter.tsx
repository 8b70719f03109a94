import styles from "./SiteFooter.module.css";

export function SiteFooter() {
  return (
    <footer className={styles.footer}>
      OpenGuru — open, self-hosted answers with citations from your docs, sites, PDFs, videos and
      code.
    </footer>
  );
}
