import { and, eq } from "drizzle-orm";
import { paymentAtBooking } from "../../common/payment-policy";
import type { Database } from "../db/client";
import { bookings, paymentStatusRank, payments } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import type { Logger } from "../logger";
import {
  type PaymentLine,
  paymentKindLabels,
  paymentLine,
  paymentStatusLabels,
} from "../payments/payment-lines";
import { paymentRecordsOfBooking } from "../payments/payment-records.server";
import { applyIntentOrRefundEvent, storeEventOnce } from "../payments/payment-rows.server";
import { claimSend, releaseSend, scheduleResend } from "../payments/payment-send.server";
import {
  type CheckoutSession,
  idempotencyKeys,
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderUnavailableError,
} from "../payments/provider.server";
import {
  type Booking,
  type ConfirmRequest,
  confirmPaidHold,
  prepareHoldForPayment,
  requireVerifiedAddress,
} from "./booking.server";
import { HoldExpiredError } from "./booking-errors";
import { refundIfWaived } from "./booking-fees.server";
import { refreshAfterBookingChange } from "./free-days.server";
import { PaymentUnavailableError } from "./payment-policy.server";

/**
 * The visitor's payment at booking (issue 40 §2; decision 0078): the
 * payments row and its key saved before the provider is called, the hosted
 * page, and the booking confirmed only from the provider's answer (its
 * webhook, or the session read back on the server when the browser
 * returns), whichever comes first; the other finds it done.
 */

const MINUTE = 60_000;
/**
 * How long the payment page (and so the hold) stays open: Stripe's minimum
 * is 30 minutes from the session's creation by its clock; one more minute
 * keeps a request a little behind Stripe's clock from being refused.
 */
export const CHECKOUT_MINUTES = 31;

export class PaymentServiceDownError extends DomainError {
  constructor() {
    super(
      "payment_service_unavailable",
      "決済サービスに接続できませんでした。お時間の確保はそのままです。しばらくしてから、もう一度お試しください。",
      503,
    );
  }
}

// The labels and the shown line live with the other payment wording (decision 0083).
export { type PaymentLine, paymentKindLabels, paymentStatusLabels };

export type CheckoutRequest = ConfirmRequest & {
  /** The public origin the provider sends the browser back to. */
  origin: string;
  salonSlug: string;
  /** The confirm step's path and query (the hold's page): where 戻る on the payment page leads. */
  confirmPath: string;
};

/**
 * Called where confirming answered PaymentRequiredError (which counted the
 * attempt against the booking limits). Saves what the visitor typed and agreed on the hold, extends the hold to
 * the payment page's life, saves the payment and its key, then asks the
 * provider for the page (the same key and parameters on every retry) and
 * returns where to send the browser.
 */
export async function startBookingCheckout(
  db: Database,
  provider: PaymentProvider | null,
  request: CheckoutRequest,
): Promise<{ url: string }> {
  if (!provider) throw new PaymentUnavailableError();
  // The attempt was counted by the confirmation that answered PaymentRequiredError.
  await requireVerifiedAddress(db, request.userId);
  const idempotencyKey = idempotencyKeys.checkout(request.holdId.toLowerCase());
  const row = await db.transaction(async (tx) => {
    const [earlier] = await tx
      .select()
      .from(payments)
      .where(eq(payments.idempotencyKey, idempotencyKey));
    // The page's life is fixed by the first attempt: a retry neither extends the hold nor changes the call.
    const holdUntil =
      earlier?.checkoutExpiresAt ?? new Date(request.now.getTime() + CHECKOUT_MINUTES * MINUTE);
    const { row: held, terms } = await prepareHoldForPayment(tx, { ...request, holdUntil });
    const due = paymentAtBooking(terms);
    if (!due) throw new HoldExpiredError();
    if (earlier) return earlier;
    const [saved] = await tx
      .insert(payments)
      .values({
        bookingId: held.id,
        salonId: held.salonId,
        kind: due.kind,
        amount: due.amount,
        status: "pending",
        idempotencyKey,
        checkoutExpiresAt: holdUntil,
      })
      .returning();
    if (!saved) throw new HoldExpiredError();
    return saved;
  });
  const bookingId = row.bookingId ?? "";
  if (row.checkoutSessionId) {
    const session = await providerCall(() =>
      provider.retrieveCheckoutSession(row.checkoutSessionId ?? ""),
    );
    if (session.status === "open" && session.url) return { url: session.url };
    throw new HoldExpiredError();
  }
  const [booking] = await db
    .select({ number: bookings.bookingNumber })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  const session = await providerCall(() =>
    provider.createCheckoutSession({
      bookingId,
      mode: row.kind === "card" ? "setup" : "payment",
      ...(row.kind === "card" ? {} : { amount: row.amount }),
      description: `${paymentKindLabels[row.kind]}（予約番号 ${booking?.number ?? ""}）`,
      successUrl: `${request.origin}/salons/${request.salonSlug}/confirm/paid?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${request.origin}${request.confirmPath}`,
      expiresAt: row.checkoutExpiresAt ?? undefined,
      metadata: { payment_id: row.id, salon_id: row.salonId },
      idempotencyKey: row.idempotencyKey,
    }),
  );
  await db
    .update(payments)
    .set({ checkoutSessionId: session.id, providerCustomerId: session.customerId, status: "open" })
    .where(and(eq(payments.id, row.id), eq(payments.status, "pending")));
  if (!session.url) throw new HoldExpiredError();
  return { url: session.url };
}

