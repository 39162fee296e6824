/**
 * What a coupon takes off a booking's total, in yen, never more than the
 * total: an amount off, a percentage off (rounded down to the yen), or a
 * fixed price for the set (the difference, when the set costs more).
 */
export function couponDiscount(
  subtotal: number,
  coupon: { discountKind: string; discountValue: number },
): number {
  const off =
    coupon.discountKind === "amount"
      ? coupon.discountValue
      : coupon.discountKind === "percent"
        ? Math.floor((subtotal * coupon.discountValue) / 100)
        : coupon.discountKind === "fixed_price"
          ? subtotal - coupon.discountValue
          : 0;
  return Math.max(0, Math.min(subtotal, off));
}
