import { describe, expect, it } from "vitest";
import {
  cancelFeeNotice,
  type PaymentRecord,
  paymentTextLines,
  paymentTotals,
} from "./payment-lines";

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

describe("cancelFeeNotice: what cancelling now costs, before the visitor confirms", () => {
  // A booking on 2026年12月3日(木) 10:00 in Tokyo, 10,000円; 前日 30 %, 当日 50 %.
  const booking = { startsAt: new Date("2026-12-03T01:00:00Z"), totalPrice: 10_000 };
  const fee = (window: "day_before" | "same_day", percent: number, amount: number) => ({
    window,
    percent,
    amount,
    from: null,
    date: null,
    begunAtBooking: false,
  });
  const snapshot = {
    version: 1,
    mode: "deposit",
    deposit: { kind: "percent", value: 20 },
    paymentRequired: true,
    bookedAmount: 10_000,
    dueAtBooking: 2_000,
    fees: [fee("day_before", 30, 3_000), fee("same_day", 50, 5_000)],
    timeZone: "Asia/Tokyo",
    note: "",
    lines: [],
    agreedAt: "2026-11-28T00:00:00Z",
  } as unknown as Parameters<typeof cancelFeeNotice>[0];
  const deposit = record({ amount: 2_000 });
  const twoDaysBefore = new Date("2026-12-01T03:00:00Z");
  const dayBefore = new Date("2026-12-02T03:00:00Z");
  const sameDay = new Date("2026-12-02T23:30:00Z"); // 12月3日 08:30 in Tokyo

  it("without a policy, nothing is said", () => {
    expect(cancelFeeNotice(null, booking, [], dayBefore)).toBeNull();
  });

  it("before the windows: no fee, the deposit refunded in full", () => {
    expect(cancelFeeNotice(snapshot, booking, [deposit], twoDaysBefore)).toBe(
      "いまキャンセルすると、キャンセル料はかかりません。お支払い済みの2,000円は全額返金します。",
    );
  });

  it("前日: the fee, the deposit towards it, the rest charged to the card", () => {
    expect(cancelFeeNotice(snapshot, booking, [deposit], dayBefore)).toBe(
      "いまキャンセルすると、キャンセル料（前日・ご予約金額の30%）3,000円がかかります。お支払い済みの2,000円を充て、残りの1,000円をご登録のカードに請求します。",
    );
  });

  it("当日 in the salon's zone (the same UTC day as 前日): the 当日 fee", () => {
    expect(cancelFeeNotice(snapshot, booking, [deposit], sameDay)).toContain(
      "キャンセル料（当日・ご予約金額の50%）5,000円",
    );
  });

  it("a deposit larger than the fee: the rest refunded", () => {
    const full = record({ kind: "full", amount: 10_000 });
    expect(cancelFeeNotice(snapshot, booking, [full], dayBefore)).toBe(
      "いまキャンセルすると、キャンセル料（前日・ご予約金額の30%）3,000円がかかります。お支払い済みの10,000円から充て、残りの7,000円を返金します。",
    );
  });

  it("nothing paid and no card kept: paid at the salon", () => {
    expect(cancelFeeNotice(snapshot, booking, [], dayBefore)).toMatch(
      /3,000円がかかります。サロンへ直接お支払いください。$/,
    );
  });
});
