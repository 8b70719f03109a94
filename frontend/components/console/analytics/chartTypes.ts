/** One bar of a chart (and one row of its data table). */
export interface ChartRow {
  /** Its key for tests and screen readers: a date, or a bucket's range. */
  id: string;
  label: string;
  values: Record<string, number>;
}

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}
