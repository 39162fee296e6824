import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import type { PolicySnapshot } from "../../../common/payment-policy";
import { users } from "./accounts";
import { createdAt, id, sqlList, updatedAt } from "./common";
import { coupons, menus } from "./menus";
import { salons } from "./salons";
import { staff } from "./staff";

/**
 * Every status a booking can have, written once: the check constraint is
 * built from this list and the exclusion constraint's WHERE clause (hand
 * written in migration 0004) is compared with occupyingStatuses by a test.
 */
export const bookingStatuses = [
  "held",
  "confirmed",
  "cancelled_by_user",
  "cancelled_by_salon",
  "completed",
  "no_show",
] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/** Statuses that occupy the stylist's time: a live hold occupies it exactly like a booking. */
export const occupyingStatuses = [
  "held",
  "confirmed",
  "completed",
] as const satisfies readonly BookingStatus[];

/** How a booking came in: the web flow now; the owner's ledger later. */
export const bookingSources = ["web", "phone", "walk_in"] as const;
export type BookingSource = (typeof bookingSources)[number];

export const cancelledByValues = ["user", "salon", "system"] as const;
export type CancelledBy = (typeof cancelledByValues)[number];

/** Approval mode's states of a web booking (issue 29, point 4; decision 0048). */
export const bookingApprovals = ["pending", "approved", "refused"] as const;
export type BookingApproval = (typeof bookingApprovals)[number];

/**
 * A row of the ledger is a customer's booking, or time the salon blocked
 * for a stylist (休憩, 打ち合わせ, 研修): a block has no customer and no
 * menus, and occupies the stylist through the same exclusion constraint.
 */
export const bookingKinds = ["booking", "block"] as const;
export type BookingKind = (typeof bookingKinds)[number];

/**
 * Why a cancellation the salon enters happened (decisions 0040, 0065):
 * お客様都合（事前連絡） / お客様都合（当日連絡） / 無断キャンセル are the
 * customer's (status cancelled_by_user), サロン都合 the salon's own
 * (cancelled_by_salon). cancelled_by still says who entered it.
 */
export const salonCancelCategories = [
  "customer_advance",
  "customer_same_day",
  "no_contact",
  "salon",
] as const;
export type SalonCancelCategory = (typeof salonCancelCategories)[number];

/**
 * A reservation of one stylist's time (docs/decisions/0009-booking-data-model.md).
 * Double booking is prevented by the exclusion constraint
 * `bookings_staff_no_overlap` (migration 0004, drizzle-kit cannot express
 * it): no two rows in an occupying status may overlap on
 * [starts_at, occupied_until) for the same salon and stylist.
 */
