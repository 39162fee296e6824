import { useId } from "react";

/**
 * The reports' charts (decision 0050): hand-written SVG, no chart library.
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

type ChartProps = {
  title: string;
  description: string;
  bars: readonly Bar[];
  /** The top of the scale; the largest value when left out. */
  max?: number;
  /** Axis labels: the scale's top, written out (¥120,000, 100%). */
  formatMax: (max: number) => string;
  /** Show every nth label under the bars (long series). */
  labelEvery?: number;
};

const HEIGHT = 160;
const LABEL_SPACE = 28;
const AXIS_SPACE = 8;

/** Vertical bars along a series (amounts per day, week or month; hours of the day). */
export function ColumnChart({ title, description, bars, max, formatMax, labelEvery }: ChartProps) {
  const id = useId();
  const top = Math.max(max ?? Math.max(0, ...bars.map((bar) => bar.value)), 1);
  const slot = bars.length > 60 ? 4 : bars.length > 24 ? 12 : 28;
  const width = Math.max(bars.length * slot, 120) + AXIS_SPACE;
  const every = labelEvery ?? (bars.length > 60 ? 30 : bars.length > 24 ? 7 : 1);
  const scale = (value: number) => (Math.min(value, top) / top) * HEIGHT;
  return (
    <figure className="m-0">
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${width} ${HEIGHT + LABEL_SPACE}`}
        preserveAspectRatio="xMinYMin meet"
        className="h-auto w-full max-w-3xl"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <line
          x1={AXIS_SPACE}
          x2={width}
          y1={HEIGHT}
          y2={HEIGHT}
          className="stroke-neutral-400"
          strokeWidth={1}
        />
        {bars.map((bar, index) => {
          const x = AXIS_SPACE + index * slot + slot * 0.15;
          const w = slot * 0.7;
          const h = scale(bar.value);
          const inner = bar.inner === undefined ? null : scale(bar.inner);
          return (
            <g key={bar.key}>
              <rect x={x} y={HEIGHT - h} width={w} height={h} className="fill-brand-100" />
              {inner !== null ? (
                <rect
                  x={x}
                  y={HEIGHT - inner}
                  width={w}
                  height={inner}
                  className="fill-brand-700"
                />
              ) : null}
              {index % every === 0 ? (
                <text
                  x={x + w / 2}
                  y={HEIGHT + 18}
                  textAnchor={bars.length > 24 ? "start" : "middle"}
                  className="fill-neutral-700 text-[10px]"
                >
                  {bar.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="text-xs text-neutral-700">目盛りの上端: {formatMax(top)}</figcaption>
    </figure>
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
}: Omit<ChartProps, "formatMax" | "labelEvery"> & { formatValue: (value: number) => string }) {
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
