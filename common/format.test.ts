import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatMonthDayWeekday } from "./format";

describe("formatDate", () => {
  it("writes a calendar day in Japanese form with the weekday", () => {
    expect(formatDate("2026-11-23")).toBe("2026年11月23日(月)");
  });

  it("shows a moment on its day in Tokyo, not in the machine's time zone", () => {
    // 15:30 UTC on the 22nd is 00:30 on the 23rd in Tokyo.
    expect(formatDate(new Date("2026-11-22T15:30:00Z"))).toBe("2026年11月23日(月)");
    expect(formatDate("2026-11-22T15:30:00Z")).toBe("2026年11月23日(月)");
  });
});

describe("formatDateTime", () => {
  it("writes a moment's day and time in Tokyo", () => {
    expect(formatDateTime(new Date("2026-11-23T01:05:00Z"))).toBe("2026年11月23日(月) 10:05");
    expect(formatDateTime("2026-11-22T15:00:00Z")).toBe("2026年11月23日(月) 00:00");
  });
});

describe("formatMonthDayWeekday", () => {
  it("writes every day of two years as Intl's ja-JP does", () => {
    const intl = new Intl.DateTimeFormat("ja-JP", {
      month: "numeric",
      day: "numeric",
      weekday: "short",
      timeZone: "UTC",
    });
    for (let day = 0; day < 731; day++) {
      const date = new Date(Date.UTC(2027, 11, 31) - day * 86_400_000);
      const parts = intl.formatToParts(date);
      const part = (type: string) => parts.find((p) => p.type === type)?.value;
      const iso = date.toISOString().slice(0, 10);
      expect([iso, formatMonthDayWeekday(iso)]).toEqual([
        iso,
        `${part("month")}月${part("day")}日(${part("weekday")})`,
      ]);
    }
    expect(formatMonthDayWeekday("2026-12-03")).toBe("12月3日(木)");
  });
});
