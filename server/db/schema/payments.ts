import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
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

/** Forward only: a row's status never moves to one ranked lower (or level but different). */
export const paymentStatusRank: Record<PaymentRowStatus, number> = {
  pending: 0,
  open: 1,
  succeeded: 2,
  expired: 2,
  failed: 2,
  refunded: 3,
  waived: 3,
};

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
    /**
     * A sender's claim on a pending fee or refund (decision 0084): the call to the provider is
     * under way until then; another sender (the retry job, 再試行) leaves the row alone.
     */
    sendingUntil: timestamp("sending_until", { withTimezone: true }),
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

/** What the daily reconciliation can find (issue 40 §3; decision 0081). */
export const discrepancyKinds = [
  /** The provider charged or refunded; we have no row that says so (a crash between the call and our commit). */
  "missing_here",
  /** Our row says charged or refunded; the provider knows no such object. */
  "missing_there",
  /** Both know it, with different yen. */
  "amount_mismatch",
  /** Both know it, in states that disagree (ours pending, theirs succeeded; or the reverse). */
  "status_mismatch",
] as const;
export type DiscrepancyKind = (typeof discrepancyKinds)[number];

export const discrepancyResolutions = [
  /** Moved forward by the reconciliation itself (the safe, unambiguous case). */
  "auto",
  /** Looked at and marked resolved by an administrator (audited). */
  "admin",
] as const;
export type DiscrepancyResolution = (typeof discrepancyResolutions)[number];

/**
 * A difference between our payments and the provider's, one row per kind
 * and provider object (decision 0081): a second run of the same day, or the
 * next day's lookback, finds the row and only refreshes `last_seen_at`.
 */
export const paymentDiscrepancies = pgTable(
  "payment_discrepancies",
  {
    id: id(),
    kind: text("kind").$type<DiscrepancyKind>().notNull(),
    /** "payment" (a PaymentIntent) or "refund". */
    providerObject: text("provider_object").$type<"payment" | "refund">().notNull(),
    /** pi_… or re_…: the provider's id (ours, for missing_there). */
    providerId: text("provider_id").notNull(),
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "set null" }),
    salonId: uuid("salon_id").references(() => salons.id, { onDelete: "set null" }),
    /** Yen as our row has it, and as the provider has it (null where one side has none). */
    ourAmount: integer("our_amount"),
    providerAmount: integer("provider_amount"),
    ourStatus: text("our_status"),
    providerStatus: text("provider_status"),
    /** What was found, and what the reconciliation did about it, in Japanese. */
    note: text("note").notNull(),
    /** The day (the installation's calendar) of the run that found it first. */
    foundOn: date("found_on").notNull(),
    foundAt: timestamp("found_at", { withTimezone: true }).notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolution: text("resolution").$type<DiscrepancyResolution>(),
    resolvedBy: text("resolved_by").references(() => users.id, { onDelete: "set null" }),
    resolutionNote: text("resolution_note"),
  },
  (t) => [
    unique("payment_discrepancies_subject").on(t.kind, t.providerId),
    index("payment_discrepancies_open_idx").on(t.resolvedAt, t.foundAt),
    index("payment_discrepancies_payment_idx").on(t.paymentId),
    index("payment_discrepancies_salon_idx").on(t.salonId),
    index("payment_discrepancies_resolved_by_idx").on(t.resolvedBy),
    check("payment_discrepancies_kind_valid", sql`${t.kind} in (${sqlList(discrepancyKinds)})`),
    check(
      "payment_discrepancies_resolution",
      sql`(${t.resolvedAt} is null) = (${t.resolution} is null) and (${t.resolution} is null or ${t.resolution} in (${sqlList(discrepancyResolutions)}))`,
    ),
  ],
);

/** One row per reconciled day: when it last ran and what it saw (a re-run updates it). */
export const paymentReconciliations = pgTable("payment_reconciliations", {
  day: date("day").primaryKey(),
  /** The provider's objects created in [range_from, range_before) were listed. */
  rangeFrom: timestamp("range_from", { withTimezone: true }).notNull(),
  rangeBefore: timestamp("range_before", { withTimezone: true }).notNull(),
  paymentsChecked: integer("payments_checked").notNull(),
  refundsChecked: integer("refunds_checked").notNull(),
  found: integer("found").notNull(),
  fixed: integer("fixed").notNull(),
  ranAt: timestamp("ran_at", { withTimezone: true }).notNull(),
});
