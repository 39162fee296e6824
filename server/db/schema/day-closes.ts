import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { type DayCloseStatus, dayCloseBounds, dayCloseStatuses } from "../../../common/day-close";
import { users } from "./accounts";
import { sqlList } from "./common";
import { salons } from "./salons";

const n = (value: number) => sql.raw(String(value));

/**
 * 日計 (end of day; issue 40 §4, decision 0082): one row per salon and local
 * date, written when a manager closes the day. The figures are those the
 * server added up from the day's 会計 at the moment of closing (a snapshot:
 * the page compares it with the day as it is now); the cash counted and the
 * opening float are what the manager entered. Reopening keeps the row with
 * status 'reopened'; closing again overwrites the figures. Both are audited.
 */
export const dayCloses = pgTable(
  "day_closes",
  {
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    /** The salon's local date. */
    date: date("date", { mode: "string" }).notNull(),
    status: text("status").$type<DayCloseStatus>().notNull(),
    checkoutCount: integer("checkout_count").notNull(),
    salesTotal: integer("sales_total").notNull(),
    /** By method, a 組み合わせ split into its parts. */
    cashAmount: integer("cash_amount").notNull(),
    cardAmount: integer("card_amount").notNull(),
    qrAmount: integer("qr_amount").notNull(),
    prepaidAmount: integer("prepaid_amount").notNull(),
    /** お預かり and お釣り of the day's cash 会計 (their difference is cash_amount). */
    cashReceived: integer("cash_received").notNull(),
    changeGiven: integer("change_given").notNull(),
    /** Online refunds made that day (not from the drawer): shown, not counted in the cash. */
    refundCount: integer("refund_count").notNull(),
    refundAmount: integer("refund_amount").notNull(),
    /** 釣銭準備金, entered. */
    openingFloat: integer("opening_float").notNull(),
    /** opening_float + cash_amount. */
    expectedCash: integer("expected_cash").notNull(),
    /** 実際の現金, entered. */
    countedCash: integer("counted_cash").notNull(),
    /** 過不足: counted − expected. */
    difference: integer("difference").notNull(),
    note: text("note").notNull().default(""),
    closedBy: text("closed_by").references(() => users.id, { onDelete: "set null" }),
    closedAt: timestamp("closed_at", { withTimezone: true }).notNull(),
    reopenedBy: text("reopened_by").references(() => users.id, { onDelete: "set null" }),
    reopenedAt: timestamp("reopened_at", { withTimezone: true }),
  },
  (t) => [
    // One 日計 per salon and day: two managers closing at once meet here.
    primaryKey({ name: "day_closes_pkey", columns: [t.salonId, t.date] }),
    // Deleting an account sets these to null: found by these indexes.
    index("day_closes_closed_by_idx").on(t.closedBy),
    index("day_closes_reopened_by_idx").on(t.reopenedBy),
    check("day_closes_status_valid", sql`${t.status} in (${sqlList(dayCloseStatuses)})`),
    check(
      "day_closes_amounts_nonnegative",
      sql`${t.checkoutCount} >= 0 and ${t.salesTotal} >= 0 and ${t.cashAmount} >= 0 and ${t.cardAmount} >= 0 and ${t.qrAmount} >= 0 and ${t.prepaidAmount} >= 0 and ${t.cashReceived} >= 0 and ${t.changeGiven} >= 0 and ${t.refundCount} >= 0 and ${t.refundAmount} >= 0`,
    ),
    check(
      "day_closes_methods_sum",
      sql`${t.salesTotal} = ${t.cashAmount} + ${t.cardAmount} + ${t.qrAmount} + ${t.prepaidAmount}`,
    ),
    check(
      "day_closes_float_range",
      sql`${t.openingFloat} between 0 and ${n(dayCloseBounds.openingFloat.max)}`,
    ),
    check(
      "day_closes_counted_range",
      sql`${t.countedCash} between 0 and ${n(dayCloseBounds.countedCash.max)}`,
    ),
    check("day_closes_expected_sum", sql`${t.expectedCash} = ${t.openingFloat} + ${t.cashAmount}`),
    check("day_closes_difference", sql`${t.difference} = ${t.countedCash} - ${t.expectedCash}`),
    check("day_closes_note_length", sql`char_length(${t.note}) <= ${n(dayCloseBounds.note.max)}`),
    check("day_closes_reopened", sql`${t.status} = 'closed' or ${t.reopenedAt} is not null`),
  ],
);
