/** How a coupon discounts: the values of coupons.discount_kind, which the schema takes from here. */
export const couponDiscountKinds = ["amount", "percent", "fixed_price"] as const;
export type CouponDiscountKind = (typeof couponDiscountKinds)[number];

export type CouponTerms = {
  discountKind: CouponDiscountKind;
  discountValue: number;
  /** The menus the coupon is for; empty: the whole booking. */
  menuIds: readonly string[];
};

type PricedMenu = { id: string; price: number };

/**
 * The price of a booking in yen with a coupon applied (pure, integer yen).
 * The discount applies to the coupon's menus among the chosen ones, or to
 * the whole booking when the coupon names no menu:
 * - amount: that many yen off (never below zero);
 * - percent: that share off, the discount rounded down to whole yen;
 * - fixed_price: those menus together cost the coupon's price (never more
 *   than without the coupon).
 * Returns null when the coupon names menus and none of them was chosen.
 * In common/ because the booking pages show the same price before the hold.
 */
export function priceWithCoupon(menus: readonly PricedMenu[], coupon: CouponTerms): number | null {
  const total = menus.reduce((sum, menu) => sum + menu.price, 0);
  const covered =
    coupon.menuIds.length === 0 ? menus : menus.filter((menu) => coupon.menuIds.includes(menu.id));
  if (covered.length === 0) return null;
  const subtotal = covered.reduce((sum, menu) => sum + menu.price, 0);
  const rest = total - subtotal;
  switch (coupon.discountKind) {
    case "amount":
      return rest + Math.max(0, subtotal - coupon.discountValue);
    case "percent":
      return rest + subtotal - Math.floor((subtotal * coupon.discountValue) / 100);
    case "fixed_price":
      return rest + Math.min(subtotal, coupon.discountValue);
  }
}
