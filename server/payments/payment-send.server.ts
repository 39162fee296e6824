import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Database } from "../db/client";
import { payments } from "../db/schema";
import { backoffDelay } from "../jobs/backoff";
import { enqueue } from "../jobs/queue.server";

/**
 * Sending a pending fee or refund to the provider (decision 0084): one
 * sender at a time per row, and an automatic retry when the provider could
 * not be reached. The row's key never changes, so a retry is answered with
 * the first result; what these functions add is who sends and when.
 */

type Tx = Pick<Database, "update" | "insert">;

/** How long a sender keeps its claim: longer than the provider's timeout and its own retries. */
export const SEND_LEASE_MS = 2 * 60_000;
/** The job that sends a pending fee or refund again (payment-resend-jobs.server.ts). */
export const resendJobKind = "payment_resend";
/** Automatic attempts after the first send; then the row waits for 再試行, its reason shown. */
export const RESEND_ATTEMPTS = 5;
/** The first retry after a minute, then 2, 4, 8, 16 (server/jobs/backoff.ts): about half an hour in all. */
export const RESEND_BASE_MS = 60_000;

/**
 * Claims a pending row for one send: one UPDATE under the row's status, so
 * two senders (the job, 再試行, the action's own send) never call the
 * provider for it at once. Null: settled, or another sender holds it.
 */
export async function claimSend(db: Tx, rowId: string, now: Date) {
  const [row] = await db
    .update(payments)
    .set({ sendingUntil: new Date(now.getTime() + SEND_LEASE_MS) })
    .where(
      and(
        eq(payments.id, rowId),
        eq(payments.status, "pending"),
        or(isNull(payments.sendingUntil), lte(payments.sendingUntil, now)),
      ),
    )
    .returning();
  return row ?? null;
}

/** The claim given back (the answer recorded, or none came). */
export async function releaseSend(db: Tx, rowId: string) {
  await db.update(payments).set({ sendingUntil: null }).where(eq(payments.id, rowId));
}

/**
 * The provider could not be reached (the outcome unknown): the row's
 * `attempt`-th automatic retry, after the backoff, once (dedupe key per
 * row and attempt; a later failure of a send the job itself made finds
 * its attempt taken and adds nothing).
 */
export function scheduleResend(
  db: Pick<Database, "insert">,
  row: { id: string; salonId: string },
  attempt: number,
  now: Date,
) {
  return enqueue(db, {
    kind: resendJobKind,
    payload: { paymentId: row.id, attempt },
    runAt: new Date(now.getTime() + backoffDelay(RESEND_BASE_MS, attempt - 1)),
    dedupeKey: `${resendJobKind}:${row.id}:${attempt}`,
    salonId: row.salonId,
  });
}
