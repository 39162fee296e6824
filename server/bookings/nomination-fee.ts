import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { staff } from "../db/schema";

/**
 * 指名料 (decision 0047): what choosing a stylist adds to a booking, set per
 * stylist in the salon editor (staff.nomination_fee, 0–100,000 yen). Only a
 * stylist the visitor chose costs it: 指名なし, where the server assigns
 * one, costs nothing. A coupon discounts the menus only, never the fee,
 * so the booking's total is the menus' price (with the coupon) plus the fee.
 */
export async function nominationFeeFor(
  tx: Pick<Database, "select">,
  salonId: string,
  requestedStaffId: string | null,
): Promise<number> {
  if (requestedStaffId === null) return 0;
  const [row] = await tx
    .select({ fee: staff.nominationFee })
    .from(staff)
    .where(and(eq(staff.id, requestedStaffId), eq(staff.salonId, salonId)));
  return row?.fee ?? 0;
}
