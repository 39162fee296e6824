import { and, inArray } from "drizzle-orm";
import { type ReviewAction, reviewActionFor } from "../../../common/reviews";
import { isPendingApproval } from "../../../common/status-labels";
import type { Database } from "../../db/client";
import { bookingEvents, reviews } from "../../db/schema";
import { cancelFeeNotice, paymentLine } from "../../payments/payment-lines";
import { type BookingSummary, getBookingForUser, listBookingsForUser } from "../booking.server";
import { bookingSettingsFor } from "../settings";

/** A booking as the history page shows it (plain data for the page). */
function historyItem(
  booking: BookingSummary,
  cancellable: boolean,
  changed: ReadonlySet<string>,
  review: ReviewAction = null,
) {
  const params = new URLSearchParams(booking.menus.map((menu) => ["menu", menu.menuId]));
  if (booking.staffRequested) params.set("staff", booking.staff.slug);
  return {
    id: booking.id,
    bookingNumber: booking.bookingNumber,
    status: booking.status,
    /** The status in words: 仮予約（サロンの承認待ち） while the salon has not approved it (decision 0051). */
    statusLabel: booking.statusLabel,
    pending: isPendingApproval(booking),
    startsAt: booking.startsAt.toISOString(),
    endsAt: booking.endsAt.toISOString(),
    totalPrice: booking.totalPrice,
    /** 指名料 in totalPrice (decision 0047). */
    nominationFee: booking.nominationFee,
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
    /** The payment and cancellation policy agreed to at booking (decision 0075). */
    paymentPolicy: booking.paymentPolicy,
    cancellable,
    /** 予約変更 (the flow in change mode), open until the same cutoff as cancelling; else null. */
    changeHref: cancellable ? `/salons/${booking.salon.slug}/confirm?change=${booking.id}` : null,
    /** Moved or its menus changed at least once (変更済み). */
    changed: changed.has(booking.id),
    rebookHref: `/salons/${booking.salon.slug}/confirm?${params}`,
    /** 口コミを書く / 口コミを編集する / 口コミ投稿済み for a completed visit (decision 0054); else null. */
    review,
    reviewHref: review ? `/account/reviews/${booking.id}` : null,
  };
}

/** The review each completed visit may get now: its one review's age decides editing. */
async function reviewActions(
  db: Database,
  list: BookingSummary[],
  now: Date,
): Promise<Map<string, ReviewAction>> {
  const completed = list.filter((booking) => booking.status === "completed");
  if (completed.length === 0) return new Map();
  const rows = await db
    .select({ bookingId: reviews.bookingId, createdAt: reviews.createdAt })
    .from(reviews)
    .where(
      inArray(
        reviews.bookingId,
        completed.map((booking) => booking.id),
      ),
    );
  const written = new Map(rows.map((row) => [row.bookingId, row]));
  return new Map(
    completed.map((booking) => [
      booking.id,
      reviewActionFor(
        { status: booking.status, startsAt: booking.startsAt, timeZone: booking.salon.timeZone },
        written.get(booking.id) ?? null,
        now,
      ),
    ]),
  );
}

/** Before the salon's cutoff: the web may still cancel or change it (cancelBooking, rescheduleBooking). */
function beforeCutoff(booking: BookingSummary, cutoffHours: number, now: Date) {
  return (
    booking.status === "confirmed" &&
    now.getTime() <= booking.startsAt.getTime() - cutoffHours * 3_600_000
  );
}

/** Which of these bookings were moved or had their menus changed (their history says so). */
async function changedBookings(db: Database, list: BookingSummary[]): Promise<Set<string>> {
  if (list.length === 0) return new Set();
  // By salon and booking: booking_events' index begins with the salon.
  const rows = await db
    .selectDistinct({ bookingId: bookingEvents.bookingId })
    .from(bookingEvents)
    .where(
      and(
        inArray(bookingEvents.salonId, [...new Set(list.map((booking) => booking.salon.id))]),
        inArray(
          bookingEvents.bookingId,
          list.map((booking) => booking.id),
        ),
        inArray(bookingEvents.kind, ["moved", "menus_changed"]),
      ),
    );
  return new Set(rows.map((row) => row.bookingId));
}

/** /account/history: upcoming and past bookings of the visitor. */
export async function historyList(db: Database, userId: string, now: Date) {
  const { upcoming, past } = await listBookingsForUser(db, { userId, now });
  const changed = await changedBookings(db, [...upcoming, ...past]);
  const review = await reviewActions(db, past, now);
  // Upcoming bookings are few: each salon's cutoff decides whether 予約変更 is offered.
  const cutoffs = new Map<string, number>();
  for (const booking of upcoming) {
    if (!cutoffs.has(booking.salon.id)) {
      const { cancellationCutoffHours } = await bookingSettingsFor(db, booking.salon.id);
      cutoffs.set(booking.salon.id, cancellationCutoffHours);
    }
  }
  return {
    upcoming: upcoming.map((booking) =>
      historyItem(booking, beforeCutoff(booking, cutoffs.get(booking.salon.id) ?? 0, now), changed),
    ),
    past: past.map((booking) => historyItem(booking, false, changed, review.get(booking.id))),
  };
}

/** One booking of the visitor, with whether the web may still cancel it and the rule in words. */
export async function historyDetail(db: Database, userId: string, bookingId: string, now: Date) {
  const booking = await getBookingForUser(db, { bookingId, userId });
  const { cancellationCutoffHours } = await bookingSettingsFor(db, booking.salon.id);
  const cancellable = beforeCutoff(booking, cancellationCutoffHours, now);
  const changed = await changedBookings(db, [booking]);
  const review = await reviewActions(db, [booking], now);
  return {
    booking: {
      ...historyItem(booking, cancellable, changed, review.get(booking.id)),
      /** What was paid, refunded, or kept on a card (decision 0083). */
      payments: booking.payments.map(paymentLine),
      /** What cancelling now would cost (shown before the visitor confirms); null without a policy. */
      cancelFeeNotice: cancellable
        ? cancelFeeNotice(booking.paymentPolicy, booking, booking.payments, now)
        : null,
    },
    cancellationCutoffHours,
  };
}
