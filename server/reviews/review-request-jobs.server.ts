import { and, asc, eq } from "drizzle-orm";
import { addDays, LocalDay, toLocal } from "../../common/local-time";
import { REVIEW_WRITE_DAYS, reviewWriteClosesAt } from "../../common/reviews";
import type { Database } from "../db/client";
import { bookingMenus, bookings, reviews, salons, staff, users } from "../db/schema";
import { enqueue, type JobHandler } from "../jobs/queue.server";
import { type LineDeliveryOptions, sendVisitorMessage } from "../line/line-messages.server";
import { lineReviewRequestMessages } from "../line/line-templates";
import { createMailer } from "../mail/mailer";
import { renderReviewRequestMail } from "../mail/review-templates";

/**
 * The review request (issue 30, point 1; decision 0054): when the salon
 * marks a visit completed, a job is enqueued in that transaction for the
 * next day at 10:00 in the salon's zone (a mail the evening of the visit,
 * or at night, reads as pushy). It sends one mail, or none: the dedupe key
 * makes a second completion path enqueue nothing, and the handler checks,
 * in the job's transaction, that the visit is still completed, unreviewed
 * and within the write window.
 */

export const reviewRequestKind = "review_request";

/** The mail's hour, local time in the salon's zone. */
const REQUEST_MINUTES = 10 * 60;

/** 10:00 on the day after `now`, in the salon's zone. */
export function reviewRequestTime(now: Date, timeZone: string): Date {
  const tomorrow = addDays(toLocal(now, timeZone).date, 1);
  return new Date(new LocalDay(tomorrow, timeZone).instantMs(REQUEST_MINUTES));
}

/** The job's dedupe key: one request per booking (an undone completion deletes it while pending). */
export const reviewRequestKey = (bookingId: string) => `review-request:${bookingId}`;

/** Inside the transaction that set the booking completed. */
export async function enqueueReviewRequest(
  tx: Pick<Database, "insert">,
  booking: { id: string; salonId: string },
  timeZone: string,
  now: Date,
) {
  await enqueue(tx, {
    kind: reviewRequestKind,
    payload: { bookingId: booking.id },
    runAt: reviewRequestTime(now, timeZone),
    dedupeKey: reviewRequestKey(booking.id),
    salonId: booking.salonId,
  });
}

export type ReviewRequestMailOptions = LineDeliveryOptions & {
  mailFrom: string;
  publicUrl: string;
};

export function reviewRequestJobHandlers(
  options: ReviewRequestMailOptions,
): Record<string, JobHandler> {
  return {
    async [reviewRequestKind]({ tx, job, now }) {
      const bookingId = typeof job.payload.bookingId === "string" ? job.payload.bookingId : null;
      if (!bookingId) return;
      const [row] = await tx
        .select({
          booking: {
            id: bookings.id,
            salonId: bookings.salonId,
            userId: bookings.userId,
            status: bookings.status,
            kind: bookings.kind,
            startsAt: bookings.startsAt,
            endsAt: bookings.endsAt,
            customerName: bookings.customerName,
            customerEmail: bookings.customerEmail,
          },
          accountEmail: users.email,
          salonName: salons.name,
          timeZone: salons.timeZone,
          staffName: staff.name,
          reviewId: reviews.id,
        })
        .from(bookings)
        .innerJoin(salons, eq(salons.id, bookings.salonId))
        .innerJoin(staff, eq(staff.id, bookings.staffId))
        // Only the booking's own account can write the review: no account, no request.
        .innerJoin(users, eq(users.id, bookings.userId))
        .leftJoin(reviews, eq(reviews.bookingId, bookings.id))
        .where(eq(bookings.id, bookingId));
      if (!row || row.reviewId) return;
      const { booking } = row;
      // Reopened, cancelled or moved back since: the request no longer stands.
      if (booking.status !== "completed" || booking.kind !== "booking") return;
      const closesAt = reviewWriteClosesAt(booking.startsAt, row.timeZone);
      if (now.getTime() >= closesAt.getTime()) return;
      const to = row.accountEmail.trim() || booking.customerEmail.trim();
      const menus = await tx
        .select({ name: bookingMenus.name })
        .from(bookingMenus)
        .where(
          and(eq(bookingMenus.bookingId, booking.id), eq(bookingMenus.salonId, booking.salonId)),
        )
        .orderBy(asc(bookingMenus.position));
      const details = {
        to,
        customerName: booking.customerName,
        salonName: row.salonName,
        timeZone: row.timeZone,
        startsAt: booking.startsAt,
        endsAt: booking.endsAt,
        menus: menus.map((menu) => menu.name),
        staffName: row.staffName,
        reviewUrl: `${options.publicUrl}/account/reviews/${booking.id}`,
        lastDay: addDays(toLocal(booking.startsAt, row.timeZone).date, REVIEW_WRITE_DAYS),
      };
      // By mail, LINE or both, as the visitor chose (decision 0089); LINE waits out the night.
      await sendVisitorMessage(
        tx,
        createMailer(tx, { from: options.mailFrom }),
        {
          userId: booking.userId,
          kind: "review",
          mail: renderReviewRequestMail(details),
          line: () => lineReviewRequestMessages(details),
          salonId: booking.salonId,
          bookingId: booking.id,
          timeZone: row.timeZone,
          ownAction: false,
          now,
        },
        options,
      );
    },
  };
}