export const bookings = pgTable(
  "bookings",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id),
    kind: text("kind").$type<BookingKind>().notNull().default("booking"),
    /** Null for a phone or walk-in booking without an account, and for a block. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Always belongs to salon_id: composite foreign key bookings_staff_fk. */
    staffId: uuid("staff_id").notNull(),
    /** False when the visitor chose 指名なし and the server assigned the stylist. */
    staffRequested: boolean("staff_requested").notNull().default(true),
    couponId: uuid("coupon_id").references(() => coupons.id),
    /** Shown to the customer as XXXX-XXXX: random Crockford base32, reveals no volume. */
    bookingNumber: text("booking_number").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** ends_at plus the salon's buffer at booking time; the exclusion constraint uses it. */
    occupiedUntil: timestamp("occupied_until", { withTimezone: true }).notNull(),
    /**
     * starts_at minus the salon's buffer before at booking time (issue 29,
     * point 4); null means starts_at. The exclusion constraint uses it.
     */
    occupiedFrom: timestamp("occupied_from", { withTimezone: true }),
    /** 指名料 in yen included in total_price, fixed at booking time. */
    nominationFee: integer("nomination_fee").notNull().default(0),
    /**
     * Approval mode (仮予約): "pending" while a web booking waits for the
     * salon, then "approved" or "refused" (refused bookings are cancelled by
     * the salon); null when the salon did not ask for approval.
     */
    approval: text("approval").$type<BookingApproval>(),
    /**
     * When a pending request lapses if the salon has not answered (decision
     * 0071): set with approval 'pending', kept afterwards as what was promised.
     */
    approvalExpiresAt: timestamp("approval_expires_at", { withTimezone: true }),
    /** Yen charged, fixed at booking time so later menu price changes do not alter it. */
    totalPrice: integer("total_price").notNull(),
    /**
     * The salon's payment and cancellation policy as the visitor agreed to it
     * (issue 40; decision 0075), with this booking's amounts and windows;
     * written in the confirming transaction, never changed by the salon's
     * later policy. Null: no policy was in force (or not a web booking).
     */
    paymentPolicy: jsonb("payment_policy").$type<PolicySnapshot>(),
    status: text("status").$type<BookingStatus>().notNull().default("confirmed"),
    /** Set exactly while status is held. */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }),
    /**
     * A guest's hold: SHA-256 of the random key in the cookie of the browser
     * that made it, so only that browser sees and claims it (decision 0016).
     */
    holderKeyHash: text("holder_key_hash"),
    /**
     * A guest's hold: the client address it came from, so live guest holds
     * can be counted per address (decision 0034). Kept only while the row
     * is a guest's hold (a check); claiming clears it.
     */
    holderIp: text("holder_ip"),
    source: text("source").$type<BookingSource>().notNull().default("web"),
    customerName: text("customer_name").notNull().default(""),
    customerKana: text("customer_kana").notNull().default(""),
    customerPhone: text("customer_phone").notNull().default(""),
    customerEmail: text("customer_email").notNull().default(""),
    notes: text("notes").notNull().default(""),
    /** 学割: the visitor stated on the confirm step that they are a student (shown to the salon). */
    studentDeclared: boolean("student_declared").notNull().default(false),
    /** A customer's key for "submit once": the same key returns the same booking (per user). */
    idempotencyKey: text("idempotency_key"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelledBy: text("cancelled_by").$type<CancelledBy>(),
    cancelReason: text("cancel_reason").notNull().default(""),
    /** Set when the salon cancelled: which of salonCancelCategories. */
    cancelCategory: text("cancel_category").$type<SalonCancelCategory>(),
    /** The salon's own note on this booking; never shown to the customer. */
    salonNote: text("salon_note").notNull().default(""),
    /** When the salon marked the customer arrived (来店). */
    arrivedAt: timestamp("arrived_at", { withTimezone: true }),
    /**
     * The customer record of this salon the booking belongs to (顧客カルテ);
     * null for holds and blocks. Composite key: always the same salon.
     */
    customerId: uuid("customer_id"),
    /**
     * Bumped by every change of the row's time, stylist, menus or status:
     * an action names the version it saw and is refused if the booking
     * changed meanwhile; the .ics of a move carries it as SEQUENCE.
     */
    version: integer("version").notNull().default(0),
    /** For the reminder job: set when the day-before mail went out. */
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    foreignKey({
      name: "bookings_staff_fk",
      columns: [t.staffId, t.salonId],
      foreignColumns: [staff.id, staff.salonId],
    }),
    foreignKey({
      name: "bookings_customer_fk",
      columns: [t.customerId, t.salonId],
      foreignColumns: [salonCustomers.id, salonCustomers.salonId],
    }),
    index("bookings_customer_idx")
      .on(t.salonId, t.customerId)
      .where(sql`${t.customerId} is not null`),
    check("bookings_kind_valid", sql`${t.kind} in (${sqlList(bookingKinds)})`),
    check(
      "bookings_block_has_no_customer",
      sql`${t.kind} = 'booking' or (${t.userId} is null and ${t.customerId} is null and ${t.status} <> 'held')`,
    ),
    check(
      "bookings_cancel_category_valid",
      sql`${t.cancelCategory} is null or ${t.cancelCategory} in (${sqlList(salonCancelCategories)})`,
    ),
    // Referenced by (booking_id, salon_id) from booking_menus.
    unique("bookings_id_salon_unique").on(t.id, t.salonId),
    unique("bookings_salon_number_unique").on(t.salonId, t.bookingNumber),
    // A key belongs to its user (migration 0017): two customers may pick the
    // same key. Led by the salon like every unique constraint here (decision
    // 0009, distribution by salon); the same key at another salon is refused
    // by confirmBookingOnce under its per-user lock.
    unique("bookings_salon_user_idempotency_unique").on(t.salonId, t.userId, t.idempotencyKey),
    index("bookings_user_idx").on(t.userId, t.startsAt.desc()),
    index("bookings_salon_idx").on(t.salonId, t.startsAt),
    index("bookings_staff_idx").on(t.salonId, t.staffId, t.startsAt),
    // Foreign keys' other side: a coupon's deletion checks its bookings through it.
    index("bookings_coupon_idx").on(t.couponId).where(sql`${t.couponId} is not null`),
    index("bookings_hold_expiry_idx").on(t.holdExpiresAt).where(sql`${t.status} = 'held'`),
    // Live holds counted per browser and per guest address (decision 0034).
    index("bookings_hold_browser_idx")
      .on(t.holderKeyHash)
      .where(sql`${t.holderKeyHash} is not null`),
    index("bookings_guest_hold_ip_idx").on(t.holderIp).where(sql`${t.holderIp} is not null`),
    check("bookings_time_order", sql`${t.endsAt} > ${t.startsAt}`),
    check("bookings_occupied_after_end", sql`${t.occupiedUntil} >= ${t.endsAt}`),
    check(
      "bookings_occupied_from_before_start",
      sql`${t.occupiedFrom} is null or (${t.occupiedFrom} <= ${t.startsAt} and ${t.occupiedFrom} >= ${t.startsAt} - interval '4 hours')`,
    ),
    check("bookings_nomination_fee_nonnegative", sql`${t.nominationFee} >= 0`),
    check(
      "bookings_approval_valid",
      sql`${t.approval} is null or ${t.approval} in (${sqlList(bookingApprovals)})`,
    ),
    // Pending approval bookings are confirmed rows that occupy the time; only the salon's answer changes them.
    index("bookings_pending_approval_idx")
      .on(t.salonId, t.startsAt)
      .where(sql`${t.approval} = 'pending'`),
    // Lets a query bound a stylist's bookings from below by start time (the
    // availability function, migration 0015): without it, every booking
    // ever made could still reach into the range. A service fits one day's
    // working hours and the buffer is at most 240 minutes, so two days is
    // out of reach of any real booking.
    check("bookings_span_bounded", sql`${t.occupiedUntil} <= ${t.startsAt} + interval '2 days'`),
    check("bookings_total_price_nonnegative", sql`${t.totalPrice} >= 0`),
    check("bookings_status_valid", sql`${t.status} in (${sqlList(bookingStatuses)})`),
    check("bookings_source_valid", sql`${t.source} in (${sqlList(bookingSources)})`),
    check(
      "bookings_cancelled_by_valid",
      sql`${t.cancelledBy} is null or ${t.cancelledBy} in (${sqlList(cancelledByValues)})`,
    ),
    check(
      "bookings_holder_ip_only_guest_holds",
      sql`${t.holderIp} is null or (${t.status} = 'held' and ${t.userId} is null)`,
    ),
    check(
      "bookings_hold_expiry_iff_held",
      sql`(${t.status} = 'held') = (${t.holdExpiresAt} is not null)`,
    ),
    check(
      "bookings_number_format",
      sql`${t.bookingNumber} ~ '^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$'`,
    ),
  ],
);

