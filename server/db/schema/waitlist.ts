import { sql } from "drizzle-orm";
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { waitlistOfferStatusLabels, waitlistStatusLabels } from "../../../common/waitlist";
import { users } from "./accounts";
import { bookings } from "./bookings";
import { createdAt, id, sqlList, updatedAt } from "./common";
import { salons } from "./salons";
import { staff } from "./staff";

/**
 * The waiting list (キャンセル待ち; issue 30, points 4–5; decision 0055).
 *
 * An entry is a signed-in visitor's wish: these menus, this stylist or
 * 指名なし (staff_id null), one local date, a window of start times
 * [window_start, window_end) in minutes after midnight in the salon's zone.
 * Entries are served in order of created_at (then id). Status:
 * - waiting: in line;
 * - offered: holds an open offer (waitlist_offers) right now;
 * - booked: took an offer (or booked the wished time otherwise);
 * - left: the visitor left the list;
 * - lapsed: an offer was not taken in time (passed on to the next);
 * - expired: the date passed, or the salon can no longer offer it.
 */
export const waitlistStatuses = [
  "waiting",
  "offered",
  "booked",
  "left",
  "lapsed",
  "expired",
] as const;
export type WaitlistStatus = (typeof waitlistStatuses)[number];
/** Statuses of an entry still in line (they count toward the per-customer limit). */
export const liveWaitlistStatuses = [
  "waiting",
  "offered",
] as const satisfies readonly WaitlistStatus[];

export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The wished stylist; null = 指名なし (anyone who can do the menus). */
    staffId: uuid("staff_id"),
    /** The menus, in the visitor's order (1–5, as in the booking flow). */
    menuIds: uuid("menu_ids").array().notNull(),
    couponId: uuid("coupon_id"),
    date: date("date").notNull(),
    /** Earliest start wished, minutes after local midnight. */
    windowStart: smallint("window_start").notNull(),
    /** Latest start wished (exclusive), minutes after local midnight. */
    windowEnd: smallint("window_end").notNull(),
    status: text("status").$type<WaitlistStatus>().notNull().default("waiting"),
    /** The booking made from an offer, once taken. */
    bookingId: uuid("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    foreignKey({
      name: "waitlist_entries_staff_fk",
      columns: [t.staffId, t.salonId],
      foreignColumns: [staff.id, staff.salonId],
    }).onDelete("cascade"),
    // The matcher's read and the ledger's: a salon's live line on a date, in order.
    index("waitlist_entries_line_idx")
      .on(t.salonId, t.date, t.createdAt, t.id)
      .where(sql`${t.status} in (${sqlList(liveWaitlistStatuses)})`),
    index("waitlist_entries_user_idx").on(t.userId, t.createdAt.desc()),
    index("waitlist_entries_staff_idx")
      .on(t.staffId, t.salonId)
      .where(sql`${t.staffId} is not null`),
    index("waitlist_entries_booking_idx").on(t.bookingId).where(sql`${t.bookingId} is not null`),
    check("waitlist_entries_status_valid", sql`${t.status} in (${sqlList(waitlistStatuses)})`),
    check(
      "waitlist_entries_window_valid",
      sql`${t.windowStart} >= 0 and ${t.windowEnd} <= 1440 and ${t.windowStart} < ${t.windowEnd}`,
    ),
    check("waitlist_entries_menu_count", sql`cardinality(${t.menuIds}) between 1 and 5`),
  ],
);

/**
 * An offer of a freed time to the first in line: a hold (a `held` booking
 * of the entry's visitor, so the exclusion constraint keeps everyone else
 * off it) that expires at expires_at, after which the next in line is
 * offered the time. One open offer per entry.
 * Status: open → accepted (the hold was confirmed), lapsed (not taken in
 * time), withdrawn (the hold went: the visitor released it, the salon
 * changed the day).
 */
export const waitlistOfferStatuses = ["open", "accepted", "lapsed", "withdrawn"] as const;
export type WaitlistOfferStatus = (typeof waitlistOfferStatuses)[number];

export const waitlistOffers = pgTable(
  "waitlist_offers",
  {
    id: id(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => waitlistEntries.id, { onDelete: "cascade" }),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    /** The hold; the same row becomes the booking when the offer is taken. */
    holdId: uuid("hold_id").references(() => bookings.id, { onDelete: "set null" }),
    staffId: uuid("staff_id").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    status: text("status").$type<WaitlistOfferStatus>().notNull().default("open"),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("waitlist_offers_one_open_per_entry")
      .on(t.entryId)
      .where(sql`${t.status} = 'open'`),
    index("waitlist_offers_hold_idx").on(t.holdId).where(sql`${t.holdId} is not null`),
    index("waitlist_offers_entry_idx").on(t.entryId, t.createdAt),
    // The salon's offers (the ledger's waiting list); also serves the salon foreign key.
    index("waitlist_offers_salon_idx").on(t.salonId, t.startsAt),
    check("waitlist_offers_status_valid", sql`${t.status} in (${sqlList(waitlistOfferStatuses)})`),
    check("waitlist_offers_order", sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

// The labels (common/waitlist.ts) name every status: a new one cannot go unnamed.
waitlistStatuses satisfies readonly (keyof typeof waitlistStatusLabels)[];
waitlistOfferStatuses satisfies readonly (keyof typeof waitlistOfferStatusLabels)[];
