import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  pgTable,
  primaryKey,
  smallint,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { salons } from "./salons";

/**
 * Per salon and local date, the free start times of its shortest menu with
 * any stylist (docs/decisions/0014-search-by-free-time.md). A summary the
 * search filters on and the cards show, written only by
 * refreshSalonAvailability (server/bookings/free-days.server.ts) from the
 * availability engine; bookings stay the truth. Minutes count from local
 * midnight in the salon's time zone. Holds are not counted (they lapse on
 * their own), so a row may say free where a live hold sits: "maybe free".
 * salon_id first, as every table that grows with bookings (distribution by salon).
 */
export const salonFreeDays = pgTable(
  "salon_free_days",
  {
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    date: date("date").notNull(),
    /** Sorted free start minutes of the day (empty: full or closed). */
    freeMinutes: smallint("free_minutes").array().notNull(),
    /** First and last free start minute; null when none. */
    firstFreeMinute: smallint("first_free_minute"),
    lastFreeMinute: smallint("last_free_minute"),
    freeSlotsCount: smallint("free_slots_count").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.salonId, t.date] }),
    // The search's date filter: salons with a free start on one date.
    index("salon_free_days_date_free_idx")
      .on(t.date, t.salonId)
      .where(sql`${t.freeSlotsCount} > 0`),
    check(
      "salon_free_days_count_check",
      sql`${t.freeSlotsCount} = coalesce(array_length(${t.freeMinutes}, 1), 0)`,
    ),
  ],
);
