import table from "@/components/console/ui/table.module.css";
import type { TopSource } from "@/lib/analytics/types";

import styles from "./analytics.module.css";

/** The most cited sources, with a bar scaled to the first. */
export function TopSources({ sources }: { sources: TopSource[] }) {
  if (!sources.length) return <p>No answer cited a source in this interval.</p>;
  const most = Math.max(...sources.map((s) => s.citations), 1);
  return (
    <table className={table.table} aria-label="Most cited sources" data-chart="top-sources">
      <thead>
        <tr>
          <th scope="col">Source</th>
          <th scope="col" className={table.number}>
            Citations
          </th>
          <th scope="col">
            <span>Share</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {sources.map((source) => (
          <tr key={`${source.url}|${source.title}`} data-row={source.url || source.title}>
            <td className={table.break}>
              {source.url ? (
                <a href={source.url} target="_blank" rel="noopener noreferrer">
                  {source.title || source.url}
                </a>
              ) : (
                source.title
              )}
            </td>
            <td className={table.number} data-value={source.citations}>
              {source.citations}
            </td>
            <td style={{ width: "35%" }}>
              <div
                className={styles.meter}
                style={{ width: `${(source.citations / most) * 100}%` }}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