/** The menus of a booking, in order, with the price and duration they had when booked. */
export const bookingMenus = pgTable(
  "booking_menus",
  {
    salonId: uuid("salon_id").notNull(),
    bookingId: uuid("booking_id").notNull(),
    position: smallint("position").notNull(),
    menuId: uuid("menu_id").notNull(),
    name: text("name").notNull(),
    price: integer("price").notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.salonId, t.bookingId, t.position] }),
    foreignKey({
      name: "booking_menus_booking_fk",
      columns: [t.bookingId, t.salonId],
      foreignColumns: [bookings.id, bookings.salonId],
    }).onDelete("cascade"),
    foreignKey({
      name: "booking_menus_menu_fk",
      columns: [t.menuId, t.salonId],
      foreignColumns: [menus.id, menus.salonId],
    }),
    index("booking_menus_menu_idx").on(t.salonId, t.menuId),
    check("booking_menus_position_nonnegative", sql`${t.position} >= 0`),
    check("booking_menus_price_nonnegative", sql`${t.price} >= 0`),
    check("booking_menus_duration_positive", sql`${t.durationMinutes} > 0`),
  ],
);

export const favorites = pgTable(
  "favorites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.salonId] }),
    index("favorites_salon_idx").on(t.salonId),
  ],
);

/**
 * A salon's customer (顧客カルテ): one row per person as this salon knows
 * them, made when a booking is confirmed or entered by the salon. Another
 * salon never sees it. Merging two rows of the same person points one at the
 * other (merged_into_id) and moves nothing, so a merge is undone by
 * clearing it (decision 0039).
 */
