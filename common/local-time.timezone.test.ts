import { describe, expect, it } from "vitest";
import {
  addDays,
  calendarDay,
  formatMinutes,
  isLocalDate,
  LocalDay,
  localToInstant,
  minutesOf,
  toLocal,
  weekdayOf,
} from "./local-time";

// Run under TZ=UTC and TZ=Asia/Tokyo (vitest.config.ts): none of these may depend on it.

describe("local dates", () => {
  it("adds days across months, years and leap days", () => {
    expect(addDays("2026-11-30", 1)).toBe("2026-12-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-11-23", 60)).toBe("2027-01-22");
  });

  it("knows the weekday of a date", () => {
    expect(weekdayOf("2026-11-23")).toBe(1); // Monday, 勤労感謝の日
    expect(weekdayOf("2026-11-22")).toBe(0);
    expect(weekdayOf("2027-01-01")).toBe(5);
  });

  it("rejects dates that do not exist", () => {
    expect(isLocalDate("2026-02-29")).toBe(false);
    expect(isLocalDate("2026-13-01")).toBe(false);
    expect(isLocalDate("2026-1-1")).toBe(false);
    expect(isLocalDate("2028-02-29")).toBe(true);
  });
});

describe("local times", () => {
  it("reads HH:MM as minutes and allows 24:00 as an end", () => {
    expect(minutesOf("00:00")).toBe(0);
    expect(minutesOf("10:30")).toBe(630);
    expect(minutesOf("24:00")).toBe(1440);
    expect(() => minutesOf("24:30")).toThrow(RangeError);
    expect(() => minutesOf("9:00")).toThrow(RangeError);
    expect(() => minutesOf("10:60")).toThrow(RangeError);
    expect(formatMinutes(630)).toBe("10:30");
  });
});

describe("zones", () => {
  it("turns a Tokyo wall-clock time into the instant 9 hours earlier in UTC", () => {
    expect(localToInstant("2026-11-23", "10:00", "Asia/Tokyo").toISOString()).toBe(
      "2026-11-23T01:00:00.000Z",
    );
    expect(localToInstant("2026-11-23", "24:00", "Asia/Tokyo").toISOString()).toBe(
      "2026-11-23T15:00:00.000Z",
    );
    expect(localToInstant("2026-11-23", "08:00", "Asia/Tokyo").toISOString()).toBe(
      "2026-11-22T23:00:00.000Z",
    );
  });

  it("reads an instant as a local date, time and weekday", () => {
    expect(toLocal(new Date("2026-11-22T23:30:00Z"), "Asia/Tokyo")).toEqual({
      date: "2026-11-23",
      time: "08:30",
      minutes: 510,
      weekday: 1,
    });
    expect(toLocal(new Date("2026-11-22T23:30:00Z"), "UTC").date).toBe("2026-11-22");
  });

  it("follows summer time: New York is 4 hours behind UTC in July, 5 in January", () => {
    expect(localToInstant("2026-07-01", "10:00", "America/New_York").toISOString()).toBe(
      "2026-07-01T14:00:00.000Z",
    );
    expect(localToInstant("2026-01-05", "10:00", "America/New_York").toISOString()).toBe(
      "2026-01-05T15:00:00.000Z",
    );
  });

  it("moves a time in the spring-forward gap forward by the gap (02:30 → 03:30)", () => {
    // 2026-03-08: New York clocks go from 02:00 EST to 03:00 EDT.
    expect(localToInstant("2026-03-08", "01:30", "America/New_York").toISOString()).toBe(
      "2026-03-08T06:30:00.000Z",
    );
    expect(localToInstant("2026-03-08", "02:30", "America/New_York").toISOString()).toBe(
      "2026-03-08T07:30:00.000Z",
    );
    expect(localToInstant("2026-03-08", "03:00", "America/New_York").toISOString()).toBe(
      "2026-03-08T07:00:00.000Z",
    );
    expect(localToInstant("2026-03-08", "10:00", "America/New_York").toISOString()).toBe(
      "2026-03-08T14:00:00.000Z",
    );
  });

  it("takes the earlier of the two readings when clocks go back", () => {
    // 2026-11-01: New York clocks go from 02:00 EDT back to 01:00 EST.
    expect(localToInstant("2026-11-01", "01:30", "America/New_York").toISOString()).toBe(
      "2026-11-01T05:30:00.000Z",
    );
    expect(localToInstant("2026-11-01", "03:00", "America/New_York").toISOString()).toBe(
      "2026-11-01T08:00:00.000Z",
    );
    // The day has 25 hours.
    const day = new LocalDay("2026-11-01", "America/New_York");
    expect(day.instantMs(1440) - day.instantMs(0)).toBe(25 * 3_600_000);
    expect(day.minutesAt(Date.parse("2026-11-01T08:00:00Z"))).toBe(180);
  });

  it("handles zones east of UTC with summer time (Sydney, clocks forward on 2026-10-04)", () => {
    expect(localToInstant("2026-10-04", "10:00", "Australia/Sydney").toISOString()).toBe(
      "2026-10-03T23:00:00.000Z",
    );
    expect(localToInstant("2026-10-03", "10:00", "Australia/Sydney").toISOString()).toBe(
      "2026-10-03T00:00:00.000Z",
    );
  });
});

describe("calendarDay", () => {
  it("is the day in the given time zone", () => {
    const now = new Date("2026-11-22T15:30:00Z");
    expect(calendarDay(now, "Asia/Tokyo")).toBe("2026-11-23");
    expect(calendarDay(now, "UTC")).toBe("2026-11-22");
  });
});
