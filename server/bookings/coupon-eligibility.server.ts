import { and, eq, inArray, sql } from "drizzle-orm";
import {
  type CouponLimits,
  type CouponUse,
  type CustomerHistory,
  couponRefusal,
  couponRefusalMessages,
} from "../../common/coupon-eligibility";
import type { Database } from "../db/client";
import { accountProfiles, coupons, users } from "../db/schema";
import { CouponNotApplicableError } from "./booking-errors";
import {
  chainCte,
  normalizedEmail,
  normalizedPhone,
  topOfMergeChain,
} from "./salon-customers.server";

/**
 * The person's history at a salon for its coupons (decision 0087), read
 * from the salon's customer records as the customers module merges them:
 * the account's own record, and any record with the account's phone number
 * or address that belongs to no other account (a customer who came by
 * phone is returning once their account carries that phone), each with the
 * records merged into it. Only the account's own data counts, never what
 * the browser sends: a typed phone number cannot make anyone "returning".
 */
export async function customerHistory(
  db: Pick<Database, "select" | "execute">,
  salonId: string,
  userId: string,
  /** The booking being asked about (a hold, a moved booking): it is no earlier visit. */
  exceptBookingId?: string,
): Promise<CustomerHistory> {
  const [account] = await db
    .select({ email: users.email, phone: accountProfiles.phone })
    .from(users)
    .leftJoin(accountProfiles, eq(accountProfiles.userId, users.id))
    .where(eq(users.id, userId));
  const phone = normalizedPhone(account?.phone ?? "");
  const email = account ? normalizedEmail(account.email) : "";
  const matched = (
    (await db.execute(sql`
      select c.id from salon_customers c
       where c.salon_id = ${salonId}
         and (c.user_id = ${userId}
           or (((${phone} <> '' and c.phone = ${phone}) or (${email} <> '' and c.email = ${email}))
               and (c.user_id is null or c.user_id = ${userId})))
       limit 50`)) as unknown as { rows: { id: string }[] }
  ).rows;
  const tops = [
    ...new Set(await Promise.all(matched.map((row) => topOfMergeChain(db, salonId, row.id)))),
  ];
  const person =
    tops.length > 0
      ? sql`(b.user_id = ${userId} or b.customer_id in (${chainCte(salonId, tops)} select id from chain))`
      : sql`b.user_id = ${userId}`;
  const except = exceptBookingId ? sql`and b.id <> ${exceptBookingId}` : sql``;
  const rows = (
    (await db.execute(sql`
      select coalesce(bool_or(b.status = 'completed'), false) as visited,
             coalesce(bool_or(b.status in ('confirmed', 'completed', 'no_show')), false) as booked,
             coalesce(array_agg(distinct b.coupon_id) filter (
               where b.coupon_id is not null and b.status in ('confirmed', 'completed', 'no_show')),
               '{}') as coupon_ids
        from bookings b
       where b.salon_id = ${salonId} and b.kind = 'booking' and ${person} ${except}`)) as unknown as {
      rows: { visited: boolean; booked: boolean; coupon_ids: string[] | string }[];
    }
  ).rows;
  const row = rows[0];
  return {
    visited: row?.visited === true,
    booked: row?.booked === true,
    usedCouponIds: new Set(uuidArray(row?.coupon_ids)),
  };
}

/** A uuid[] as either engine's driver gives it (an array, or "{a,b}" text). */
function uuidArray(value: string[] | string | undefined): string[] {
  if (!value) return [];
  if (Array.isArray(value)) return value;
  return value
    .replace(/^\{|\}$/g, "")
    .split(",")
    .filter(Boolean);
}

/** The coupon's limits as the rules take them. */
export const limitsOf = (coupon: typeof coupons.$inferSelect): CouponLimits => ({
  target: coupon.target,
  oncePerCustomer: coupon.oncePerCustomer,
  weekdays: coupon.weekdays,
  fromMinute: coupon.fromMinute,
  untilMinute: coupon.untilMinute,
  staffId: coupon.staffId,
  studentOnly: coupon.studentOnly,
});

/** Throws CouponNotApplicableError with the rule's Japanese message when the coupon is refused. */
export function requireCouponFits(coupon: typeof coupons.$inferSelect, use: CouponUse) {
  const refusal = couponRefusal(limitsOf(coupon), use);
  if (refusal) throw new CouponNotApplicableError(couponRefusalMessages[refusal], refusal);
}

/**
 * At confirm: the hold's coupon checked again with the person known (the
 * account confirming) and the 学割 statement, in the confirming transaction.
 */
export async function recheckCouponAtConfirm(
  tx: Pick<Database, "select" | "execute">,
  hold: {
    id: string;
    salonId: string;
    couponId: string | null;
    staffId: string;
    staffRequested: boolean;
    startsAt: Date;
  },
  userId: string,
  studentDeclared: boolean,
  local: { weekday: number; minutes: number },
) {
  if (!hold.couponId) return;
  const [coupon] = await tx
    .select()
    .from(coupons)
    .where(and(eq(coupons.id, hold.couponId), inArray(coupons.salonId, [hold.salonId])));
  if (!coupon) throw new CouponNotApplicableError();
  requireCouponFits(coupon, {
    couponId: coupon.id,
    history: await customerHistory(tx, hold.salonId, userId, hold.id),
    local,
    requestedStaffId: hold.staffRequested ? hold.staffId : null,
    studentDeclared,
  });
}
