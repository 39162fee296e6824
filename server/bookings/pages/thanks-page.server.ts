import { eq } from "drizzle-orm";
import { isPendingApproval } from "../../../common/status-labels";
import { requireLogin } from "../../accounts/guards";
import type { AppContext } from "../../context";
import type { Database } from "../../db/client";
import { bookings, coupons, salons } from "../../db/schema";
import { DomainError } from "../../errors/domain-error";
import { messageRoute } from "../../line/message-channels.server";
import { paymentLine, paymentTextLines } from "../../payments/payment-lines";
import { notFound } from "../../routing/not-found";
import { formatApprovalDeadline } from "../approval-deadline";
import { type BookingSummary, getBookingForUser } from "../booking.server";
import { bookingCalendar } from "../booking-calendar.server";
import { BookingNotFoundError } from "../booking-errors";
import { bookingSettingsFor } from "../settings";

/**
 * The visitor's own confirmed booking at this salon, for the thanks page
 * and its calendar file. Anyone else's booking, a hold, or another salon's
 * booking is BookingNotFoundError (404).
 */
export async function ownBookingAt(
  db: Database,
  input: { salonSlug: string; bookingId: string; userId: string },
): Promise<BookingSummary> {
  const booking = await getBookingForUser(db, {
    bookingId: input.bookingId,
    userId: input.userId,
  });
  if (booking.salon.slug !== input.salonSlug || booking.status === "held") {
    throw new BookingNotFoundError();
  }
  return booking;
}

/**
 * The guard and lookup shared by the thanks page and its calendar file:
 * signed in, and `?booking=` is the visitor's own confirmed booking at this
 * salon; anything else is the plain 404, so a stranger learns nothing.
 */
export async function requireOwnBooking(
  request: Request,
  ctx: Pick<AppContext, "db" | "accounts">,
  salonSlug: string,
): Promise<BookingSummary> {
  const user = await requireLogin(request, ctx);
  const bookingId = new URL(request.url).searchParams.get("booking") ?? "";
  try {
    return await ownBookingAt(ctx.db, { salonSlug, bookingId, userId: user.id });
  } catch (error) {
    if (error instanceof DomainError) throw notFound(request);
    throw error;
  }
}

/** The thanks page: the booking as the summary component shows it. */
export async function thanksView(db: Database, booking: BookingSummary) {
  const rules = await bookingSettingsFor(db, booking.salon.id);
  const pending = isPendingApproval(booking);
  // The deadline the request lapses at, said again now that it is fixed (decision 0071);
  // the coupon by its title, and the 学割 statement the visitor made (decision 0087).
  const [extra] = await db
    .select({
      approvalExpiresAt: bookings.approvalExpiresAt,
      studentDeclared: bookings.studentDeclared,
      couponTitle: coupons.title,
      userId: bookings.userId,
    })
    .from(bookings)
    .leftJoin(coupons, eq(coupons.id, bookings.couponId))
    .where(eq(bookings.id, booking.id));
  const lapseAt = pending ? (extra?.approvalExpiresAt ?? null) : null;
  // Where the confirmation went: the visitor's channel for booking messages (decision 0090).
  const route = await messageRoute(db, extra?.userId ?? null, "booking");
  const subtotal = booking.menus.reduce((sum, menu) => sum + menu.price, 0);
  return {
    id: booking.id,
    number: booking.bookingNumber,
    email: booking.customer.email,
    /** The confirmation went by mail (to `email`), by LINE, or both. */
    sentBy: { mail: route.mail, line: route.lineUserId !== null },
    /** Approval mode (decision 0051): a 仮予約 the salon has yet to approve. */
    pending,
    /** When the 仮予約 lapses unanswered, as 2026年11月23日(月) 18:00; null when none is set. */
    approvalDeadlineLabel: lapseAt ? formatApprovalDeadline(lapseAt, booking.salon.timeZone) : null,
    /** A 学割 coupon: the student card is shown at the visit, as the mails say. */
    studentDeclared: extra?.studentDeclared ?? false,
    statusLabel: booking.statusLabel,
    /** The policy agreed to, as stored on the booking (decision 0075). */
    paymentPolicy: booking.paymentPolicy,
    /** What was paid online, from the provider's answers (decision 0078). */
    payments: booking.payments.map(paymentLine),
    summary: {
      salonName: booking.salon.name,
      menus: booking.menus.map(({ name, price, durationMinutes }) => ({
        name,
        price,
        durationMinutes,
      })),
      stylistName: booking.staffRequested ? booking.staff.name : null,
      start: booking.startsAt.toISOString(),
      end: booking.endsAt.toISOString(),
      timeZone: booking.salon.timeZone,
      subtotal,
      nominationFee: booking.nominationFee,
      coupon:
        booking.totalPrice < subtotal + booking.nominationFee
          ? {
              title: extra?.couponTitle ?? "クーポン割引",
              discount: subtotal + booking.nominationFee - booking.totalPrice,
            }
          : null,
      total: booking.totalPrice,
      cancelCutoffHours: rules.cancellationCutoffHours,
    },
  };
}

/**
 * The booking's .ics file (PUBLISH: an event to add, not an invitation);
 * TENTATIVE while the salon has not approved it (decision 0051), then the
 * approval mail's REQUEST with the same UID confirms it.
 */
export async function bookingIcs(
  db: Database,
  booking: BookingSummary,
  origin: string,
  now: Date,
): Promise<string> {
  const [salon] = await db
    .select({ address: salons.address, postalCode: salons.postalCode })
    .from(salons)
    .where(eq(salons.id, booking.salon.id));
  return bookingCalendar(
    {
      id: booking.id,
      bookingNumber: booking.bookingNumber,
      salonName: booking.salon.name,
      salonAddress: salon ? `〒${salon.postalCode} ${salon.address}` : "",
      salonUrl: new URL(`/salons/${booking.salon.slug}`, origin).toString(),
      start: booking.startsAt,
      end: booking.endsAt,
      timeZone: booking.salon.timeZone,
      menuNames: booking.menus.map((menu) => menu.name),
      staffName: booking.staffRequested ? booking.staff.name : null,
      paymentLines: paymentTextLines(
        booking.payments,
        booking.status === "confirmed" ? { remainingOf: booking.totalPrice } : {},
      ),
      policyLines: booking.paymentPolicy?.lines ?? [],
    },
    {
      host: new URL(origin).hostname,
      now,
      tentative: isPendingApproval(booking),
    },
  );
}
