import { describe, expect, it } from "vitest";
import { priceWithCoupon } from "./coupon-pricing";

const cut = { id: "cut", price: 5500 };
const color = { id: "color", price: 7333 };

describe("priceWithCoupon", () => {
  it("takes an amount off the coupon's menus, never below zero", () => {
    expect(
      priceWithCoupon([cut, color], {
        discountKind: "amount",
        discountValue: 1000,
        menuIds: ["cut"],
      }),
    ).toBe(11_833);
    expect(
      priceWithCoupon([cut], { discountKind: "amount", discountValue: 9000, menuIds: [] }),
    ).toBe(0);
  });

  it("takes a percentage off, rounding the discount down to whole yen", () => {
    expect(
      priceWithCoupon([color], { discountKind: "percent", discountValue: 10, menuIds: [] }),
    ).toBe(6600);
    expect(
      priceWithCoupon([cut, color], {
        discountKind: "percent",
        discountValue: 20,
        menuIds: ["color"],
      }),
    ).toBe(5500 + 7333 - 1466);
  });

  it("sets a fixed price for the coupon's menus, never raising the price", () => {
    expect(
      priceWithCoupon([cut, color], {
        discountKind: "fixed_price",
        discountValue: 9800,
        menuIds: ["cut", "color"],
      }),
    ).toBe(9800);
    expect(
      priceWithCoupon([cut], {
        discountKind: "fixed_price",
        discountValue: 6000,
        menuIds: ["cut"],
      }),
    ).toBe(5500);
  });

  it("does not apply when none of the coupon's menus was chosen", () => {
    expect(
      priceWithCoupon([cut], { discountKind: "amount", discountValue: 500, menuIds: ["color"] }),
    ).toBeNull();
  });
});
