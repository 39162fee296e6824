import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { bookings } from "./bookings";
import { createdAt, id, sqlList, updatedAt } from "./common";
import { salons } from "./salons";

/** What a payment row is (issue 40): the visitor's at booking, a fee, or a refund of one. */
export const paymentKinds = ["deposit", "full", "card", "fee", "refund"] as const;
export type PaymentKind = (typeof paymentKinds)[number];

/**
 * Forward only (decision 0078): pending (the key saved, the provider not yet
 * answered) → open (its page or call under way) → succeeded | expired |
 * failed → refunded. `paymentStatusRank` orders them; no update goes back.
 */
export const paymentRowStatuses = [
  "pending",
  "open",
  "succeeded",
  "expired",
  "failed",
  "refunded",
  /** A fee the salon let go (decision 0080): never charged, or no longer asked. */
  "waived",
] as const;
export type PaymentRowStatus = (typeof paymentRowStatuses)[number];

/**
 * Every movement of money with the provider (issue 40 §2; decisions 0076,
 * 0078). The idempotency key is written before the provider is called, in
 * the transaction that decides to charge, and is unique: a retry sends the
 * same key and the provider answers with the first result. The booking may
 * be deleted (a lapsed hold cleared for another visitor): the payment stays,
 * with booking_id null, so what was paid is never lost.
 */
export const payments = pgTable(
  "payments",
  {
    id: id(),
    bookingId: uuid("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    kind: text("kind").$type<PaymentKind>().notNull(),
    /** Yen, as our server computed it (never the browser). */
    amount: integer("amount").notNull(),
    status: text("status").$type<PaymentRowStatus>().notNull().default("pending"),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    /** The payment a refund row gives back. */
    refundOf: uuid("refund_of"),
    checkoutSessionId: text("checkout_session_id").unique(),
    /** The page's expires_at as sent: a retry sends the same parameters with the same key. */
    checkoutExpiresAt: timestamp("checkout_expires_at", { withTimezone: true }),
    paymentIntentId: text("payment_intent_id"),
    setupIntentId: text("setup_intent_id"),
    providerCustomerId: text("provider_customer_id"),
    paymentMethodId: text("payment_method_id"),
    providerRefundId: text("provider_refund_id"),
    /** A fee's window (decision 0080): day_before, same_day or no_show. */
    feeWindow: text("fee_window"),
    /** The salon's person whose action made this movement (no-show, cancel, refund); null: the customer or the system. */
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    /** Who waived the fee (status waived). */
    waivedBy: text("waived_by").references(() => users.id, { onDelete: "set null" }),
    /** Why the provider refused (card_declined, authentication_required, …) and the reason in Japanese. */
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    /** When the provider said it succeeded (or the refund was made). */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payments_booking_idx").on(t.bookingId),
    index("payments_salon_created_idx").on(t.salonId, t.createdAt),
    // Deleting an account sets these to null: found by these indexes.
    index("payments_created_by_idx").on(t.createdBy),
    index("payments_waived_by_idx").on(t.waivedBy),
    check("payments_kind_valid", sql`${t.kind} in (${sqlList(paymentKinds)})`),
    check("payments_status_valid", sql`${t.status} in (${sqlList(paymentRowStatuses)})`),
    check("payments_amount_range", sql`${t.amount} >= 0`),
    check("payments_refund_of", sql`(${t.kind} = 'refund') = (${t.refundOf} is not null)`),
  ],
);

/**
 * Each provider webhook event, once (decision 0078): inserted in the
 * transaction of its effect, so a duplicate delivery finds its id taken and
 * changes nothing.
 */
export const paymentEvents = pgTable("payment_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});
