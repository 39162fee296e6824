import { describe, expect, it } from "vitest";
import type { DayOption } from "./day-picker";
import {
  liveAvailabilityUrl,
  liveRangeOf,
  withLiveDays,
  withLiveTimes,
} from "./use-live-availability";

const day = (date: string, available = true): DayOption => ({
  date,
  holiday: false,
  holidayName: null,
  available,
});
const range = (from: string, count: number) =>
  Array.from({ length: count }, (_, index) => {
    const d = new Date(`${from}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + index);
    return day(d.toISOString().slice(0, 10));
  });

describe("live availability helpers", () => {
  it("streams the chosen day's month from today on, at most 31 days, within the window", () => {
    const days = range("2026-11-23", 62);
    expect(liveRangeOf(days, null)).toEqual({ from: "2026-11-23", to: "2026-12-23" });
    expect(liveRangeOf(days, "2026-12-10")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(liveRangeOf(days, "2027-01-20")).toEqual({ from: "2027-01-01", to: "2027-01-23" });
    expect(liveRangeOf([], null)).toBeNull();
  });

  it("asks the stream for the page's salon, menus and stylist", () => {
    const url = liveAvailabilityUrl({
      salon: "hair-a",
      menuIds: ["m1", "m2"],
      staff: "aoi",
      from: "2026-11-23",
      to: "2026-12-23",
    });
    expect(url).toBe(
      "/api/salons/hair-a/availability/stream?from=2026-11-23&to=2026-12-23&menus=m1%2Cm2&staff=aoi",
    );
  });

  it("takes days and times from the live data where it covers them, else the loader's", () => {
    const days = [day("2026-11-23"), day("2026-11-24"), day("2026-11-25", false)];
    const live = new Map([
      ["2026-11-23", { date: "2026-11-23", slots: [] }],
      [
        "2026-11-25",
        { date: "2026-11-25", slots: [{ time: "10:30", start: "2026-11-25T01:30:00.000Z" }] },
      ],
    ]);
    expect(withLiveDays(days, live).map((d) => d.available)).toEqual([false, true, true]);
    expect(withLiveDays(days, null)).toBe(days);
    const loaderTimes = [{ time: "10:00", start: "2026-11-24T01:00:00.000Z" }];
    expect(withLiveTimes("2026-11-24", loaderTimes, live)).toBe(loaderTimes);
    expect(withLiveTimes("2026-11-25", loaderTimes, live)).toEqual([
      { time: "10:30", start: "2026-11-25T01:30:00.000Z" },
    ]);
  });
});
