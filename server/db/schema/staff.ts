import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./common";
import { salons } from "./salons";

export const staff = pgTable(
  "staff",
  {
    id: id(),
    slug: text("slug").notNull().unique(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kana: text("kana").notNull(),
    role: text("role").notNull(),
    photoUrl: text("photo_url").notNull().default(""),
    profile: text("profile").notNull().default(""),
    yearsOfExperience: integer("years_of_experience").notNull().default(0),
    specialties: text("specialties").array().notNull().default(sql`'{}'::text[]`),
    sortOrder: integer("sort_order").notNull().default(0),
    /** 指名料: yen added to the price when a visitor chooses this stylist (issue 29, point 3). */
    nominationFee: integer("nomination_fee").notNull().default(0),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index("staff_salon_idx").on(t.salonId, t.sortOrder),
    // Referenced by (staff_id, salon_id) from bookings and schedules: a
    // stylist of one salon can never be booked or scheduled for another.
    unique("staff_id_salon_unique").on(t.id, t.salonId),
    check("staff_years_nonnegative", sql`${t.yearsOfExperience} >= 0`),
    check("staff_nomination_fee_range", sql`${t.nominationFee} between 0 and 100000`),
  ],
);
