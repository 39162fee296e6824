import { useId } from "react";
import { type ChartBar, columnChartGeometry } from "./chart-geometry";

/**
 * The reports' charts (decision 0050; issue 38, §1.9): SVG rendered on the
 * server, the column chart's scales and line from d3-scale and d3-shape
 * (chart-geometry.ts).
 * Each is an <svg role="img"> named by its <title> and summed up by its
 * <desc>; the numbers themselves are the real <table> the page puts beside
 * every chart, which is what a screen reader reads in full. Colours are the
 * theme's variables (light and dark), so they follow the site's theme.
 */

export type Bar = {
  /** Unique among the chart's bars. */
  key: string;
  label: string;
  /** The bar's height (or length), in the chart's unit. */
  value: number;
  /** A second, darker bar in front of the first (e.g. the completed part); optional. */
  inner?: number;
};

type ColumnChartProps = {
  title: string;
  description: string;
  bars: readonly ChartBar[];
  /** The left axis: its tick labels and its unit, written above it. */
  formatLeft: (value: number) => string;
  leftTitle: string;
  /** The line (bars' `line`) on an axis of its own, on the right. */
  formatRight?: (value: number) => string;
  rightTitle?: string;
  rightMin?: number;
  /** What the bar, its inner part and the line stand for, under the chart. */
  legend?: readonly { kind: "bar" | "inner" | "line"; label: string }[];
};

/**
 * Vertical bars along a series (amounts per day, week or month; hours of the
 * day), with a y axis, and optionally a line on a right axis of its own
 * (issue 38, §1.9). Drawn twice from the same geometry: a narrow viewBox for
 * a phone (its text stays readable when the SVG fits 320 px) and a wide one
 * from sm up; only the one shown is in the accessibility tree.
 */
export function ColumnChart(props: ColumnChartProps) {
  return (
    <figure className="m-0 flex flex-col gap-2">
      <ColumnSvg {...props} width={340} plotHeight={150} tickCount={4} className="sm:hidden" />
      <ColumnSvg
        {...props}
        width={720}
        plotHeight={180}
        tickCount={5}
        className="hidden max-w-3xl sm:block"
      />
      {props.legend && props.legend.length > 0 ? (
        <figcaption>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-neutral-800">
            {props.legend.map((item) => (
              <li key={item.label} className="flex items-center gap-1.5">
                <Swatch kind={item.kind} />
                {item.label}
              </li>
            ))}
          </ul>
        </figcaption>
      ) : null}
    </figure>
  );
}

const swatches = {
  bar: "size-3 border-2 border-brand-700 bg-brand-100",
  inner: "size-3 bg-brand-700",
  line: "h-0.5 w-4 bg-neutral-900",
} as const;

function Swatch({ kind }: { kind: keyof typeof swatches }) {
  return <span aria-hidden="true" className={`inline-block shrink-0 ${swatches[kind]}`} />;
}

