import type { ChartRow, ChartSeries } from "./chartTypes";
import { DataTable } from "./DataTable";
import { StackedBars } from "./StackedBars";
import styles from "./analytics.module.css";

interface ChartFigureProps {
  /** data-chart on the figure, for tests: "questions", "trust", "votes". */
  name: string;
  title: string;
  rowHeader: string;
  series: ChartSeries[];
  rows: ChartRow[];
  tickLabel: (id: string) => string;
  /** Columns only the table has (a total, say). */
  extraColumns?: Pick<ChartSeries, "key" | "label">[];
}

/** A chart with its caption and legend; the drawing is for eyes, the table beside it for
 * everyone else. */
export function ChartFigure(props: ChartFigureProps) {
  const { name, title, rowHeader, series, rows, tickLabel, extraColumns = [] } = props;
  return (
    <figure className={styles.figure} data-chart={name}>
      <figcaption className={styles.caption}>{title}</figcaption>
      <div aria-hidden="true" className={styles.chart}>
        <StackedBars rows={rows} series={series} tickLabel={tickLabel} />
        {series.length > 1 ? (
          <ul className={styles.legend}>
            {series.map((s) => (
              <li key={s.key}>
                <span className={styles.swatch} style={{ background: s.color }} />
                {s.label}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <DataTable
        caption={title}
        rowHeader={rowHeader}
        series={[...series, ...extraColumns]}
        rows={rows}
      />
    </figure>
  );
}
