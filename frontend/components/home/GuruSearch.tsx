import styles from "./home.module.css";

/** A plain GET form: the search works without JavaScript and the results page is shareable. */
export function GuruSearch({ query }: { query: string }) {
  return (
    <form role="search" action="/" method="get" className={styles.search}>
      <label htmlFor="guru-search" className={styles.searchLabel}>
        Search gurus
      </label>
      <input
        id="guru-search"
        name="q"
        type="search"
        defaultValue={query}
        maxLength={200}
        placeholder="Name, project or topic"
        className={styles.searchInput}
      />
      <button type="submit" className={styles.searchButton}>
        Search
      </button>
    </form>
  );
}