async function providerCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Whether it took effect is unknown: the key is kept, and the next attempt sends it again.
    if (error instanceof PaymentProviderUnavailableError) throw new PaymentServiceDownError();
    throw error;
  }
}

export type SettleOutcome =
  /** The booking was confirmed now, by this answer. */
  | { kind: "confirmed"; bookingId: string }
  /** Confirmed before (the other of webhook and return came first), or an event seen already. */
  | { kind: "done"; bookingId: string | null }
  /** Paid for a hold that was gone: refunded (or the refund is saved and retried). */
  | { kind: "refunded"; bookingId: string | null }
  /** Not paid (yet): the page is open, or it expired. */
  | { kind: "unpaid"; bookingId: string | null }
  /** No payment of ours. */
  | { kind: "unknown" };

/**
 * The provider's word on a session (a verified event, or retrieved by the
 * server) applied once: the event id stored in the transaction of its
 * effect, the payment row locked so the webhook and the return wait for
 * each other, states only forward. A completed payment confirms the hold;
 * a hold no longer there gets its payment refunded (decision 0078).
 */
export async function settleCheckout(
  db: Database,
  provider: PaymentProvider,
  session: CheckoutSession,
  { event, now, log }: { event?: PaymentEvent; now: Date; log?: Logger },
): Promise<SettleOutcome> {
  // A fee's payment link (decision 0080) is settled on its own row.
  if (session.metadata.purpose === "fee")
    return settleFeeCheckout(db, provider, session, { event, now });
  // An event's session names its intent but not the card kept: read it back, expanded.
  if (session.status === "complete" && !session.paymentMethodId) {
    session = await providerCall(() => provider.retrieveCheckoutSession(session.id));
  }
  type Settled = SettleOutcome & { paymentId?: string; booking?: Booking };
  const result = await db.transaction(async (tx): Promise<Settled> => {
    if (event && !(await storeEventOnce(tx, event))) {
      const [seen] = await tx
        .select({ id: payments.id, bookingId: payments.bookingId })
        .from(payments)
        .where(eq(payments.checkoutSessionId, session.id));
      return { kind: "done", bookingId: seen?.bookingId ?? null, paymentId: seen?.id };
    }
    const keyed = session.bookingId ? idempotencyKeys.checkout(session.bookingId) : null;
    const [row] = await tx
      .select()
      .from(payments)
      .where(
        keyed ? eq(payments.idempotencyKey, keyed) : eq(payments.checkoutSessionId, session.id),
      )
      .for("update");
    if (!row || (row.checkoutSessionId !== null && row.checkoutSessionId !== session.id)) {
      return { kind: "unknown" };
    }
    if (session.status === "expired") {
      if (paymentStatusRank[row.status] < paymentStatusRank.expired) {
        await tx.update(payments).set({ status: "expired" }).where(eq(payments.id, row.id));
      }
      return { kind: "unpaid", bookingId: row.bookingId };
    }
    const paid =
      session.status === "complete" &&
      (session.paymentStatus === "paid" ||
        (row.kind === "card" && session.paymentStatus === "no_payment_required"));
    if (!paid) return { kind: "unpaid", bookingId: row.bookingId };
    if (row.status === "succeeded" || row.status === "refunded") {
      const [refund] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(eq(payments.refundOf, row.id));
      return refund
        ? { kind: "refunded", bookingId: row.bookingId, paymentId: row.id }
        : { kind: "done", bookingId: row.bookingId, paymentId: row.id };
    }
    if (row.kind !== "card" && session.amountTotal !== row.amount) {
      log?.error("payments: the provider's amount is not the one asked", {
        paymentId: row.id,
        asked: row.amount,
        paid: session.amountTotal,
      });
    }
    await tx
      .update(payments)
      .set({
        status: "succeeded",
        checkoutSessionId: session.id,
        paymentIntentId: session.paymentIntentId,
        setupIntentId: session.setupIntentId,
        providerCustomerId: session.customerId,
        paymentMethodId: session.paymentMethodId,
        settledAt: now,
      })
      .where(eq(payments.id, row.id));
    const confirmed = await confirmPaidHold(tx, row.bookingId, now);
    if (confirmed === "done") return { kind: "done", bookingId: row.bookingId, paymentId: row.id };
    if (confirmed !== "gone") {
      return { kind: "confirmed", bookingId: confirmed.id, paymentId: row.id, booking: confirmed };
    }
    // Paid for a time no longer held: the money goes back, with its key saved first.
    if (row.kind !== "card") {
      await tx.insert(payments).values({
        bookingId: row.bookingId,
        salonId: row.salonId,
        kind: "refund",
        amount: session.amountTotal ?? row.amount,
        status: "pending",
        idempotencyKey: idempotencyKeys.refund(row.id, 1),
        refundOf: row.id,
      });
    }
    log?.warn("payments: paid after the hold was gone; refunding", { paymentId: row.id });
    return { kind: "refunded", bookingId: row.bookingId, paymentId: row.id };
  });
  // The search summary leaves holds out, so the time counts as taken from now on.
  if (result.booking) await refreshAfterBookingChange(db, result.booking, now);
  if (result.paymentId) {
    await sendPendingRefunds(db, provider, result.paymentId, now);
  }
  const { paymentId: _payment, booking: _booking, ...outcome } = result;
  return outcome;
}

