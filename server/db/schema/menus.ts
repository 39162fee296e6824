import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { type CouponTarget, couponTargets } from "../../../common/coupon-eligibility";
import type { couponDiscountKinds } from "../../../common/coupon-pricing";
import { createdAt, id, sqlList } from "./common";
import { salons } from "./salons";
import { staff } from "./staff";

export const menus = pgTable(
  "menus",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    category: text("category").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Yen, tax included. */
    price: integer("price").notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
    published: boolean("published").notNull().default(true),
    /**
     * Not paid online even when the salon asks for prepayment (issue 40, §1;
     * decision 0075): a booking with such a menu is paid at the salon.
     */
    prepaymentExempt: boolean("prepayment_exempt").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("menus_salon_idx").on(t.salonId, t.sortOrder),
    // Referenced by (menu_id, salon_id) from booking_menus.
    unique("menus_id_salon_unique").on(t.id, t.salonId),
    check("menus_price_nonnegative", sql`${t.price} >= 0`),
    check("menus_duration_positive", sql`${t.durationMinutes} > 0`),
  ],
);

/** Which stylists can perform a menu; a menu with no rows here can be done by anyone. */
export const menuStaff = pgTable(
  "menu_staff",
  {
    menuId: uuid("menu_id")
      .notNull()
      .references(() => menus.id, { onDelete: "cascade" }),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.menuId, t.staffId] }),
    index("menu_staff_staff_idx").on(t.staffId),
  ],
);

export const coupons = pgTable(
  "coupons",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    discountKind: text("discount_kind").$type<(typeof couponDiscountKinds)[number]>().notNull(),
    discountValue: integer("discount_value").notNull(),
    conditions: text("conditions").notNull().default(""),
    /**
     * Who may use it (issue 41, §4; decision 0087): 新規 (never visited the
     * salon), 再来 (visited before) or 全員, decided on the server from the
     * salon's customer records (common/coupon-eligibility.ts).
     */
    target: text("target").$type<CouponTarget>().notNull().default("all"),
    /** Once per customer: not for a person who booked with it before. */
    oncePerCustomer: boolean("once_per_customer").notNull().default(false),
    /** The weekdays of the visit it is valid on, a bit per day (1 = Sunday … 64 = Saturday). */
    weekdays: integer("weekdays").notNull().default(127),
    /** The visit's start in the salon's zone, minutes after midnight: [from, until); null: any time. */
    fromMinute: integer("from_minute"),
    untilMinute: integer("until_minute"),
    /** Only when this stylist is chosen (指名); null: any stylist. */
    staffId: uuid("staff_id"),
    /** 学割: the visitor states a student status on the confirm step (bookings.student_declared). */
    studentOnly: boolean("student_only").notNull().default(false),
    validFrom: date("valid_from").notNull(),
    validUntil: date("valid_until"),
    /** A booking with this coupon is paid at the salon, whatever the salon's payment mode. */
    prepaymentExempt: boolean("prepayment_exempt").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("coupons_salon_idx").on(t.salonId),
    // A stylist's coupons, for deleting a stylist without reading the table.
    index("coupons_staff_idx").on(t.staffId, t.salonId).where(sql`${t.staffId} is not null`),
    // A stylist of the same salon; a stylist named by a coupon is not deleted (salon-staff.server.ts).
    foreignKey({
      name: "coupons_staff_fk",
      columns: [t.staffId, t.salonId],
      foreignColumns: [staff.id, staff.salonId],
    }),
    check("coupons_target_valid", sql`${t.target} in (${sqlList(couponTargets)})`),
    check("coupons_weekdays_range", sql`${t.weekdays} between 1 and 127`),
    check(
      "coupons_hours_valid",
      sql`(${t.fromMinute} is null and ${t.untilMinute} is null) or (${t.fromMinute} >= 0 and ${t.fromMinute} < ${t.untilMinute} and ${t.untilMinute} <= 1440)`,
    ),
    check(
      "coupons_discount_kind_valid",
      sql`${t.discountKind} in ('amount', 'percent', 'fixed_price')`,
    ),
    check("coupons_discount_nonnegative", sql`${t.discountValue} >= 0`),
    check(
      "coupons_percent_range",
      sql`${t.discountKind} <> 'percent' or ${t.discountValue} between 1 and 100`,
    ),
    check(
      "coupons_validity_order",
      sql`${t.validUntil} is null or ${t.validUntil} >= ${t.validFrom}`,
    ),
  ],
);

export const couponMenus = pgTable(
  "coupon_menus",
  {
    couponId: uuid("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    menuId: uuid("menu_id")
      .notNull()
      .references(() => menus.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.couponId, t.menuId] }),
    // A menu's coupons (its deletion, and the foreign key's cascade) without reading them all.
    index("coupon_menus_menu_idx").on(t.menuId),
  ],
);
