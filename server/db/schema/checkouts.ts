import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import {
  type CheckoutLineKind,
  type CheckoutMethod,
  checkoutBounds,
  checkoutLineKinds,
  checkoutMethods,
  type PaymentMethod,
  paymentMethods,
} from "../../../common/checkout";
import { users } from "./accounts";
import { bookings } from "./bookings";
import { createdAt, id, sqlList, updatedAt } from "./common";
import { salons } from "./salons";

const n = (value: number) => sql.raw(String(value));

/** The salon's retail items (店販) sold at the counter (issue 40, §4; decision 0079). */
export const products = pgTable(
  "products",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Yen, tax included. */
    price: integer("price").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("products_salon_idx").on(t.salonId, t.name),
    unique("products_id_salon_unique").on(t.id, t.salonId),
    check(
      "products_price_range",
      sql`${t.price} between ${n(checkoutBounds.productPrice.min)} and ${n(checkoutBounds.productPrice.max)}`,
    ),
    check(
      "products_name_length",
      sql`char_length(${t.name}) between 1 and ${n(checkoutBounds.productName.max)}`,
    ),
  ],
);

/**
 * What a visit was actually paid at the counter (会計): one per booking (a
 * second is refused), written in the transaction that completes the visit.
 * The amounts are the server's: total = subtotal − discount, tax is the
 * 10 % inside the total rounded down.
 */
export const checkouts = pgTable(
  "checkouts",
  {
    id: id(),
    salonId: uuid("salon_id").notNull(),
    bookingId: uuid("booking_id").notNull(),
    subtotal: integer("subtotal").notNull(),
    discount: integer("discount").notNull().default(0),
    total: integer("total").notNull(),
    tax: integer("tax").notNull(),
    method: text("method").$type<CheckoutMethod>().notNull(),
    /** Cash handed over and change given; null when no part was paid in cash. */
    cashReceived: integer("cash_received"),
    change: integer("change"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("checkouts_booking_unique").on(t.salonId, t.bookingId),
    unique("checkouts_id_salon_unique").on(t.id, t.salonId),
    foreignKey({
      name: "checkouts_booking_fk",
      columns: [t.bookingId, t.salonId],
      foreignColumns: [bookings.id, bookings.salonId],
    }).onDelete("cascade"),
    index("checkouts_salon_idx").on(t.salonId, t.createdAt),
    // Deleting an account sets its checkouts' created_by to null: found by this index.
    index("checkouts_created_by_idx").on(t.createdBy),
    check("checkouts_method_valid", sql`${t.method} in (${sqlList(checkoutMethods)})`),
    check("checkouts_discount_range", sql`${t.discount} between 0 and ${t.subtotal}`),
    check("checkouts_total_sum", sql`${t.total} = ${t.subtotal} - ${t.discount}`),
    check("checkouts_total_range", sql`${t.total} between 0 and ${n(checkoutBounds.total.max)}`),
    check("checkouts_tax_included", sql`${t.tax} = floor(${t.total} * 10 / 110)`),
    check(
      "checkouts_cash_change",
      sql`(${t.cashReceived} is null) = (${t.change} is null) and (${t.change} is null or ${t.change} >= 0)`,
    ),
  ],
);

/** The lines of a 会計: menus as done, 指名料, retail items; amount = unit price × quantity. */
export const checkoutLines = pgTable(
  "checkout_lines",
  {
    salonId: uuid("salon_id").notNull(),
    checkoutId: uuid("checkout_id").notNull(),
    position: smallint("position").notNull(),
    kind: text("kind").$type<CheckoutLineKind>().notNull(),
    /** What the line was (a menu's or product's id); null for 指名料. Not a reference: a retired one stays. */
    itemId: uuid("item_id"),
    name: text("name").notNull(),
    /** The booked price of a menu line (what was changed at the counter shows against it). */
    listPrice: integer("list_price").notNull(),
    unitPrice: integer("unit_price").notNull(),
    quantity: smallint("quantity").notNull().default(1),
    amount: integer("amount").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.salonId, t.checkoutId, t.position] }),
    foreignKey({
      name: "checkout_lines_checkout_fk",
      columns: [t.checkoutId, t.salonId],
      foreignColumns: [checkouts.id, checkouts.salonId],
    }).onDelete("cascade"),
    check("checkout_lines_kind_valid", sql`${t.kind} in (${sqlList(checkoutLineKinds)})`),
    check(
      "checkout_lines_price_range",
      sql`${t.unitPrice} between ${n(checkoutBounds.linePrice.min)} and ${n(checkoutBounds.linePrice.max)}`,
    ),
    check(
      "checkout_lines_quantity_range",
      sql`${t.quantity} between ${n(checkoutBounds.quantity.min)} and ${n(checkoutBounds.quantity.max)}`,
    ),
    check("checkout_lines_amount", sql`${t.amount} = ${t.unitPrice} * ${t.quantity}`),
  ],
);

/** How a 会計 was paid: one row per method; the rows add up to the total (checked by the server). */
export const checkoutPayments = pgTable(
  "checkout_payments",
  {
    salonId: uuid("salon_id").notNull(),
    checkoutId: uuid("checkout_id").notNull(),
    method: text("method").$type<PaymentMethod>().notNull(),
    amount: integer("amount").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.salonId, t.checkoutId, t.method] }),
    foreignKey({
      name: "checkout_payments_checkout_fk",
      columns: [t.checkoutId, t.salonId],
      foreignColumns: [checkouts.id, checkouts.salonId],
    }).onDelete("cascade"),
    check("checkout_payments_method_valid", sql`${t.method} in (${sqlList(paymentMethods)})`),
    check("checkout_payments_amount_positive", sql`${t.amount} > 0`),
  ],
);
