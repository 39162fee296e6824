import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { cancellationFee, type FeeCause } from "../../common/cancellation-fee";
import { feeWindowLabels } from "../../common/payment-policy";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { bookings, payments } from "../db/schema";
import { enqueue } from "../jobs/queue.server";
import { describeError, type Logger } from "../logger";
import { failureReason, MIN_CARD_CHARGE_YEN } from "../payments/payment-lines";
import { claimSend, releaseSend, scheduleResend } from "../payments/payment-send.server";
import {
  idempotencyKeys,
  type PaymentProvider,
  PaymentRequestError,
} from "../payments/provider.server";
import { sendPendingRefunds } from "./booking-payments.server";

/**
 * The money of a booking that ends without the visit (issue 40 §3;
 * decision 0080): a no-show's fee, a late cancellation's fee, a salon's
 * cancellation refunded, and what was paid ahead counted towards the fee.
 *
 * Two steps, as every money move here (decision 0076): `planBookingMoney`
 * runs INSIDE the transaction that changes the booking's status and writes
 * the payments rows (fee or refund, status pending) with their
 * deterministic keys; after the commit `sendBookingMoney` calls the
 * provider with those keys and records its answer. A crash, a timeout or a
 * second click between the two leaves a pending row, and the next attempt
 * (the salon's 再試行, or the next action) sends the same key: the provider
 * answers with the first result and never charges twice.
 */

type Tx = Database;
type Booking = typeof bookings.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

/** What a status change does to the booking's money. */
export type MoneyCause = FeeCause | "salon_cancel";

/** The key's kind for each fee cause (idempotencyKeys.fee): one fee per booking and kind. */
const feeKeyKind: Record<FeeCause, string> = { no_show: "no_show", customer_cancel: "late_cancel" };

const prepaymentKinds = ["deposit", "full"] as const;

/** What is left of a paid payment: its amount less every refund not failed. */
function leftOf(payment: PaymentRow, refunds: readonly PaymentRow[]): number {
  const given = refunds
    .filter((r) => r.refundOf === payment.id && r.status !== "failed")
    .reduce((sum, r) => sum + r.amount, 0);
  return Math.max(0, payment.amount - given);
}

/** The booking's payment rows, locked (two actions on one booking's money wait for each other). */
async function lockedPayments(tx: Tx, bookingId: string) {
  return tx
    .select()
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .orderBy(asc(payments.createdAt))
    .for("update");
}

/** The next refund of a payment: its key's sequence counts every refund row it has. */
async function insertRefund(
  tx: Tx,
  paid: PaymentRow,
  amount: number,
  existing: readonly PaymentRow[],
  createdBy: string | null,
) {
  const sequence = existing.filter((r) => r.refundOf === paid.id).length + 1;
  const [row] = await tx
    .insert(payments)
    .values({
      bookingId: paid.bookingId,
      salonId: paid.salonId,
      kind: "refund",
      amount,
      status: "pending",
      idempotencyKey: idempotencyKeys.refund(paid.id, sequence),
      refundOf: paid.id,
      createdBy,
    })
    .returning();
  return row;
}

/**
 * Inside the transaction that made the booking a no-show or cancelled it:
 * decides what the booking's money becomes and saves it (keys first).
 *
 * - salon_cancel: everything paid comes back (one refund per paid payment).
 * - no_show / customer_cancel: the fee of the policy the customer agreed
 *   to (cancellationFee); what was paid ahead counts towards it: only the
 *   fee less what is kept is charged, on the card kept at booking, and
 *   what was paid beyond the fee is refunded. Never more than the declared fee.
 */
