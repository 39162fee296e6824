import type { Database } from "../../db/client";
import { type BookingSummary, getBookingForUser, listBookingsForUser } from "../booking.server";
import { bookingSettingsFor } from "../settings";

/** A booking as the history page shows it (plain data for the page). */
function historyItem(booking: BookingSummary, cancellable: boolean) {
  const params = new URLSearchParams(booking.menus.map((menu) => ["menu", menu.menuId]));
  if (booking.staffRequested) params.set("staff", booking.staff.slug);
  return {
    id: booking.id,
    bookingNumber: booking.bookingNumber,
    status: booking.status,
    startsAt: booking.startsAt.toISOString(),
    endsAt: booking.endsAt.toISOString(),
    totalPrice: booking.totalPrice,
    salon: {
      slug: booking.salon.slug,
      name: booking.salon.name,
      timeZone: booking.salon.timeZone,
    },
    staffName: booking.staff.name,
    staffRequested: booking.staffRequested,
    menus: booking.menus.map(({ name, price, durationMinutes }) => ({
      name,
      price,
      durationMinutes,
    })),
    notes: booking.notes,
    cancellable,
    rebookHref: `/salons/${booking.salon.slug}/confirm?${params}`,
  };
}

/** /account/history: upcoming and past bookings of the visitor. */
export async function historyList(db: Database, userId: string, now: Date) {
  const { upcoming, past } = await listBookingsForUser(db, { userId, now });
  return {
    upcoming: upcoming.map((booking) => historyItem(booking, false)),
    past: past.map((booking) => historyItem(booking, false)),
  };
}

/** One booking of the visitor, with whether the web may still cancel it and the rule in words. */
export async function historyDetail(db: Database, userId: string, bookingId: string, now: Date) {
  const booking = await getBookingForUser(db, { bookingId, userId });
  const { cancellationCutoffHours } = await bookingSettingsFor(db, booking.salon.id);
  const cancellable =
    booking.status === "confirmed" &&
    now.getTime() <= booking.startsAt.getTime() - cancellationCutoffHours * 3_600_000;
  return { booking: historyItem(booking, cancellable), cancellationCutoffHours };
}
