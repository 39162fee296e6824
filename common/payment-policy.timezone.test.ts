import { describe, expect, it } from "vitest";
import {
  bookingPolicyTerms,
  depositFor,
  noPolicy,
  type PaymentPolicy,
  percentOf,
  policyInForce,
  policyLines,
} from "./payment-policy";

const demo: PaymentPolicy = {
  mode: "deposit",
  deposit: { kind: "percent", value: 20 },
  sameDayPercent: 50,
  dayBeforePercent: 30,
  noShowPercent: 100,
  note: "",
};

describe("amounts", () => {
  it("rounds a percentage down to the yen", () => {
    expect(percentOf(5500, 50)).toBe(2750);
    expect(percentOf(3333, 30)).toBe(999);
    expect(percentOf(5500, 0)).toBe(0);
  });

  it("never asks a yen deposit above the booked amount", () => {
    expect(depositFor({ kind: "yen", value: 3000 }, 5500)).toBe(3000);
    expect(depositFor({ kind: "yen", value: 8000 }, 5500)).toBe(5500);
    expect(depositFor({ kind: "percent", value: 20 }, 5500)).toBe(1100);
  });

  it("has nothing in force without a mode or a fee", () => {
    expect(policyInForce(noPolicy)).toBe(false);
    expect(policyInForce({ ...noPolicy, noShowPercent: 1 })).toBe(true);
    expect(policyInForce({ ...noPolicy, mode: "card_only" })).toBe(true);
    expect(
      bookingPolicyTerms(noPolicy, {
        amount: 5500,
        startsAt: new Date(),
        timeZone: "Asia/Tokyo",
        paymentRequired: true,
        now: new Date(),
      }),
    ).toBeNull();
  });
});

