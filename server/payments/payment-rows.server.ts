import { and, eq, ne } from "drizzle-orm";
import type { Database } from "../db/client";
import {
  type PaymentKind,
  type PaymentRowStatus,
  paymentEvents,
  paymentStatusRank,
  payments,
} from "../db/schema";
import type { Logger } from "../logger";
import { failureReason } from "./payment-lines";
import type { Payment, PaymentEvent, Refund } from "./provider.server";

/**
 * Our payments rows moved forward by what the provider says about its own
 * objects (issue 40 §2, §3; decision 0081): a PaymentIntent that succeeded or
 * failed, a refund made or failed. Shared by the webhook (one event, stored
 * once in the transaction of its effect) and the daily reconciliation.
 *
 * A provider object is matched to our row by its id first (payment_intent_id,
 * provider_refund_id), then by the metadata we sent with the call:
 * `payment_row_id` (our payments.id; every call that moves money sends it),
 * or, for a checkout's PaymentIntent, `payment_id`. So an event that
 * arrives before our row recorded the provider's id (the call's answer and
 * its webhook race) still finds the row, by the id saved before the call.
 */

export type PaymentRow = typeof payments.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Rows paid through a hosted page: their session settles them (settleCheckout), with the booking. */
export const checkoutKinds: readonly PaymentKind[] = ["deposit", "full", "card"];
export const isCheckoutRow = (row: Pick<PaymentRow, "kind">) => checkoutKinds.includes(row.kind);

/** Whether `to` is a move forward from `from` (decision 0078: states only move forward). */
export function movesForward(from: PaymentRowStatus, to: PaymentRowStatus): boolean {
  return paymentStatusRank[to] > paymentStatusRank[from];
}

/** The provider's states that mean the refund was made (a card refund may stay pending for days). */
export const refundMade = (refund: Pick<Refund, "status">) =>
  refund.status === "succeeded" || refund.status === "pending";

function rowIdIn(metadata: Record<string, string>, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = metadata[key];
    if (value && UUID.test(value)) return value.toLowerCase();
  }
  return null;
}

/** Our row of a PaymentIntent (never a refund row), locked when `lock`; null when we have none. */
export async function findPaymentRow(
  tx: Database,
  payment: Pick<Payment, "id" | "metadata">,
  { lock = false }: { lock?: boolean } = {},
): Promise<PaymentRow | null> {
  const byId = tx
    .select()
    .from(payments)
    .where(and(eq(payments.paymentIntentId, payment.id), ne(payments.kind, "refund")));
  const [found] = await (lock ? byId.for("update") : byId);
  if (found) return found;
  const rowId = rowIdIn(payment.metadata, "payment_row_id", "payment_id");
  if (!rowId) return null;
  const byMetadata = tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, rowId), ne(payments.kind, "refund")));
  const [row] = await (lock ? byMetadata.for("update") : byMetadata);
  // A row already tied to another intent is not this one's.
  if (!row || (row.paymentIntentId !== null && row.paymentIntentId !== payment.id)) return null;
  return row;
}

/** Our refund row of a provider refund, locked when `lock`; null when we have none. */
export async function findRefundRow(
  tx: Database,
  refund: Pick<Refund, "id" | "metadata">,
  { lock = false }: { lock?: boolean } = {},
): Promise<PaymentRow | null> {
  const byId = tx
    .select()
    .from(payments)
    .where(and(eq(payments.providerRefundId, refund.id), eq(payments.kind, "refund")));
  const [found] = await (lock ? byId.for("update") : byId);
  if (found) return found;
  const rowId = rowIdIn(refund.metadata, "payment_row_id");
  if (!rowId) return null;
  const byMetadata = tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, rowId), eq(payments.kind, "refund")));
  const [row] = await (lock ? byMetadata.for("update") : byMetadata);
  if (!row || (row.providerRefundId !== null && row.providerRefundId !== refund.id)) return null;
  return row;
}

