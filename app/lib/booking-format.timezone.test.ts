import { describe, expect, it } from "vitest";
import {
  cancellationPolicy,
  formatBookingRange,
  formatDuration,
  formatLocalDate,
  formatRemaining,
} from "./booking-format";

describe("booking wording", () => {
  it("writes a booking's time in the salon's zone with the weekday", () => {
    const start = new Date("2026-11-23T01:00:00Z");
    const end = new Date("2026-11-23T02:30:00Z");
    expect(formatBookingRange(start, end, "Asia/Tokyo")).toBe("2026年11月23日(月) 10:00〜11:30");
  });

  it("names the end's date when the booking runs past midnight", () => {
    const start = new Date("2026-11-23T14:30:00Z");
    const end = new Date("2026-11-23T15:30:00Z");
    expect(formatBookingRange(start, end, "Asia/Tokyo")).toBe(
      "2026年11月23日(月) 23:30〜2026年11月24日(火) 00:30",
    );
  });

  it("writes local dates with and without the year", () => {
    expect(formatLocalDate("2026-11-29")).toBe("2026年11月29日(日)");
    expect(formatLocalDate("2026-11-28", false)).toBe("11月28日(土)");
  });

  it("rounds the hold's time left up and says nothing once it is over", () => {
    const now = new Date("2026-11-23T01:00:00Z");
    expect(formatRemaining(new Date("2026-11-23T01:10:00Z"), now)).toBe("残り約10分");
    expect(formatRemaining(new Date("2026-11-23T01:04:01Z"), now)).toBe("残り約5分");
    expect(formatRemaining(new Date("2026-11-23T01:00:30Z"), now)).toBe("残り1分未満");
    expect(formatRemaining(now, now)).toBe("");
  });

  it("writes durations and the cancellation rule", () => {
    expect(formatDuration(90)).toBe("1時間30分");
    expect(formatDuration(45)).toBe("45分");
    expect(formatDuration(120)).toBe("2時間");
    expect(cancellationPolicy(24)).toContain("1日前（24時間前）");
    expect(cancellationPolicy(3)).toContain("3時間前");
  });
});