/**
 * The refunds decided for a payment and not yet made, made now with their
 * saved keys (a retry after a failure asks the same refund, never a second).
 */
export async function sendPendingRefunds(
  db: Database,
  provider: PaymentProvider,
  paymentId: string,
  now: Date,
): Promise<void> {
  const [paid] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!paid?.paymentIntentId) return;
  const due = await db
    .select()
    .from(payments)
    .where(and(eq(payments.refundOf, paymentId), eq(payments.status, "pending")));
  for (const pending of due) {
    // One sender at a time (decision 0084): another holds it, or it was made meanwhile.
    const refund = await claimSend(db, pending.id, now);
    if (!refund) continue;
    try {
      await sendRefund(db, provider, paid, refund, now);
    } catch (error) {
      // Not reached: whether it was made is unknown; the same key goes again later.
      if (error instanceof PaymentServiceDownError) await scheduleResend(db, refund, 1, now);
      throw error;
    } finally {
      await releaseSend(db, refund.id);
    }
  }
}

async function sendRefund(
  db: Database,
  provider: PaymentProvider,
  paid: typeof payments.$inferSelect,
  refund: typeof payments.$inferSelect,
  now: Date,
): Promise<void> {
  const made = await providerCall(() =>
    provider.refund({
      paymentIntentId: paid.paymentIntentId ?? "",
      amount: refund.amount,
      reason: "requested_by_customer",
      // payment_row_id: the refund's own row, so its webhook finds it before we wrote its id.
      metadata: {
        payment_id: paid.id,
        payment_row_id: refund.id,
        booking_id: paid.bookingId ?? "",
      },
      idempotencyKey: refund.idempotencyKey,
    }),
  );
  await db.transaction(async (tx) => {
    await tx
      .update(payments)
      .set({ status: "succeeded", providerRefundId: made.id, settledAt: now })
      .where(and(eq(payments.id, refund.id), eq(payments.status, "pending")));
    await tx
      .update(payments)
      .set({ status: "refunded" })
      .where(and(eq(payments.id, paid.id), eq(payments.status, "succeeded")));
  });
}

