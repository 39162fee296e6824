import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { createdAt, id, updatedAt } from "./common";
import { coupons, menus } from "./menus";
import { salons } from "./salons";
import { staff } from "./staff";

export const bookingStatuses = [
  "confirmed",
  "cancelled_by_user",
  "cancelled_by_salon",
  "completed",
  "no_show",
] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/**
 * A reservation of one stylist's time. Double booking is prevented by the
 * exclusion constraint `bookings_staff_no_overlap` (added in migration
 * 0001, drizzle-kit cannot express it): no two bookings that still hold
 * time (confirmed or completed) may overlap for the same staff member.
 */
export const bookings = pgTable(
  "bookings",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id),
    /** False when the visitor chose "no preference" and the salon's stylist was assigned. */
    staffRequested: boolean("staff_requested").notNull().default(true),
    couponId: uuid("coupon_id").references(() => coupons.id),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** Yen charged, fixed at booking time so later menu price changes do not alter it. */
    totalPrice: integer("total_price").notNull(),
    status: text("status").$type<BookingStatus>().notNull().default("confirmed"),
    notes: text("notes").notNull().default(""),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("bookings_user_idx").on(t.userId, t.startsAt.desc()),
    index("bookings_salon_idx").on(t.salonId, t.startsAt),
    index("bookings_staff_idx").on(t.staffId, t.startsAt),
    check("bookings_time_order", sql`${t.endsAt} > ${t.startsAt}`),
    check("bookings_total_price_nonnegative", sql`${t.totalPrice} >= 0`),
    check(
      "bookings_status_valid",
      sql`${t.status} in ('confirmed', 'cancelled_by_user', 'cancelled_by_salon', 'completed', 'no_show')`,
    ),
  ],
);

/** The menus of a booking with the price and duration they had when booked. */
export const bookingMenus = pgTable(
  "booking_menus",
  {
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    menuId: uuid("menu_id")
      .notNull()
      .references(() => menus.id),
    name: text("name").notNull(),
    price: integer("price").notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.menuId] }),
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
