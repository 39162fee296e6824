import { describe, expect, it } from "vitest";
import { couponDiscount } from "./coupon-price";

describe("couponDiscount", () => {
  it("takes an amount, a percentage (rounded down) or down to a fixed price", () => {
    expect(couponDiscount(8800, { discountKind: "amount", discountValue: 1000 })).toBe(1000);
    expect(couponDiscount(8850, { discountKind: "percent", discountValue: 10 })).toBe(885);
    expect(couponDiscount(8855, { discountKind: "percent", discountValue: 10 })).toBe(885);
    expect(couponDiscount(8800, { discountKind: "fixed_price", discountValue: 6000 })).toBe(2800);
  });

  it("never discounts below zero or more than the total", () => {
    expect(couponDiscount(500, { discountKind: "amount", discountValue: 1000 })).toBe(500);
    expect(couponDiscount(5000, { discountKind: "fixed_price", discountValue: 6000 })).toBe(0);
    expect(couponDiscount(0, { discountKind: "percent", discountValue: 50 })).toBe(0);
  });
});
