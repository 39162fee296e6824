import { describe, expect, it } from "vitest";
import { columnChartGeometry, labelIndices, textWidth } from "./chart-geometry";

const days = (count: number) =>
  Array.from({ length: count }, (_, index) => {
    const day = new Date(Date.UTC(2026, 9, 4 + index));
    return {
      key: day.toISOString().slice(0, 10),
      label: `${day.getUTCMonth() + 1}/${day.getUTCDate()}`,
      value: (index % 7) * 21_000,
      inner: (index % 7) * 10_000,
      line: index % 5 === 0 ? null : (index % 4) * 0.3,
    };
  });

const input = (count: number, width: number) => ({
  bars: days(count),
  width,
  plotHeight: 160,
  fontSize: 12,
  tickCount: 5,
  formatLeft: (value: number) => `${value / 10_000}万`,
  formatRight: (value: number) => `${Math.round(value * 100)}%`,
  rightMin: 1,
  leftTitle: "予約金額（円）",
  rightTitle: "稼働率（%）",
});

describe("the reports' column chart geometry (issue 38, §1.9)", () => {
  it("puts round ticks from 0 past the largest bar on the left axis, from 0 to 100 % on the right", () => {
    const chart = columnChartGeometry(input(30, 720));
    expect(chart.leftTicks.map((tick) => tick.value)).toEqual([
      0, 20_000, 40_000, 60_000, 80_000, 100_000, 120_000, 140_000,
    ]);
    expect(chart.leftTicks[0]?.y).toBe(chart.plot.bottom);
    expect(chart.leftTicks.at(-1)?.y).toBe(chart.plot.top);
    expect(chart.leftTicks.map((tick) => tick.label).at(-1)).toBe("14万");
    expect(chart.rightTicks.map((tick) => tick.label)).toEqual([
      "0%",
      "20%",
      "40%",
      "60%",
      "80%",
      "100%",
    ]);
    // The tallest bar reaches its value on the scale, not the top of the plot.
    const tallest = chart.bars[6];
    expect(tallest?.y).toBeCloseTo(chart.plot.bottom - (126_000 / 140_000) * 160);
  });

  it("keeps every label, the last day's too, inside the viewBox at a phone's and a desktop's width", () => {
    for (const [count, width] of [
      [31, 320],
      [30, 720],
      [7, 320],
      [1, 320],
      [92, 720],
    ] as const) {
      const chart = columnChartGeometry(input(count, width));
      const last = chart.labels.at(-1);
      expect(last?.key).toBe(days(count).at(-1)?.key);
      for (const label of chart.labels) {
        const half = textWidth(label.label, chart.fontSize) / 2;
        expect(label.x - half).toBeGreaterThanOrEqual(0);
        expect(label.x + half).toBeLessThanOrEqual(chart.width);
      }
      // Labels never touch each other.
      for (let i = 1; i < chart.labels.length; i++) {
        const [a, b] = [chart.labels[i - 1], chart.labels[i]];
        if (!a || !b) continue;
        expect(b.x - a.x).toBeGreaterThanOrEqual(
          (textWidth(a.label, 12) + textWidth(b.label, 12)) / 2,
        );
      }
      for (const tick of [...chart.leftTicks, ...chart.rightTicks]) {
        expect(tick.y).toBeGreaterThanOrEqual(chart.fontSize / 2);
        expect(tick.y).toBeLessThanOrEqual(chart.height);
      }
      // The axes' labels sit in the margins, written end to the plot.
      for (const tick of chart.leftTicks) {
        expect(chart.plot.left).toBeGreaterThan(textWidth(tick.label, 12));
      }
      for (const tick of chart.rightTicks) {
        expect(chart.width - chart.plot.right).toBeGreaterThan(textWidth(tick.label, 12));
      }
      expect(textWidth(chart.titles.left.text, 12)).toBeLessThanOrEqual(chart.width / 2);
    }
  });

  it("draws the utilisation as a line with gaps where a day has none", () => {
    const chart = columnChartGeometry(input(10, 720));
    expect(chart.linePath).toMatch(/^M/);
    // Days 0 and 5 have no utilisation: two runs, so the path moves twice.
    expect(chart.linePath?.match(/M/g)).toHaveLength(2);
    expect(chart.points).toHaveLength(8);
    for (const point of chart.points) {
      expect(point.y).toBeGreaterThanOrEqual(chart.plot.top);
      expect(point.y).toBeLessThanOrEqual(chart.plot.bottom);
    }
  });

  it("has no right axis without a line", () => {
    const chart = columnChartGeometry({ ...input(5, 320), formatRight: undefined });
    expect(chart.rightTicks).toEqual([]);
    expect(chart.linePath).toBeNull();
    expect(chart.titles.right).toBeNull();
  });

  it("shows every nth label and always the last, giving way before it", () => {
    expect(labelIndices(10, 3)).toEqual([0, 3, 6, 9]);
    expect(labelIndices(11, 3)).toEqual([0, 3, 6, 10]);
    expect(labelIndices(1, 3)).toEqual([0]);
    expect(labelIndices(0, 3)).toEqual([]);
  });
});