export async function planBookingMoney(
  tx: Tx,
  booking: Booking,
  cause: MoneyCause,
  createdBy: string | null,
  now: Date,
): Promise<void> {
  const rows = await lockedPayments(tx, booking.id);
  const refunds = rows.filter((r) => r.kind === "refund");
  const paid = rows.filter(
    (r) =>
      (prepaymentKinds as readonly string[]).includes(r.kind) &&
      (r.status === "succeeded" || r.status === "refunded"),
  );
  const kept = paid.reduce((sum, r) => sum + leftOf(r, refunds), 0);
  const fee =
    cause === "salon_cancel" ? null : cancellationFee(booking.paymentPolicy, booking, cause, now);
  const owed = fee?.amount ?? 0;

  if (fee && owed > kept) {
    const card = rows.find(
      (r) =>
        (r.kind === "deposit" || r.kind === "full" || r.kind === "card") &&
        r.paymentMethodId &&
        r.providerCustomerId &&
        (r.status === "succeeded" || r.status === "refunded"),
    );
    const amount = owed - kept;
    const refusal = !card ? "no_card" : amount < MIN_CARD_CHARGE_YEN ? "amount_too_small" : null;
    await tx
      .insert(payments)
      .values({
        bookingId: booking.id,
        salonId: booking.salonId,
        kind: "fee",
        feeWindow: fee.window,
        amount,
        status: refusal ? "failed" : "pending",
        idempotencyKey: idempotencyKeys.fee(
          booking.id,
          feeKeyOf(rows, booking.id, cause as FeeCause),
        ),
        providerCustomerId: card?.providerCustomerId ?? null,
        paymentMethodId: card?.paymentMethodId ?? null,
        failureCode: refusal,
        failureMessage: refusal ? failureReason(refusal) : null,
        createdBy,
      })
      // A fee of this kind decided before (a no-show recorded, taken back, recorded again) stands.
      .onConflictDoNothing({ target: payments.idempotencyKey });
    return;
  }
  // Paid beyond what is owed (all of it for the salon's cancellation, or a free one): given back.
  let excess = kept - owed;
  for (const payment of [...paid].reverse()) {
    if (excess <= 0) break;
    const amount = Math.min(excess, leftOf(payment, refunds));
    if (amount <= 0) continue;
    const row = await insertRefund(tx, payment, amount, refunds, createdBy);
    if (row) refunds.push(row);
    excess -= amount;
  }
}

/**
 * The key's kind of a new fee: `no_show`, or after a no-show taken back and
 * recorded again `no_show:2`, … (its earlier fee was refunded or dropped by
 * the take-back). Otherwise the kind's one key: a fee decided before stands.
 */
function feeKeyOf(rows: readonly PaymentRow[], bookingId: string, cause: FeeCause): string {
  const kind = feeKeyKind[cause];
  const first = idempotencyKeys.fee(bookingId, kind);
  const earlier = rows.filter(
    (r) =>
      r.kind === "fee" && (r.idempotencyKey === first || r.idempotencyKey.startsWith(`${first}:`)),
  );
  if (earlier.length === 0 || !earlier.every((r) => r.failureCode === takenBackCode)) return kind;
  return `${kind}:${earlier.length + 1}`;
}

/** Marks a no-show's fee given back or dropped because the salon took the no-show back. */
const takenBackCode = "no_show_taken_back";

/**
 * 取り消す on a 無断キャンセル (decision 0084), inside the transaction that
 * takes it back: its fee charged is refunded (the fee's next
 * `refund:<fee>:<n>`, sent after the commit), a fee not taken (pending,
 * failed, or waiting on its link) is dropped (`waived`, with the reason),
 * audited. Returns the payment link to expire at the provider, if any.
 */
export async function takeBackNoShowMoney(
  tx: Tx,
  booking: Booking,
  actorUserId: string | null,
  now: Date,
): Promise<{ expireSessionId: string | null }> {
  const rows = await lockedPayments(tx, booking.id);
  const refunds = rows.filter((r) => r.kind === "refund");
  const fees = rows.filter(
    (r) =>
      r.kind === "fee" &&
      r.feeWindow === "no_show" &&
      r.failureCode !== takenBackCode &&
      r.status !== "waived",
  );
  let expireSessionId: string | null = null;
  for (const fee of fees) {
    const before = { paymentId: fee.id, status: fee.status, amount: fee.amount };
    let after: Record<string, unknown>;
    if (fee.status === "succeeded" || fee.status === "refunded") {
      const left = leftOf(fee, refunds);
      const refund = left > 0 ? await insertRefund(tx, fee, left, refunds, actorUserId) : null;
      if (refund) refunds.push(refund);
      await tx.update(payments).set({ failureCode: takenBackCode }).where(eq(payments.id, fee.id));
      after = { refundId: refund?.id ?? null, refund: left };
    } else {
      await tx
        .update(payments)
        .set({
          status: "waived",
          waivedBy: actorUserId,
          settledAt: now,
          failureCode: takenBackCode,
          failureMessage: failureReason(takenBackCode),
        })
        .where(eq(payments.id, fee.id));
      if (fee.status === "open") expireSessionId = fee.checkoutSessionId;
      after = { status: "waived" };
    }
    await recordAudit(
      tx,
      {
        actorUserId,
        action: "payment.no_show_taken_back",
        targetType: "booking",
        targetId: booking.id,
        salonId: booking.salonId,
        before,
        after,
      },
      now,
    );
  }
  return { expireSessionId };
}