/**
 * A PaymentIntent that succeeded, on a row not paid through a hosted page
 * (a fee): the row moves to succeeded with the intent's id. False when it
 * was there already (or further).
 */
export async function recordPaymentSucceeded(
  tx: Database,
  row: PaymentRow,
  payment: Payment,
  now: Date,
): Promise<boolean> {
  if (!movesForward(row.status, "succeeded")) {
    if (row.paymentIntentId === null && row.status === "succeeded") {
      await tx.update(payments).set({ paymentIntentId: payment.id }).where(eq(payments.id, row.id));
    }
    return false;
  }
  const updated = await tx
    .update(payments)
    .set({
      status: "succeeded",
      paymentIntentId: payment.id,
      ...(payment.paymentMethodId ? { paymentMethodId: payment.paymentMethodId } : {}),
      ...(payment.customerId ? { providerCustomerId: payment.customerId } : {}),
      settledAt: row.settledAt ?? now,
    })
    .where(and(eq(payments.id, row.id), eq(payments.status, row.status)))
    .returning({ id: payments.id });
  return updated.length > 0;
}

/** A PaymentIntent whose attempt failed (a declined fee): pending or open moves to failed. */
export async function recordPaymentFailed(
  tx: Database,
  row: PaymentRow,
  payment: Payment,
): Promise<boolean> {
  // A card that needs its holder is not a failure: the charger mails a payment link for it
  // (decision 0080) and moves the row to open; this event may come before or after that.
  const code = payment.lastError?.declineCode ?? payment.lastError?.code ?? null;
  if (code === "authentication_required") return false;
  if (!movesForward(row.status, "failed")) return false;
  const updated = await tx
    .update(payments)
    .set({
      status: "failed",
      paymentIntentId: row.paymentIntentId ?? payment.id,
      // The reason, as the charger would have written it had its answer come first.
      failureCode: row.failureCode ?? code ?? "card_declined",
      failureMessage: row.failureMessage ?? failureReason(code),
    })
    .where(and(eq(payments.id, row.id), eq(payments.status, row.status)))
    .returning({ id: payments.id });
  return updated.length > 0;
}

/**
 * A refund the provider made: our refund row moves to succeeded with its
 * id, and the payment it gives back to refunded (as sendPendingRefunds does
 * when the call answers). False when the row was there already.
 */
export async function recordRefundMade(
  tx: Database,
  row: PaymentRow,
  refund: Refund,
  now: Date,
): Promise<boolean> {
  if (!movesForward(row.status, "succeeded")) {
    if (row.providerRefundId === null && row.status === "succeeded") {
      await tx.update(payments).set({ providerRefundId: refund.id }).where(eq(payments.id, row.id));
    }
    return false;
  }
  const updated = await tx
    .update(payments)
    .set({ status: "succeeded", providerRefundId: refund.id, settledAt: row.settledAt ?? now })
    .where(and(eq(payments.id, row.id), eq(payments.status, row.status)))
    .returning({ id: payments.id });
  if (updated.length === 0) return false;
  if (row.refundOf) {
    await tx
      .update(payments)
      .set({ status: "refunded" })
      .where(and(eq(payments.id, row.refundOf), eq(payments.status, "succeeded")));
  }
  return true;
}

/** A refund the provider could not make: our pending refund row moves to failed. */
export async function recordRefundFailed(
  tx: Database,
  row: PaymentRow,
  refund: Refund,
): Promise<boolean> {
  if (!movesForward(row.status, "failed")) return false;
  const updated = await tx
    .update(payments)
    .set({ status: "failed", providerRefundId: row.providerRefundId ?? refund.id })
    .where(and(eq(payments.id, row.id), eq(payments.status, row.status)))
    .returning({ id: payments.id });
  return updated.length > 0;
}

/** The event's id, stored once; false when it was stored before (a duplicate delivery). */
export async function storeEventOnce(tx: Database, event: PaymentEvent): Promise<boolean> {
  const inserted = await tx
    .insert(paymentEvents)
    .values({ eventId: event.id, type: event.type })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.eventId });
  return inserted.length > 0;
}

