import { describe, expect, it } from "vitest";
import { type PaymentRecord, paymentTextLines, paymentTotals } from "./payment-lines";

const at = new Date("2026-12-01T00:05:00Z"); // 2026年12月1日(火) 09:05 in Tokyo
const record = (over: Partial<PaymentRecord>): PaymentRecord => ({
  id: "p",
  kind: "deposit",
  amount: 1100,
  status: "succeeded",
  at,
  ...over,
});

describe("paymentTextLines: what was paid, refunded and kept, in words", () => {
  it("a deposit paid: the payment, the sum, and what is left to pay at the salon", () => {
    expect(paymentTextLines([record({})], { remainingOf: 5500 })).toEqual([
      "予約金 1,100円（完了・2026年12月1日(火) 09:05）",
      "お支払い済み：1,100円",
      "ご来店時のお支払い（予定）：4,400円",
    ]);
  });

  it("a refunded deposit: refunded and the difference, nothing left to pay announced", () => {
    const lines = paymentTextLines(
      [
        record({ status: "refunded" }),
        record({ id: "r", kind: "refund", amount: 1100, status: "succeeded" }),
      ],
      { remainingOf: 5500 },
    );
    expect(lines).toEqual([
      "予約金 1,100円（返金済み・2026年12月1日(火) 09:05）",
      "返金 1,100円（完了・2026年12月1日(火) 09:05）",
      "お支払い済み：1,100円",
      "返金済み：1,100円",
      "差し引きお支払い額：0円",
    ]);
  });

  it("a キャンセル料 counts as paid and kept; a kept card charges nothing; an unpaid page shows no sum", () => {
    const fee = [
      record({ kind: "card", amount: 0 }),
      record({ id: "f", kind: "fee", amount: 2750 }),
    ];
    expect(paymentTotals(fee)).toEqual({ paid: 2750, refunded: 0, kept: 2750, cardKept: true });
    expect(paymentTextLines(fee)).toEqual([
      "カード登録：キャンセル料のためのお預かり、ご予約時の請求なし（完了・2026年12月1日(火) 09:05）",
      "キャンセル料 2,750円（完了・2026年12月1日(火) 09:05）",
      "お支払い済み：2,750円",
    ]);
    expect(paymentTextLines([record({ status: "open" })], { remainingOf: 5500 })).toEqual([
      "予約金 1,100円（お支払い待ち・2026年12月1日(火) 09:05）",
    ]);
    expect(paymentTextLines([])).toEqual([]);
  });
});
