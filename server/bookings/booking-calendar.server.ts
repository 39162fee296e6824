import { TZDate } from "@date-fns/tz";
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";

export type CalendarBooking = {
  id: string;
  bookingNumber: string;
  salonName: string;
  salonAddress: string;
  /** The salon page, for the event's URL. */
  salonUrl: string;
  start: Date;
  end: Date;
  timeZone: string;
  menuNames: string[];
  /** null: 指名なし. */
  staffName: string | null;
  /** What was paid, refunded and kept (server/payments/payment-lines.ts); absent or empty: none. */
  paymentLines?: string[];
  /** The payment and cancellation policy agreed to (decision 0075); absent or empty: none. */
  policyLines?: string[];
};

/**
 * A booking as an iCalendar file (RFC 5545) that calendar programs accept:
 * times in the salon's zone with its VTIMEZONE block, and a UID fixed per
 * booking (`<booking id>@<site host>`) so a later cancellation (METHOD
 * CANCEL, higher SEQUENCE) replaces the same event. The download on the
 * thanks page is PUBLISH; mails send REQUEST and CANCEL.
 */
export function bookingCalendar(
  booking: CalendarBooking,
  options: {
    host: string;
    method?: "PUBLISH" | "REQUEST" | "CANCEL";
    sequence?: number;
    now: Date;
    /**
     * A booking waiting for the salon's approval (decision 0051): the event
     * is STATUS:TENTATIVE until the approval's REQUEST (same UID, a higher
     * SEQUENCE) makes it CONFIRMED.
     */
    tentative?: boolean;
    /**
     * REQUEST and CANCEL (RFC 5546) name an organizer and an attendee:
     * the salon, under the site's sending address (salons have none of
     * their own), and the visitor, already accepted and asked for no reply.
     */
    organizer?: { name: string; email: string };
    attendee?: { name: string; email: string };
  },
): string {
  const method = options.method ?? "PUBLISH";
  const calendar = ical({
    prodId: { company: options.host, product: "salon-booking", language: "JA" },
    method: ICalCalendarMethod[method],
  });
  // The calendar itself has no zone: ical-generator writes DTSTAMP in the calendar's zone
  // without a TZID (a floating time; RFC 5545 wants UTC), so only the event names the
  // salon's zone, and the generator still adds its VTIMEZONE block.
  calendar.timezone({
    name: null,
    generator: (zone) => {
      const block = tzlib_get_ical_block(zone);
      return Array.isArray(block) ? (block[0] ?? null) : null;
    },
  });
  const menus = booking.menuNames.join("、");
  calendar.createEvent({
    id: `${booking.id}@${options.host}`,
    sequence: options.sequence ?? 0,
    stamp: options.now,
    // TZDate carries the zone, so the file says 10:00 Tokyo time whatever zone the server runs in.
    start: new TZDate(booking.start.getTime(), booking.timeZone),
    end: new TZDate(booking.end.getTime(), booking.timeZone),
    timezone: booking.timeZone,
    summary: `${booking.salonName} ご予約（${menus}）`,
    description: [
      `予約番号：${booking.bookingNumber}`,
      `メニュー：${menus}`,
      `スタッフ：${booking.staffName ?? "指名なし"}`,
      `サロン：${booking.salonUrl}`,
      ...(booking.paymentLines?.length ? ["", "■ お支払い", ...booking.paymentLines] : []),
      ...(booking.policyLines?.length
        ? ["", "■ お支払いとキャンセル料（ご予約時に同意いただいた内容）", ...booking.policyLines]
        : []),
    ].join("\n"),
    location: `${booking.salonName} ${booking.salonAddress}`,
    url: booking.salonUrl,
    status:
      method === "CANCEL"
        ? ICalEventStatus.CANCELLED
        : options.tentative
          ? ICalEventStatus.TENTATIVE
          : ICalEventStatus.CONFIRMED,
    organizer: options.organizer ?? null,
    attendees: options.attendee
      ? [
          {
            name: options.attendee.name,
            email: options.attendee.email,
            role: ICalAttendeeRole.REQ,
            status: method === "CANCEL" ? null : ICalAttendeeStatus.ACCEPTED,
            rsvp: false,
          },
        ]
      : [],
  });
  return calendar.toString();
}
