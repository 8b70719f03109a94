"use client";

import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { ParentSize } from "@visx/responsive";
import { scaleBand, scaleLinear } from "@visx/scale";
import { BarStack } from "@visx/shape";

import type { ChartRow, ChartSeries } from "./chartTypes";
import styles from "./analytics.module.css";

const HEIGHT = 220;
const MARGIN = { top: 10, right: 8, bottom: 28, left: 36 };
const MAX_BAR_WIDTH = 48;
const PIXELS_PER_X_TICK = 70;

type Datum = Record<string, number | string> & { id: string };

interface StackedBarsProps {
  rows: ChartRow[];
  series: ChartSeries[];
  /** The x axis label of a row id, e.g. "Jun 3" for "2025-06-03". */
  tickLabel: (id: string) => string;
}

/** Bars stacked by series, one per row, as wide as their box; each drawn piece carries
 * data-row, data-series and data-value, and a native tooltip. */
export function StackedBars(props: StackedBarsProps) {
  return (
    // The measuring box needs the drawing's height: its content is laid out absolutely in it.
    <ParentSize debounceTime={50} style={{ height: HEIGHT }}>
      {({ width }) => (width > 0 ? <Bars {...props} width={width} /> : null)}
    </ParentSize>
  );
}

function Bars({ rows, series, tickLabel, width }: StackedBarsProps & { width: number }) {
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const data: Datum[] = rows.map((row) => ({ ...row.values, id: row.id }));
  const highest = Math.max(
    1,
    ...rows.map((r) => series.reduce((n, s) => n + (r.values[s.key] ?? 0), 0)),
  );
  const x = scaleBand<string>({
    domain: rows.map((r) => r.id),
    range: [0, innerWidth],
    padding: 0.2,
  });
  const y = scaleLinear<number>({ domain: [0, highest], range: [innerHeight, 0], nice: true });
  const colors = new Map(series.map((s) => [s.key, s.color]));
  const every = Math.ceil(rows.length / Math.max(1, Math.floor(innerWidth / PIXELS_PER_X_TICK)));
  const barWidth = Math.min(x.bandwidth(), MAX_BAR_WIDTH);
  const inset = (x.bandwidth() - barWidth) / 2;
  const labels = new Map(series.map((s) => [s.key, s.label]));
  return (
    <svg width={width} height={HEIGHT} className={styles.svg}>
      <Group left={MARGIN.left} top={MARGIN.top}>
        <BarStack<Datum, string>
          data={data}
          keys={series.map((s) => s.key)}
          x={(d) => d.id}
          xScale={x}
          yScale={y}
          color={(key) => colors.get(key) ?? "currentColor"}
        >
          {(stacks) =>
            stacks.flatMap((stack) =>
              stack.bars
                .filter((bar) => bar.height > 0)
                .map((bar) => (
                  <rect
                    key={`${stack.key}-${bar.index}`}
                    x={bar.x + inset}
                    y={bar.y}
                    width={barWidth}
                    height={bar.height}
                    fill={bar.color}
                    data-row={bar.bar.data.id}
                    data-series={stack.key}
                    data-value={bar.bar[1] - bar.bar[0]}
                  >
                    <title>{`${tickLabel(bar.bar.data.id)}: ${bar.bar[1] - bar.bar[0]} ${labels.get(stack.key) ?? ""}`}</title>
                  </rect>
                )),
            )
          }
        </BarStack>
        <AxisLeft scale={y} numTicks={Math.min(highest, 4)} tickFormat={(v) => String(v)} />
        <AxisBottom
          top={innerHeight}
          scale={x}
          tickValues={rows.map((r) => r.id).filter((_, i) => i % every === 0)}
          tickFormat={tickLabel}
        />
      </Group>
    </svg>
  );
}
