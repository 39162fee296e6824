import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  smallint,
  text,
  time,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
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
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index("staff_salon_idx").on(t.salonId, t.sortOrder),
    check("staff_years_nonnegative", sql`${t.yearsOfExperience} >= 0`),
  ],
);

/** The weekly pattern a stylist works (local time of the salon). */
export const staffShifts = pgTable(
  "staff_shifts",
  {
    id: id(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    weekday: smallint("weekday").notNull(),
    startsAt: time("starts_at").notNull(),
    endsAt: time("ends_at").notNull(),
  },
  (t) => [
    unique("staff_shifts_staff_weekday_unique").on(t.staffId, t.weekday),
    check("staff_shifts_weekday_range", sql`${t.weekday} between 0 and 6`),
    check("staff_shifts_order", sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

/** Exceptions to the weekly pattern: days off, training, holidays. */
export const staffTimeOff = pgTable(
  "staff_time_off",
  {
    id: id(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    reason: text("reason").notNull().default(""),
  },
  (t) => [
    index("staff_time_off_staff_idx").on(t.staffId, t.startsAt),
    check("staff_time_off_order", sql`${t.endsAt} > ${t.startsAt}`),
  ],
);
