import { describe, expect, it } from "vitest";
import { formatBookingTime } from "../mail/booking-templates";
import { reminderTime } from "./booking-jobs.server";

// Run under TZ=UTC and TZ=Asia/Tokyo (vitest.config.ts): the answers must not change.
describe("booking mail times in the salon's zone", () => {
  it("writes the date with the weekday and the start and end times", () => {
    expect(
      formatBookingTime(
        new Date("2026-11-23T01:00:00Z"),
        new Date("2026-11-23T02:30:00Z"),
        "Asia/Tokyo",
      ),
    ).toBe("2026年11月23日(月) 10:00〜11:30");
    // 23:30 UTC on the 22nd is already Monday morning in Tokyo.
    expect(
      formatBookingTime(
        new Date("2026-11-22T23:30:00Z"),
        new Date("2026-11-23T00:30:00Z"),
        "Asia/Tokyo",
      ),
    ).toBe("2026年11月23日(月) 08:30〜09:30");
  });

  it("sends the reminder at the same local time the day before", () => {
    const now = new Date("2026-11-01T00:00:00Z");
    expect(reminderTime(new Date("2026-11-23T01:00:00Z"), "Asia/Tokyo", now)).toEqual(
      new Date("2026-11-22T01:00:00Z"),
    );
    // New York leaves summer time at 02:00 on 1 November 2026: the day before 10:00 EST is 10:00 EDT, 25 h earlier.
    expect(
      reminderTime(
        new Date("2026-11-01T15:00:00Z"),
        "America/New_York",
        new Date("2026-10-01T00:00:00Z"),
      ),
    ).toEqual(new Date("2026-10-31T14:00:00Z"));
  });

  it("sends it at once when the day before has already passed", () => {
    const now = new Date("2026-11-22T20:00:00Z");
    expect(reminderTime(new Date("2026-11-23T01:00:00Z"), "Asia/Tokyo", now)).toEqual(now);
  });
});