export const salonCustomers = pgTable(
  "salon_customers",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    /** The account, when the customer booked with one. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull().default(""),
    kana: text("kana").notNull().default(""),
    /** Digits only, as common/ normalizes phone numbers; "" when unknown. */
    phone: text("phone").notNull().default(""),
    /** Lower case; "" when unknown. */
    email: text("email").notNull().default(""),
    /** The salon's private notes (never shown to the customer). */
    notes: text("notes").notNull().default(""),
    mergedIntoId: uuid("merged_into_id"),
    mergedAt: timestamp("merged_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("salon_customers_id_salon_unique").on(t.id, t.salonId),
    foreignKey({
      name: "salon_customers_merged_into_fk",
      columns: [t.mergedIntoId, t.salonId],
      foreignColumns: [t.id, t.salonId],
    }),
    index("salon_customers_merged_into_idx")
      .on(t.salonId, t.mergedIntoId)
      .where(sql`${t.mergedIntoId} is not null`),
    index("salon_customers_user_idx").on(t.userId).where(sql`${t.userId} is not null`),
    index("salon_customers_phone_idx").on(t.salonId, t.phone),
    index("salon_customers_email_idx").on(t.salonId, t.email),
    index("salon_customers_kana_idx").on(t.salonId, t.kana),
    check("salon_customers_not_merged_into_self", sql`${t.mergedIntoId} is distinct from ${t.id}`),
  ],
);

export const bookingEventKinds = [
  "created",
  "confirmed",
  "moved",
  "menus_changed",
  "arrived",
  "completed",
  "no_show",
  "cancelled",
  "note_changed",
  /** The salon took back its 来店, 施術完了 or 無断キャンセル the same day (details.undid). */
  "undone",
] as const;
export type BookingEventKind = (typeof bookingEventKinds)[number];

export const bookingActorKinds = ["customer", "salon", "system"] as const;
export type BookingActorKind = (typeof bookingActorKinds)[number];

/**
 * A booking's history (made, moved, cancelled…: who and when), written in
 * the same transaction as the change it records; also the back office's
 * notices (a new booking, a cancellation, a move by the customer).
 */
export const bookingEvents = pgTable(
  "booking_events",
  {
    id: id(),
    salonId: uuid("salon_id").notNull(),
    bookingId: uuid("booking_id").notNull(),
    kind: text("kind").$type<BookingEventKind>().notNull(),
    actorKind: text("actor_kind").$type<BookingActorKind>().notNull(),
    /** The account that acted; null for the system or a deleted account. */
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** What changed: from/to times, stylists, menus, the cancel category… */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({
      name: "booking_events_booking_fk",
      columns: [t.bookingId, t.salonId],
      foreignColumns: [bookings.id, bookings.salonId],
    }).onDelete("cascade"),
    index("booking_events_booking_idx").on(t.salonId, t.bookingId, t.createdAt),
    index("booking_events_salon_recent_idx").on(t.salonId, t.createdAt),
    index("booking_events_actor_idx").on(t.actorUserId).where(sql`${t.actorUserId} is not null`),
    check("booking_events_kind_valid", sql`${t.kind} in (${sqlList(bookingEventKinds)})`),
    check("booking_events_actor_valid", sql`${t.actorKind} in (${sqlList(bookingActorKinds)})`),
  ],
);
