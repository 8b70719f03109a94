import styles from "@/components/console/ui/layout.module.css";

import type { ChartRow, ChartSeries } from "./chartTypes";

interface DataTableProps {
  caption: string;
  rowHeader: string;
  series: Pick<ChartSeries, "key" | "label">[];
  rows: ChartRow[];
}

/** A chart's numbers as a table, read by screen readers (the SVG is hidden from them) and by
 * tests: each row carries data-row, each cell data-series and data-value. */
export function DataTable({ caption, rowHeader, series, rows }: DataTableProps) {
  return (
    <table className={styles.visuallyHidden} data-part="chart-data">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{rowHeader}</th>
          {series.map((s) => (
            <th scope="col" key={s.key}>
              {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-row={row.id}>
            <th scope="row">{row.label}</th>
            {series.map((s) => (
              <td key={s.key} data-series={s.key} data-value={row.values[s.key] ?? 0}>
                {row.values[s.key] ?? 0}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