export type MoneyOptions = { now: Date; publicUrl: string; log?: Logger };

/**
 * The provider and the site's origin, for the money an action moves: sent
 * right after the action's commit. Absent: the rows stay pending for 再試行.
 */
export type BookingMoney = { provider: PaymentProvider | null; publicUrl: string; log?: Logger };

/**
 * After the commit: every pending fee and refund of the booking sent with
 * its saved key. Never throws for the provider: an unreachable provider
 * leaves the row pending (再試行 sends the same key), a refusal is
 * recorded with its reason.
 */
export async function sendBookingMoney(
  db: Database,
  provider: PaymentProvider | null,
  bookingId: string,
  options: MoneyOptions,
): Promise<void> {
  if (!provider) return;
  const due = await db
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), eq(payments.status, "pending")))
    .orderBy(asc(payments.createdAt));
  for (const row of due) {
    try {
      await sendPaymentRow(db, provider, row, options);
    } catch (error) {
      // Outcome unknown (or refused): the row stays pending with its key; the retry job
      // (decision 0084) or 再試行 sends it again.
      options.log?.warn("payments: left pending", { paymentId: row.id, ...describeError(error) });
    }
  }
}

/** One pending fee or refund sent with its saved key (throws when the provider was not reached). */
export async function sendPaymentRow(
  db: Database,
  provider: PaymentProvider,
  row: PaymentRow,
  options: MoneyOptions,
): Promise<void> {
  if (row.kind === "fee") await chargeFee(db, provider, row, options);
  if (row.kind === "refund" && row.refundOf) {
    await sendPendingRefunds(db, provider, row.refundOf, options.now);
  }
}

/** What a fee link's page and its mail say the fee is for. */
export function feeDescription(row: PaymentRow, bookingNumber: string) {
  const window = row.feeWindow
    ? feeWindowLabels[row.feeWindow as keyof typeof feeWindowLabels]
    : "";
  return `キャンセル料${window ? `（${window}）` : ""}（予約番号 ${bookingNumber}）`;
}

/** The job that mails the customer a fee's payment link (fee-link-jobs.server.ts). */
export const feeLinkJobKind = "fee_payment_link";

/** One fee, charged off-session on the kept card with its key; the answer recorded. */
async function chargeFee(
  db: Database,
  provider: PaymentProvider,
  row: PaymentRow,
  { now, publicUrl }: MoneyOptions,
): Promise<void> {
  if (!row.bookingId || !row.providerCustomerId || !row.paymentMethodId) return;
  const [booking] = await db
    .select({ number: bookings.bookingNumber, email: bookings.customerEmail })
    .from(bookings)
    .where(eq(bookings.id, row.bookingId));
  const description = feeDescription(row, booking?.number ?? "");
  // One sender at a time (decision 0084): another holds it, or it is settled.
  if (!(await claimSend(db, row.id, now))) return;
  try {
    await sendFee(db, provider, row, {
      now,
      publicUrl,
      description,
      email: booking?.email,
      bookingId: row.bookingId,
      customerId: row.providerCustomerId,
      paymentMethodId: row.paymentMethodId,
    });
  } catch (error) {
    // Not reached, or no answer: whether it charged is unknown; the same key goes again later.
    if (!(error instanceof PaymentRequestError)) await scheduleResend(db, row, 1, now);
    throw error;
  } finally {
    await releaseSend(db, row.id);
  }
}