/**
 * A verified webhook event applied (decisions 0078, 0081): the checkout's
 * completion or expiry through settleCheckout; an intent's or a refund's
 * event moves its row forward (applyIntentOrRefundEvent), a checkout's
 * intent by settling its session; any other event is stored once.
 */
export async function applyPaymentEvent(
  db: Database,
  provider: PaymentProvider,
  event: PaymentEvent,
  { now, log }: { now: Date; log?: Logger },
): Promise<void> {
  if (event.kind === "checkout_completed" || event.kind === "checkout_expired") {
    await settleCheckout(db, provider, event.session, { event, now, log });
    return;
  }
  if (event.kind === "other") {
    await db.transaction((tx) => storeEventOnce(tx, event));
    return;
  }
  const outcome = await applyIntentOrRefundEvent(db, event, { now, log });
  if (outcome.kind === "checkout") {
    // The intent of a hosted page: its session confirms the booking (or refunds a lapsed hold).
    const session = await providerCall(() =>
      provider.retrieveCheckoutSession(outcome.checkoutSessionId),
    );
    await settleCheckout(db, provider, session, { event, now, log });
  }
}

/** The session the browser came back with, read from the provider, applied; null: not ours. */
export async function settleReturn(
  db: Database,
  provider: PaymentProvider,
  { sessionId, userId, now, log }: { sessionId: string; userId: string; now: Date; log?: Logger },
): Promise<SettleOutcome | null> {
  if (!/^cs_[\w]{1,200}$/.test(sessionId)) return null;
  // Only a payment of this visitor's booking: another's session id shows nothing.
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .innerJoin(bookings, eq(bookings.id, payments.bookingId))
    .where(and(eq(payments.checkoutSessionId, sessionId), eq(bookings.userId, userId)));
  if (!row) return null;
  const session = await providerCall(() => provider.retrieveCheckoutSession(sessionId));
  return settleCheckout(db, provider, session, { now, log });
}

/** A booking's payments, oldest first, as the thanks page and the salon's booking detail list them. */
export async function paymentsOfBooking(
  db: Pick<Database, "execute">,
  bookingId: string,
): Promise<PaymentLine[]> {
  return (await paymentRecordsOfBooking(db, bookingId)).map(paymentLine);
}

/**
 * A fee's payment link (decision 0080), completed or expired, applied once
 * to the fee row it was made for: paid → succeeded; a fee the salon waived
 * meanwhile and paid all the same is refunded.
 */
async function settleFeeCheckout(
  db: Database,
  provider: PaymentProvider,
  session: CheckoutSession,
  { event, now }: { event?: PaymentEvent; now: Date },
): Promise<SettleOutcome> {
  const result = await db.transaction(async (tx): Promise<SettleOutcome & { refund?: string }> => {
    if (event && !(await storeEventOnce(tx, event))) return { kind: "done", bookingId: null };
    const [row] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.checkoutSessionId, session.id), eq(payments.kind, "fee")))
      .for("update");
    if (!row) return { kind: "unknown" };
    if (session.status === "expired") {
      if (row.status === "open") {
        await tx.update(payments).set({ status: "expired" }).where(eq(payments.id, row.id));
      }
      return { kind: "unpaid", bookingId: row.bookingId };
    }
    if (session.status !== "complete" || session.paymentStatus !== "paid") {
      return { kind: "unpaid", bookingId: row.bookingId };
    }
    if (row.status === "waived" && session.paymentIntentId) {
      await refundIfWaived(tx, row.id, session.paymentIntentId);
      return { kind: "refunded", bookingId: row.bookingId, refund: row.id };
    }
    if (row.status === "succeeded" || row.status === "refunded") {
      return { kind: "done", bookingId: row.bookingId };
    }
    await tx
      .update(payments)
      .set({ status: "succeeded", paymentIntentId: session.paymentIntentId, settledAt: now })
      .where(eq(payments.id, row.id));
    return { kind: "done", bookingId: row.bookingId };
  });
  if (result.refund) await sendPendingRefunds(db, provider, result.refund, now);
  const { refund: _refund, ...outcome } = result;
  return outcome;
}