describe("bookingPolicyTerms", () => {
  it("gives the windows as calendar days of the salon's zone, with yen amounts", () => {
    // 10:00 on Wednesday 2 December in Tokyo, booked a week before.
    const terms = bookingPolicyTerms(demo, {
      amount: 5500,
      startsAt: new Date("2026-12-02T01:00:00Z"),
      timeZone: "Asia/Tokyo",
      paymentRequired: true,
      now: new Date("2026-11-25T03:00:00Z"),
    });
    expect(terms?.dueAtBooking).toBe(1100);
    expect(terms?.fees).toEqual([
      {
        window: "day_before",
        percent: 30,
        amount: 1650,
        from: "2026-11-30T15:00:00.000Z",
        date: "2026-12-01",
        begunAtBooking: false,
      },
      {
        window: "same_day",
        percent: 50,
        amount: 2750,
        from: "2026-12-01T15:00:00.000Z",
        date: "2026-12-02",
        begunAtBooking: false,
      },
      {
        window: "no_show",
        percent: 100,
        amount: 5500,
        from: null,
        date: null,
        begunAtBooking: false,
      },
    ]);
    expect(terms?.lines).toEqual([
      "お支払い：予約金（ご予約金額の20%＝1,100円）を事前にお支払いいただくサロンです。ご予約時にオンライン決済でお支払いいただき、お支払いの確認をもってご予約が確定します。",
      "2026年12月1日(火) 0:00より前のキャンセル：無料",
      "前日（2026年12月1日(火) 0:00〜2026年12月2日(水) 0:00）のキャンセル：ご予約金額の30%（1,650円）",
      "当日（2026年12月2日(水) 0:00以降）のキャンセル：ご予約金額の50%（2,750円）",
      "ご連絡のないキャンセル（無断キャンセル）：ご予約金額の100%（5,500円）",
    ]);
  });

  it("counts the day in the salon's zone, not in UTC: 08:30 in Tokyo is the day before in UTC", () => {
    // 2026-12-02 08:30 Tokyo = 2026-12-01 23:30 UTC.
    const startsAt = new Date("2026-12-01T23:30:00Z");
    const input = {
      amount: 5000,
      startsAt,
      paymentRequired: true,
      now: new Date("2026-11-20T00:00:00Z"),
    };
    const tokyo = bookingPolicyTerms(demo, { ...input, timeZone: "Asia/Tokyo" });
    expect(tokyo?.fees.find((f) => f.window === "same_day")?.date).toBe("2026-12-02");
    expect(tokyo?.fees.find((f) => f.window === "same_day")?.from).toBe("2026-12-01T15:00:00.000Z");
    const utc = bookingPolicyTerms(demo, { ...input, timeZone: "UTC" });
    expect(utc?.fees.find((f) => f.window === "same_day")?.date).toBe("2026-12-01");
    expect(utc?.fees.find((f) => f.window === "day_before")?.from).toBe("2026-11-30T00:00:00.000Z");
  });

  it("keeps a calendar day across a DST change (New York, 1 November 2026)", () => {
    // 10:00 on Monday 2 November in New York (EST, UTC−5); the day before has 25 hours.
    const terms = bookingPolicyTerms(demo, {
      amount: 10000,
      startsAt: new Date("2026-11-02T15:00:00Z"),
      timeZone: "America/New_York",
      paymentRequired: true,
      now: new Date("2026-10-20T00:00:00Z"),
    });
    expect(terms?.fees[0]?.from).toBe("2026-11-01T04:00:00.000Z");
    expect(terms?.fees[1]?.from).toBe("2026-11-02T05:00:00.000Z");
  });

  it("says so when the booking is made on the day itself", () => {
    const terms = bookingPolicyTerms(demo, {
      amount: 5500,
      startsAt: new Date("2026-12-02T06:00:00Z"), // 15:00 Tokyo
      timeZone: "Asia/Tokyo",
      paymentRequired: true,
      now: new Date("2026-12-02T01:00:00Z"), // 10:00 Tokyo, same day
    });
    expect(terms?.fees.map((fee) => fee.begunAtBooking)).toEqual([true, true, false]);
    // No free period is promised: it is over.
    expect(terms?.lines.some((line) => line.includes("無料"))).toBe(false);
    expect(terms?.lines).toContain(
      "当日（2026年12月2日(水) 0:00以降）のキャンセル：ご予約金額の50%（2,750円）（ご予約の時点でこの期間に入っています）",
    );
  });

  it("is free before the first window with a fee, and says when payment is not required", () => {
    const terms = bookingPolicyTerms(
      { ...demo, mode: "full", dayBeforePercent: 0, noShowPercent: 0, note: "遅刻は15分まで" },
      {
        amount: 8000,
        startsAt: new Date("2026-12-02T01:00:00Z"),
        timeZone: "Asia/Tokyo",
        paymentRequired: false,
        now: new Date("2026-11-25T03:00:00Z"),
      },
    );
    expect(terms?.paymentRequired).toBe(false);
    expect(terms?.dueAtBooking).toBe(0);
    expect(terms?.lines).toEqual([
      "お支払い：このご予約は事前決済の対象外です。料金はご来店時にお支払いください。",
      "2026年12月2日(水) 0:00より前のキャンセル：無料",
      "当日（2026年12月2日(水) 0:00以降）のキャンセル：ご予約金額の50%（4,000円）",
      "サロンより：遅刻は15分まで",
    ]);
  });
});

describe("policyLines", () => {
  it("writes the policy from its numbers, the note appended", () => {
    expect(policyLines({ ...demo, note: "前日までにご連絡ください" })).toEqual([
      "お支払い：予約金（ご予約金額の20%）の事前決済",
      "前日（ご予約日の前日0:00〜）のキャンセル：ご予約金額の30%",
      "当日（ご予約日の0:00〜）のキャンセル：ご予約金額の50%",
      "ご連絡のないキャンセル（無断キャンセル）：ご予約金額の100%",
      "サロンより：前日までにご連絡ください",
    ]);
    expect(policyLines({ ...noPolicy, mode: "card_only" })).toEqual([
      "お支払い：カード登録のみ（ご予約時の請求はありません）",
      "キャンセル料はかかりません。",
    ]);
    expect(policyLines(noPolicy)).toEqual([]);
  });
});
