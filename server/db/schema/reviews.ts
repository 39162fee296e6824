import { sql } from "drizzle-orm";
import { check, date, index, pgTable, smallint, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { bookings } from "./bookings";
import { createdAt, id } from "./common";
import { salons } from "./salons";
import { staff } from "./staff";

export const reviews = pgTable(
  "reviews",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    /** Null for reviews imported without an account (demo data, migrated sites). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    bookingId: uuid("booking_id")
      .unique()
      .references(() => bookings.id, { onDelete: "set null" }),
    staffId: uuid("staff_id").references(() => staff.id, { onDelete: "set null" }),
    /** Shown instead of the account name, e.g. "20代後半・女性". */
    authorLabel: text("author_label").notNull(),
    rating: smallint("rating").notNull(),
    title: text("title").notNull().default(""),
    body: text("body").notNull(),
    visitedOn: date("visited_on").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("reviews_salon_idx").on(t.salonId, t.createdAt.desc()),
    // Foreign keys' other side: deleting an account or a stylist sets these to null.
    index("reviews_user_idx").on(t.userId).where(sql`${t.userId} is not null`),
    index("reviews_staff_idx").on(t.staffId).where(sql`${t.staffId} is not null`),
    check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
  ],
);
