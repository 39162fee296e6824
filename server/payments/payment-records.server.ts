import { and, asc, eq, inArray, ne, or } from "drizzle-orm";
import type { Database } from "../db/client";
import { payments } from "../db/schema";
import type { PaymentRecord } from "./payment-lines";

/**
 * The payments of these bookings, oldest first, by booking id (decision
 * 0083). A pending row (its key saved, the provider not asked yet, or the
 * visitor not yet sent to pay) is left out: nothing has happened to show;
 * except a refund, which the salon has already decided: the visitor sees it
 * as 返金手続き中 while its sending is retried (decision 0084).
 */
export async function paymentRecordsOf(
  db: Pick<Database, "select">,
  bookingIds: readonly string[],
): Promise<Map<string, PaymentRecord[]>> {
  const byBooking = new Map<string, PaymentRecord[]>();
  if (bookingIds.length === 0) return byBooking;
  const rows = await db
    .select({
      id: payments.id,
      bookingId: payments.bookingId,
      kind: payments.kind,
      amount: payments.amount,
      status: payments.status,
      settledAt: payments.settledAt,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(
      and(
        inArray(payments.bookingId, [...bookingIds]),
        or(ne(payments.status, "pending"), eq(payments.kind, "refund")),
      ),
    )
    .orderBy(asc(payments.createdAt), asc(payments.id));
  for (const row of rows) {
    if (!row.bookingId) continue;
    const list = byBooking.get(row.bookingId) ?? [];
    list.push({
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      status: row.status,
      at: row.settledAt ?? row.createdAt,
    });
    byBooking.set(row.bookingId, list);
  }
  return byBooking;
}

/** One booking's payments (see paymentRecordsOf). */
export async function paymentRecordsOfBooking(
  db: Pick<Database, "select">,
  bookingId: string,
): Promise<PaymentRecord[]> {
  return (await paymentRecordsOf(db, [bookingId])).get(bookingId) ?? [];
}