export type IntentEventOutcome =
  /** Seen before: nothing done. */
  | { kind: "duplicate" }
  /** A row moved forward (or was already there). */
  | { kind: "applied"; paymentId: string; changed: boolean }
  /**
   * A checkout's intent, not yet settled: nothing stored; the caller reads the session and
   * settles it with the event (settleCheckout stores the event in its transaction).
   */
  | { kind: "checkout"; paymentId: string; checkoutSessionId: string }
  /** No row of ours: left to the reconciliation, which lists it. */
  | { kind: "unmatched" };

/**
 * A payment_intent.* or refund/charge.refunded event applied (decision
 * 0081): its id stored in the same transaction as its effect, rows moved
 * only forward, so a duplicate or a late event changes nothing. A
 * checkout's intent is handed back for settleCheckout, which confirms the
 * booking with it.
 */
export async function applyIntentOrRefundEvent(
  db: Database,
  event: PaymentEvent,
  { now, log }: { now: Date; log?: Logger },
): Promise<IntentEventOutcome> {
  if (event.kind === "payment_succeeded") {
    // A checkout's intent is settled with its session, which stores the event itself: were it
    // stored here first, a failure reading the session would leave the retried event a duplicate.
    const row = await findPaymentRow(db, event.payment);
    if (
      row &&
      isCheckoutRow(row) &&
      row.checkoutSessionId &&
      movesForward(row.status, "succeeded")
    ) {
      return { kind: "checkout", paymentId: row.id, checkoutSessionId: row.checkoutSessionId };
    }
  }
  return db.transaction(async (tx): Promise<IntentEventOutcome> => {
    if (!(await storeEventOnce(tx, event))) return { kind: "duplicate" };
    switch (event.kind) {
      case "payment_succeeded":
      case "payment_failed": {
        const row = await findPaymentRow(tx, event.payment, { lock: true });
        if (!row) {
          log?.warn("payments: an intent of no row of ours", {
            eventId: event.id,
            paymentIntentId: event.payment.id,
          });
          return { kind: "unmatched" };
        }
        if (isCheckoutRow(row)) {
          // Its session decides (a declined card may be retried on the same page); a row
          // without its session id yet is settled by the session's own event.
          return { kind: "applied", paymentId: row.id, changed: false };
        }
        if (event.kind === "payment_succeeded" && event.payment.amountReceived !== row.amount) {
          log?.error("payments: the provider's amount is not the one asked", {
            paymentId: row.id,
            asked: row.amount,
            paid: event.payment.amountReceived,
          });
        }
        const changed =
          event.kind === "payment_succeeded"
            ? await recordPaymentSucceeded(tx, row, event.payment, now)
            : await recordPaymentFailed(tx, row, event.payment);
        return { kind: "applied", paymentId: row.id, changed };
      }
      case "refund": {
        const row = await findRefundRow(tx, event.refund, { lock: true });
        if (!row) {
          log?.warn("payments: a refund of no row of ours", {
            eventId: event.id,
            refundId: event.refund.id,
          });
          return { kind: "unmatched" };
        }
        if (refundMade(event.refund)) {
          const changed = await recordRefundMade(tx, row, event.refund, now);
          return { kind: "applied", paymentId: row.id, changed };
        }
        if (event.refund.status === "requires_action") {
          return { kind: "applied", paymentId: row.id, changed: false };
        }
        if (row.status === "succeeded") {
          // Made, then failed at the bank: not a move back; the reconciliation lists it.
          log?.warn("payments: a refund we recorded as made failed", {
            paymentId: row.id,
            refundId: event.refund.id,
            status: event.refund.status,
          });
        }
        const changed = await recordRefundFailed(tx, row, event.refund);
        return { kind: "applied", paymentId: row.id, changed };
      }
      default:
        // charge.refunded repeats what the refund's own events say; checkout events are not ours.
        return { kind: "unmatched" };
    }
  });
}
