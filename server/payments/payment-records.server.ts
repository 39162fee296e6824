import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { PaymentRecord } from "./payment-lines";

/** A payment record as `paymentRecordsJson` reads it: the instant in epoch milliseconds. */
export type PaymentRecordJson = Omit<PaymentRecord, "at"> & { at: number };

/**
 * The payments of one booking, oldest first, as a JSON array in the
 * statement that reads the booking (decision 0083): the visitor's summaries
 * and the booking mails read their booking and its payments in one round
 * trip. `bookingId` is the booking's id column of the outer query, or an
 * id. A pending row (its key saved, the provider not asked yet, or the
 * visitor not yet sent to pay) is left out: nothing has happened to show;
 * except a refund, which the salon has already decided: the visitor sees it
 * as 返金手続き中 while its sending is retried (decision 0084).
 */
export function paymentRecordsJson(bookingId: SQLWrapper | string): SQL<PaymentRecordJson[]> {
  return sql<PaymentRecordJson[]>`(
    select coalesce(json_agg(json_build_object('id', p.id, 'kind', p.kind, 'amount', p.amount,
      'status', p.status, 'at', floor(extract(epoch from coalesce(p.settled_at, p.created_at)) * 1000))
      order by p.created_at, p.id), '[]'::json)
    from payments p
    where p.booking_id = ${bookingId} and (p.status <> 'pending' or p.kind = 'refund'))`;
}

/** The records of `paymentRecordsJson`, their instants as Dates. */
export function paymentRecordsFromJson(rows: readonly PaymentRecordJson[]): PaymentRecord[] {
  return rows.map((row) => ({ ...row, at: new Date(Number(row.at)) }));
}

/** One booking's payments (see paymentRecordsJson). */
export async function paymentRecordsOfBooking(
  db: Pick<Database, "execute">,
  bookingId: string,
): Promise<PaymentRecord[]> {
  const result = await db.execute(sql`select ${paymentRecordsJson(bookingId)} as records`);
  const rows = (result as unknown as { rows: { records: PaymentRecordJson[] }[] }).rows;
  return paymentRecordsFromJson(rows[0]?.records ?? []);
}
