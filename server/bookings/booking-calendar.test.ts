import type ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { firstEvent, readCalendar } from "../../tests/support/icalendar";
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

/** The file as ical.js reads it (readCalendar also holds RFC 5545's DTSTAMP in UTC). */
function parsed(text: string) {
  const calendar = readCalendar(text);
  const event = firstEvent(calendar);
  const time = (name: string) => {
    const property = event.getFirstProperty(name);
    return { tzid: property?.getParameter("tzid"), local: String(property?.getFirstValue()) };
  };
  const attendee = event.getFirstProperty("attendee");
  const organizer = event.getFirstProperty("organizer");
  return {
    method: calendar.getFirstPropertyValue("method"),
    timeZones: calendar
      .getAllSubcomponents("vtimezone")
      .map((zone) => zone.getFirstPropertyValue("tzid")),
    uid: event.getFirstPropertyValue("uid"),
    sequence: event.getFirstPropertyValue("sequence"),
    status: event.getFirstPropertyValue("status"),
    stamp: (event.getFirstPropertyValue("dtstamp") as ICAL.Time).toJSDate(),
    start: time("dtstart"),
    end: time("dtend"),
    description: String(event.getFirstPropertyValue("description")),
    organizer: organizer
      ? { cn: organizer.getParameter("cn"), value: String(organizer.getFirstValue()) }
      : null,
    attendee: attendee
      ? {
          value: String(attendee.getFirstValue()).toLowerCase(),
          rsvp: attendee.getParameter("rsvp"),
        }
      : null,
  };
}

describe("bookingCalendar", () => {
  it("writes the start in the salon's zone, with its VTIMEZONE, whatever the server's zone, and DTSTAMP in UTC", () => {
    const file = parsed(bookingCalendar(booking, { host: "salon.example.jp", now }));
    expect(file).toMatchObject({
      method: "PUBLISH",
      timeZones: ["Asia/Tokyo"],
      uid: `${booking.id}@salon.example.jp`,
      start: { tzid: "Asia/Tokyo", local: "2026-11-23T10:00:00" },
      end: { tzid: "Asia/Tokyo", local: "2026-11-23T11:30:00" },
    });
    expect(file.stamp.toISOString()).toBe(now.toISOString());
    expect(file.description).toContain("予約番号：7K3M-Q9XP");
    expect(file.description).toContain("スタッフ：指名なし");
  });

  it("keeps the UID and raises SEQUENCE for a cancellation", () => {
    const file = parsed(
      bookingCalendar(booking, { host: "salon.example.jp", now, method: "CANCEL", sequence: 1 }),
    );
    expect(file).toMatchObject({
      method: "CANCEL",
      sequence: 1,
      status: "CANCELLED",
      uid: `${booking.id}@salon.example.jp`,
    });
  });

  it("names the salon as organizer and the visitor as an attendee who need not reply", () => {
    const file = parsed(
      bookingCalendar(booking, {
        host: "salon.example.jp",
        now,
        method: "REQUEST",
        organizer: { name: "Hair Salon TEST", email: "no-reply@salon.example.jp" },
        attendee: { name: "予約 花子", email: "hanako@example.jp" },
      }),
    );
    expect(file).toMatchObject({
      method: "REQUEST",
      sequence: 0,
      organizer: { cn: "Hair Salon TEST", value: "mailto:no-reply@salon.example.jp" },
      attendee: { value: "mailto:hanako@example.jp", rsvp: "FALSE" },
    });
  });
});
