import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import {
  type DepositKind,
  depositKinds,
  type PaymentMode,
  paymentModes,
  policyBounds,
} from "../../../common/payment-policy";
import { sqlList, updatedAt } from "./common";
import { salons } from "./salons";

/**
 * The salon's payment and cancellation policy (issue 40, §1; decision
 * 0075). No row: no online payment and no fees. The bounds are the form's
 * (common/payment-policy.ts), checked here too so no path can store more.
 * A booking keeps its own copy (bookings.payment_policy): changing this
 * row never changes a booking made before.
 */
export const salonPaymentPolicies = pgTable(
  "salon_payment_policies",
  {
    salonId: uuid("salon_id")
      .primaryKey()
      .references(() => salons.id, { onDelete: "cascade" }),
    mode: text("mode").$type<PaymentMode>().notNull().default("none"),
    /** Set exactly when mode is deposit: a percent of the booked amount, or yen. */
    depositKind: text("deposit_kind").$type<DepositKind>(),
    depositValue: integer("deposit_value"),
    sameDayPercent: integer("same_day_percent").notNull().default(0),
    dayBeforePercent: integer("day_before_percent").notNull().default(0),
    noShowPercent: integer("no_show_percent").notNull().default(0),
    /** Appended after the generated text; never the policy by itself. */
    note: text("note").notNull().default(""),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("salon_payment_policies_mode_valid", sql`${t.mode} in (${sqlList(paymentModes)})`),
    check(
      "salon_payment_policies_deposit_kind_valid",
      sql`${t.depositKind} is null or ${t.depositKind} in (${sqlList(depositKinds)})`,
    ),
    check(
      "salon_payment_policies_deposit_with_mode",
      sql`(${t.mode} = 'deposit') = (${t.depositKind} is not null and ${t.depositValue} is not null)`,
    ),
    check(
      "salon_payment_policies_deposit_range",
      sql`${t.depositValue} is null or (${t.depositKind} = 'percent' and ${t.depositValue} between ${sql.raw(String(policyBounds.depositPercent.min))} and ${sql.raw(String(policyBounds.depositPercent.max))}) or (${t.depositKind} = 'yen' and ${t.depositValue} between ${sql.raw(String(policyBounds.depositYen.min))} and ${sql.raw(String(policyBounds.depositYen.max))})`,
    ),
    check("salon_payment_policies_same_day_range", sql`${t.sameDayPercent} between 0 and 100`),
    check("salon_payment_policies_day_before_range", sql`${t.dayBeforePercent} between 0 and 100`),
    check("salon_payment_policies_no_show_range", sql`${t.noShowPercent} between 0 and 100`),
    check(
      "salon_payment_policies_note_length",
      sql`char_length(${t.note}) <= ${sql.raw(String(policyBounds.noteLength))}`,
    ),
  ],
);