async function sendFee(
  db: Database,
  provider: PaymentProvider,
  row: PaymentRow,
  {
    now,
    publicUrl,
    description,
    email,
    bookingId,
    customerId,
    paymentMethodId,
  }: {
    now: Date;
    publicUrl: string;
    description: string;
    email: string | undefined;
    bookingId: string;
    customerId: string;
    paymentMethodId: string;
  },
): Promise<void> {
  let result: Awaited<ReturnType<PaymentProvider["chargeOffSession"]>>;
  try {
    result = await provider.chargeOffSession({
      bookingId,
      customerId,
      paymentMethodId,
      amount: row.amount,
      description,
      metadata: { payment_id: row.id, salon_id: row.salonId, purpose: "fee" },
      idempotencyKey: row.idempotencyKey,
    });
  } catch (error) {
    if (error instanceof PaymentRequestError) {
      await db
        .update(payments)
        .set({
          status: "failed",
          failureCode: error.code ?? "request_refused",
          failureMessage: failureReason("request_refused"),
        })
        .where(and(eq(payments.id, row.id), eq(payments.status, "pending")));
      return;
    }
    throw error;
  }
  if (result.outcome === "succeeded") {
    await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(payments)
        .set({ status: "succeeded", paymentIntentId: result.payment.id, settledAt: now })
        .where(and(eq(payments.id, row.id), eq(payments.status, "pending")))
        .returning({ id: payments.id });
      if (!updated) await refundIfWaived(tx, row.id, result.payment.id);
    });
    await sendPendingRefunds(db, provider, row.id, now);
    return;
  }
  if (result.outcome === "declined") {
    await db
      .update(payments)
      .set({
        status: "failed",
        paymentIntentId: result.paymentIntentId,
        failureCode: result.declineCode ?? result.code,
        failureMessage: failureReason(result.declineCode ?? result.code),
      })
      .where(and(eq(payments.id, row.id), eq(payments.status, "pending")));
    return;
  }
  // The bank wants the cardholder: a payment page for the fee, its link by mail.
  const session = await provider.createCheckoutSession({
    bookingId: bookingId,
    mode: "payment",
    amount: row.amount,
    description,
    customerId,
    successUrl: `${publicUrl}/account/history?booking=${bookingId}`,
    cancelUrl: `${publicUrl}/account/history?booking=${bookingId}`,
    metadata: { payment_id: row.id, salon_id: row.salonId, purpose: "fee" },
    idempotencyKey: idempotencyKeys.feeLink(bookingId, feeKindOfKey(row.idempotencyKey)),
  });
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(payments)
      .set({
        status: "open",
        paymentIntentId: result.paymentIntentId,
        checkoutSessionId: session.id,
        failureCode: "authentication_required",
        failureMessage: failureReason("authentication_required"),
      })
      .where(and(eq(payments.id, row.id), eq(payments.status, "pending")))
      .returning({ id: payments.id });
    if (!updated || !session.url || !email) return;
    await enqueue(tx, {
      kind: feeLinkJobKind,
      payload: { paymentId: row.id, url: session.url, expiresAt: session.expiresAt.toISOString() },
      runAt: now,
      dedupeKey: `fee-link:${row.id}`,
      salonId: row.salonId,
    });
  });
}

/** "fee:<booking>:<kind>" → kind. */
function feeKindOfKey(key: string): string {
  return key.split(":")[2] ?? "fee";
}

/**
 * A fee the salon waived while its charge was on its way, and the
 * provider took it after all: the money goes back (a refund row, its key
 * first); the fee stays waived.
 */
async function refundIfWaived(tx: Tx, feeId: string, paymentIntentId: string) {
  const [fee] = await tx.select().from(payments).where(eq(payments.id, feeId)).for("update");
  if (fee?.status !== "waived") return;
  await tx.update(payments).set({ paymentIntentId }).where(eq(payments.id, fee.id));
  const refunds = await tx.select().from(payments).where(eq(payments.refundOf, fee.id));
  const left = leftOf(fee, refunds);
  if (left > 0) await insertRefund(tx, { ...fee, paymentIntentId }, left, refunds, fee.waivedBy);
}

export { refundIfWaived };

/** Rows of these kinds can be refunded by the salon (what the customer paid). */
export const refundableKinds = ["deposit", "full", "fee"] as const;

/** What is left to refund of one payment (0 when it is not a paid payment). */
export function refundableLeft(payment: PaymentRow, all: readonly PaymentRow[]): number {
  if (!(refundableKinds as readonly string[]).includes(payment.kind)) return 0;
  if (payment.status !== "succeeded" && payment.status !== "refunded") return 0;
  return leftOf(
    payment,
    all.filter((r) => r.kind === "refund"),
  );
}

export { insertRefund, leftOf, lockedPayments };

/** Payment rows of a booking not yet answered by the provider (for 再試行). */
export async function pendingPaymentIds(db: Pick<Database, "select">, bookingId: string) {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.bookingId, bookingId),
        eq(payments.status, "pending"),
        inArray(payments.kind, ["fee", "refund"]),
        ne(payments.amount, 0),
      ),
    );
  return rows.map((r) => r.id);
}
