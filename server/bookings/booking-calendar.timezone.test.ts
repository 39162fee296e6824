import { describe, expect, it } from "vitest";
import { bookingCalendar } from "./booking-calendar.server";

const booking = {
  id: "0b7e4a52-7f0e-4a8e-9d0e-2c1f5a6b7c8d",
  bookingNumber: "7K3M-Q9XP",
  salonName: "Hair Salon TEST",
  salonAddress: "東京都渋谷区神宮前1-1-1",
  salonUrl: "https://salon.example.jp/salons/test",
  start: new Date("2026-11-23T01:00:00Z"),
  end: new Date("2026-11-23T02:30:00Z"),
  timeZone: "Asia/Tokyo",
  menuNames: ["カット", "カラー"],
  staffName: null,
};
const now = new Date("2026-11-22T00:00:00Z");
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, "");

describe("bookingCalendar", () => {
  it("writes the start in the salon's zone, with its VTIMEZONE, whatever the server's zone", () => {
    const text = unfold(bookingCalendar(booking, { host: "salon.example.jp", now }));
    expect(text).toContain("METHOD:PUBLISH");
    expect(text).toContain("BEGIN:VTIMEZONE");
    expect(text).toContain("TZID:Asia/Tokyo");
    expect(text).toContain("DTSTART;TZID=Asia/Tokyo:20261123T100000");
    expect(text).toContain("DTEND;TZID=Asia/Tokyo:20261123T113000");
    expect(text).toContain(`UID:${booking.id}@salon.example.jp`);
    expect(text).toContain("予約番号：7K3M-Q9XP");
    expect(text).toContain("スタッフ：指名なし");
  });

  it("keeps the UID and raises SEQUENCE for a cancellation", () => {
    const text = unfold(
      bookingCalendar(booking, { host: "salon.example.jp", now, method: "CANCEL", sequence: 1 }),
    );
    expect(text).toContain("METHOD:CANCEL");
    expect(text).toContain("SEQUENCE:1");
    expect(text).toContain("STATUS:CANCELLED");
    expect(text).toContain(`UID:${booking.id}@salon.example.jp`);
  });
});
