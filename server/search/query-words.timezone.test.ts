import { describe, expect, it } from "vitest";
import { readQueryWords } from "./query-words";

// Run in UTC and in Asia/Tokyo (vitest.config.ts): the words are read on the
// visitor's calendar in Japan whatever the server's zone.
describe("readQueryWords in any process time zone", () => {
  it("at 23:59 in Tokyo, 今日 is still that day and 明日 the next", () => {
    const now = new Date("2026-11-26T14:59:00Z"); // Thursday 23:59 JST
    expect(readQueryWords("今日", now).filters).toEqual({ date: "2026-11-26" });
    expect(readQueryWords("明日", now).filters).toEqual({ date: "2026-11-27" });
    expect(readQueryWords("今週末", now).filters).toEqual({
      date: "2026-11-28",
      dateTo: "2026-11-29",
    });
  });

  it("when UTC is still on the day before, Japan's day is read", () => {
    const now = new Date("2026-11-27T15:30:00Z"); // Friday in UTC, Saturday 00:30 JST
    expect(readQueryWords("今日", now).filters).toEqual({ date: "2026-11-28" });
    expect(readQueryWords("明日", now).filters).toEqual({ date: "2026-11-29" });
    // On a Saturday the weekend is today and tomorrow.
    expect(readQueryWords("土日", now).filters).toEqual({
      date: "2026-11-28",
      dateTo: "2026-11-29",
    });
    expect(readQueryWords("金曜", now).filters).toEqual({ date: "2026-12-04" });
  });

  it("a month and day already past in Japan's year is next year's", () => {
    const now = new Date("2026-12-31T15:00:00Z"); // 1 January 2027, 00:00 JST
    expect(readQueryWords("12/31", now).filters).toEqual({ date: "2027-12-31" });
    expect(readQueryWords("1/1", now).filters).toEqual({ date: "2027-01-01" });
  });

  it("reads times as typed, not shifted by the zone", () => {
    const now = new Date("2026-11-26T14:59:00Z");
    expect(readQueryWords("明日 19時以降", now).filters).toEqual({
      date: "2026-11-27",
      from: "19:00",
    });
  });
});
