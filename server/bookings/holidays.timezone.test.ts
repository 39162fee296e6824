import { describe, expect, it } from "vitest";
import { japaneseHolidaysBetween } from "./holidays";

// Run under TZ=UTC and TZ=Asia/Tokyo: the same dates either way.

describe("japaneseHolidaysBetween", () => {
  it("finds 勤労感謝の日 and 元日 and nothing else in between", () => {
    expect([...japaneseHolidaysBetween("2026-11-20", "2027-01-01")]).toEqual([
      ["2026-11-23", "勤労感謝の日"],
      ["2027-01-01", "元日"],
    ]);
  });

  it("includes both ends of the range", () => {
    expect([...japaneseHolidaysBetween("2026-11-23", "2026-11-23").keys()]).toEqual(["2026-11-23"]);
    expect(japaneseHolidaysBetween("2026-11-24", "2026-12-31").size).toBe(0);
  });

  it("includes substitute holidays (振替休日)", () => {
    // 2026-05-03 憲法記念日 falls on a Sunday; 05-06 is the substitute holiday.
    expect(japaneseHolidaysBetween("2026-05-06", "2026-05-06").get("2026-05-06")).toContain(
      "振替休日",
    );
  });
});
