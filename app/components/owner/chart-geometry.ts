import { scaleBand, scaleLinear } from "d3-scale";
import { line } from "d3-shape";

/**
 * Where everything of a reports column chart goes (issue 38, §1.9), computed
 * apart from the SVG so tests can hold it: d3-scale's band and linear scales
 * (nice ticks), d3-shape's line for the utilisation. The margins are measured
 * from the labels themselves, so no label leaves the viewBox.
 */

export type ChartBar = {
  /** Unique among the chart's bars. */
  key: string;
  label: string;
  /** The bar's height in the left axis's unit. */
  value: number;
  /** A second, darker bar in front of the first (e.g. the completed part). */
  inner?: number;
  /** The line's point in the right axis's unit (null: no point, a gap). */
  line?: number | null;
};

export type ChartInput = {
  bars: readonly ChartBar[];
  /** The viewBox's width (the SVG scales to its box). */
  width: number;
  /** The plot's height, without the margins. */
  plotHeight: number;
  fontSize: number;
  /** How many left ticks to ask d3 for (it picks round values near it). */
  tickCount: number;
  formatLeft: (value: number) => string;
  /** With the line: the right axis's labels; its domain starts at 0 and reaches at least `rightMin`. */
  formatRight?: (value: number) => string;
  rightMin?: number;
  /** The axes' unit titles above the plot, left and right. */
  leftTitle: string;
  rightTitle?: string;
};

export type Tick = { value: number; y: number; label: string };

export type ChartGeometry = {
  width: number;
  height: number;
  fontSize: number;
  plot: { left: number; right: number; top: number; bottom: number };
  leftTicks: Tick[];
  rightTicks: Tick[];
  bars: {
    key: string;
    x: number;
    width: number;
    y: number;
    height: number;
    innerY: number;
    innerHeight: number;
  }[];
  /** The x labels shown (every nth when the bars are narrow), clamped inside the viewBox. */
  labels: { key: string; x: number; label: string }[];
  /** The utilisation line's path (d), or null without a line. */
  linePath: string | null;
  points: { key: string; x: number; y: number }[];
  titles: {
    left: { x: number; y: number; text: string };
    right: { x: number; y: number; text: string } | null;
  };
};

/**
 * A label's width in the chart's font: the digits and Latin letters of our
 * labels are about 0.6 em, Japanese characters a full em. An estimate on the
 * wide side, as the server cannot measure text.
 */
export function textWidth(text: string, fontSize: number): number {
  let ems = 0;
  for (const char of text) ems += char.charCodeAt(0) < 0x2e80 ? 0.62 : 1;
  return ems * fontSize;
}

const GAP = 6;

export function columnChartGeometry(input: ChartInput): ChartGeometry {
  const { bars, width, plotHeight, fontSize } = input;
  const withLine = input.formatRight !== undefined && bars.some((bar) => bar.line != null);
  const top = fontSize * 2 + GAP;
  const bottom = top + plotHeight;
  const height = bottom + fontSize + GAP * 2;

  const maxValue = Math.max(0, ...bars.map((bar) => Math.max(bar.value, bar.inner ?? 0)));
  const left = scaleLinear()
    .domain([0, maxValue > 0 ? maxValue : 1])
    .range([bottom, top])
    .nice(input.tickCount);
  const leftValues = left.ticks(input.tickCount);
  const leftLabels = leftValues.map(input.formatLeft);

  const maxLine = Math.max(
    input.rightMin ?? 0,
    ...bars.map((bar) => bar.line ?? 0),
    Number.EPSILON,
  );
  const right = scaleLinear().domain([0, maxLine]).range([bottom, top]).nice(input.tickCount);
  const rightValues = withLine ? right.ticks(input.tickCount) : [];
  const format = input.formatRight ?? String;
  const rightLabels = rightValues.map(format);

  const widest = (labels: string[]) => Math.max(0, ...labels.map((l) => textWidth(l, fontSize)));
  const xLabelWidth = widest(bars.map((bar) => bar.label));
  const plotLeft = Math.ceil(widest(leftLabels) + GAP * 2);
  const plotRight =
    width - Math.ceil(withLine ? widest(rightLabels) + GAP * 2 : Math.max(GAP, xLabelWidth / 2));

  const x = scaleBand<string>()
    .domain(bars.map((bar) => bar.key))
    .range([plotLeft, plotRight])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const band = x.bandwidth();
  const step = x.step();
  const every = Math.max(1, Math.ceil((xLabelWidth + GAP) / step));
  const center = (key: string) => (x(key) ?? plotLeft) + band / 2;

  const clampX = (at: number, label: string) => {
    const half = textWidth(label, fontSize) / 2;
    return Math.min(Math.max(at, half), width - half);
  };

  const points = withLine
    ? bars.flatMap((bar) =>
        bar.line == null ? [] : [{ key: bar.key, x: center(bar.key), y: right(bar.line) }],
      )
    : [];
  const path = line<ChartBar>()
    .defined((bar) => bar.line != null)
    .x((bar) => center(bar.key))
    .y((bar) => right(bar.line ?? 0));

  const rightTitle =
    withLine && input.rightTitle ? { x: width, y: fontSize, text: input.rightTitle } : null;
  return {
    width,
    height,
    fontSize,
    plot: { left: plotLeft, right: plotRight, top, bottom },
    leftTicks: leftValues.map((value, i) => ({
      value,
      y: left(value),
      label: leftLabels[i] ?? "",
    })),
    rightTicks: rightValues.map((value, i) => ({
      value,
      y: right(value),
      label: rightLabels[i] ?? "",
    })),
    bars: bars.map((bar) => {
      const y = left(bar.value);
      const innerY = left(Math.min(bar.inner ?? 0, bar.value));
      return {
        key: bar.key,
        x: x(bar.key) ?? plotLeft,
        width: band,
        y,
        height: bottom - y,
        innerY,
        innerHeight: bar.inner === undefined ? 0 : bottom - innerY,
      };
    }),
    labels: labelIndices(bars.length, every).map((index) => {
      const bar = bars[index] as ChartBar;
      return { key: bar.key, x: clampX(center(bar.key), bar.label), label: bar.label };
    }),
    linePath: withLine ? (path(bars) ?? null) : null,
    points,
    titles: { left: { x: 0, y: fontSize, text: input.leftTitle }, right: rightTitle },
  };
}

/**
 * Every nth label from the first, and always the last (the period's end):
 * the one before it gives way when they would touch.
 */
export function labelIndices(count: number, every: number): number[] {
  const shown: number[] = [];
  for (let index = 0; index < count; index += every) shown.push(index);
  const last = count - 1;
  if (count > 0 && shown.at(-1) !== last) {
    if (shown.length > 1 && last - (shown.at(-1) ?? 0) < every) shown.pop();
    shown.push(last);
  }
  return shown;
}
