import type { CouponDiscountKind } from "../../common/coupon-pricing";
import { couponDiscountKinds } from "../db/schema";

// The pricing lives in common/ (the booking pages show prices before the hold);
// it must know every kind the database allows.
export const pricedDiscountKinds: readonly CouponDiscountKind[] = couponDiscountKinds;

export { type CouponTerms, priceWithCoupon } from "../../common/coupon-pricing";
