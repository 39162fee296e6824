import { eq } from "drizzle-orm";
import { formatDate } from "../../common/format";
import { toLocal } from "../../common/local-time";
import { type FeeWindow, feeWindowLabels } from "../../common/payment-policy";
import { bookings, payments, salons } from "../db/schema";
import type { JobHandler } from "../jobs/queue.server";
import { renderFeeLinkMail } from "../mail/fee-link-templates";
import { createMailer } from "../mail/mailer";
import { feeLinkJobKind } from "./booking-fees.server";

/**
 * The fee's payment link mailed to the customer (decision 0080), enqueued
 * in the transaction that recorded 'authentication_required': a mail
 * exists exactly when that answer was recorded, once (dedupe key per fee).
 * Nothing is sent for a fee settled or waived since.
 */
export function feeLinkJobHandlers(options: { mailFrom: string }): Record<string, JobHandler> {
  return {
    async [feeLinkJobKind]({ tx, job }) {
      const payload = job.payload as { paymentId?: unknown; url?: unknown; expiresAt?: unknown };
      if (typeof payload.paymentId !== "string" || typeof payload.url !== "string") return;
      const [row] = await tx
        .select({ fee: payments, booking: bookings, salonName: salons.name, zone: salons.timeZone })
        .from(payments)
        .innerJoin(bookings, eq(bookings.id, payments.bookingId))
        .innerJoin(salons, eq(salons.id, payments.salonId))
        .where(eq(payments.id, payload.paymentId));
      if (row?.fee.status !== "open" || !row.booking.customerEmail) return;
      const expires = new Date(String(payload.expiresAt));
      const local = toLocal(Number.isNaN(expires.getTime()) ? new Date() : expires, row.zone);
      const window = row.fee.feeWindow as FeeWindow | null;
      await createMailer(tx, { from: options.mailFrom }).send({
        ...renderFeeLinkMail({
          to: row.booking.customerEmail,
          customerName: row.booking.customerName,
          salonName: row.salonName,
          bookingNumber: row.booking.bookingNumber,
          startsAt: row.booking.startsAt,
          endsAt: row.booking.endsAt,
          timeZone: row.zone,
          what: `キャンセル料${window ? `（${feeWindowLabels[window]}）` : ""}`,
          amount: row.fee.amount,
          url: payload.url,
          until: `${formatDate(local.date)} ${local.time}`,
        }),
      });
    },
  };
}