function ColumnSvg({
  title,
  description,
  bars,
  formatLeft,
  leftTitle,
  formatRight,
  rightTitle,
  rightMin,
  width,
  plotHeight,
  tickCount,
  className,
}: ColumnChartProps & { width: number; plotHeight: number; tickCount: number; className: string }) {
  const id = useId();
  const chart = columnChartGeometry({
    bars,
    width,
    plotHeight,
    fontSize: 12,
    tickCount,
    formatLeft,
    formatRight,
    rightMin,
    leftTitle,
    rightTitle,
  });
  const { plot } = chart;
  return (
    <svg
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      viewBox={`0 0 ${chart.width} ${chart.height}`}
      preserveAspectRatio="xMinYMin meet"
      className={`h-auto w-full text-[12px] ${className}`}
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      <text x={chart.titles.left.x} y={chart.titles.left.y} className="fill-neutral-800">
        {chart.titles.left.text}
      </text>
      {chart.titles.right ? (
        <text
          x={chart.titles.right.x}
          y={chart.titles.right.y}
          textAnchor="end"
          className="fill-neutral-800"
        >
          {chart.titles.right.text}
        </text>
      ) : null}
      {chart.leftTicks.map((tick) => (
        <g key={`l${tick.value}`}>
          <line
            x1={plot.left}
            x2={plot.right}
            y1={tick.y}
            y2={tick.y}
            className="stroke-neutral-200"
            strokeWidth={1}
          />
          <text
            x={plot.left - 6}
            y={tick.y}
            dy="0.35em"
            textAnchor="end"
            className="fill-neutral-800 tabular-nums"
          >
            {tick.label}
          </text>
        </g>
      ))}
      {chart.rightTicks.map((tick) => (
        <text
          key={`r${tick.value}`}
          x={plot.right + 6}
          y={tick.y}
          dy="0.35em"
          className="fill-neutral-800 tabular-nums"
        >
          {tick.label}
        </text>
      ))}
      {chart.bars.map((bar) => (
        <g key={bar.key}>
          <rect
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            className="fill-brand-100 stroke-brand-700"
            strokeWidth={bar.width > 6 ? 1.5 : 0.75}
          />
          {bar.innerHeight > 0 ? (
            <rect
              x={bar.x}
              y={bar.innerY}
              width={bar.width}
              height={bar.innerHeight}
              className="fill-brand-700"
            />
          ) : null}
        </g>
      ))}
      <line
        x1={plot.left}
        x2={plot.left}
        y1={plot.top}
        y2={plot.bottom}
        className="stroke-neutral-700"
      />
      {chart.rightTicks.length > 0 ? (
        <line
          x1={plot.right}
          x2={plot.right}
          y1={plot.top}
          y2={plot.bottom}
          className="stroke-neutral-700"
        />
      ) : null}
      <line
        x1={plot.left}
        x2={plot.right}
        y1={plot.bottom}
        y2={plot.bottom}
        className="stroke-neutral-700"
      />
      {chart.linePath ? (
        <path d={chart.linePath} fill="none" className="stroke-neutral-900" strokeWidth={2} />
      ) : null}
      {chart.points.map((point) => (
        <circle
          key={`p${point.key}`}
          cx={point.x}
          cy={point.y}
          r={3}
          className="fill-white stroke-neutral-900"
          strokeWidth={1.5}
        />
      ))}
      {chart.labels.map((label) => (
        <text
          key={`x${label.key}`}
          x={label.x}
          y={plot.bottom + 18}
          textAnchor="middle"
          className="fill-neutral-800 tabular-nums"
        >
          {label.label}
        </text>
      ))}
    </svg>
  );
}

const ROW = 28;
const NAME_SPACE = 110;
const BAR_SPACE = 220;

/** Horizontal bars, one per row (utilisation per stylist); the value is written at the end. */
export function RowChart({
  title,
  description,
  bars,
  max,
  formatValue,
}: {
  title: string;
  description: string;
  bars: readonly Bar[];
  /** The top of the scale; the largest value when left out. */
  max?: number;
  formatValue: (value: number) => string;
}) {
  const id = useId();
  const top = Math.max(max ?? Math.max(0, ...bars.map((bar) => bar.value)), 1e-9);
  const height = Math.max(bars.length, 1) * ROW;
  const width = NAME_SPACE + BAR_SPACE + 70;
  return (
    <svg
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="xMinYMin meet"
      className="h-auto w-full max-w-xl"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {bars.map((bar, index) => {
        const y = index * ROW;
        const w = (Math.min(bar.value, top) / top) * BAR_SPACE;
        return (
          <g key={bar.key}>
            <text x={0} y={y + 18} className="fill-neutral-900 text-[12px]">
              {bar.label.length > 8 ? `${bar.label.slice(0, 8)}…` : bar.label}
            </text>
            <rect
              x={NAME_SPACE}
              y={y + 6}
              width={BAR_SPACE}
              height={ROW - 12}
              className="fill-neutral-200"
            />
            <rect x={NAME_SPACE} y={y + 6} width={w} height={ROW - 12} className="fill-brand-700" />
            <text
              x={NAME_SPACE + BAR_SPACE + 6}
              y={y + 18}
              className="fill-neutral-900 text-[12px]"
            >
              {formatValue(bar.value)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
