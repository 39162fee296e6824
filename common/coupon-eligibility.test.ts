import { describe, expect, it } from "vitest";
import {
  ALL_WEEKDAYS,
  type CouponLimits,
  type CustomerHistory,
  couponFitsPerson,
  couponLimitNotes,
  couponRefusal,
} from "./coupon-eligibility";

const ID = "c0000000-0000-4000-8000-000000000001";
const open: CouponLimits = {
  target: "all",
  oncePerCustomer: false,
  weekdays: ALL_WEEKDAYS,
  fromMinute: null,
  untilMinute: null,
  staffId: null,
  studentOnly: false,
};
const history = (over: Partial<CustomerHistory> = {}): CustomerHistory => ({
  visited: false,
  booked: false,
  usedCouponIds: new Set(),
  ...over,
});
const newcomer = history();
const regular = history({ visited: true, booked: true });

describe("couponRefusal: target", () => {
  it("新規 is for a person who never booked; 再来 for one who came; 全員 for both", () => {
    const forNew = { ...open, target: "new" as const };
    const forReturning = { ...open, target: "returning" as const };
    expect(couponRefusal(forNew, { couponId: ID, history: newcomer })).toBeNull();
    expect(couponRefusal(forNew, { couponId: ID, history: regular })).toBe("not_new");
    expect(couponRefusal(forReturning, { couponId: ID, history: regular })).toBeNull();
    expect(couponRefusal(forReturning, { couponId: ID, history: newcomer })).toBe("not_returning");
    expect(couponRefusal(open, { couponId: ID, history: newcomer })).toBeNull();
    expect(couponRefusal(open, { couponId: ID, history: regular })).toBeNull();
  });

  it("a booking still ahead makes a person not new, yet not returning either", () => {
    const booked = history({ booked: true });
    expect(couponRefusal({ ...open, target: "new" }, { couponId: ID, history: booked })).toBe(
      "not_new",
    );
    expect(couponRefusal({ ...open, target: "returning" }, { couponId: ID, history: booked })).toBe(
      "not_returning",
    );
  });

  it("an unknown person (a guest's hold) is not judged until confirm", () => {
    expect(couponRefusal({ ...open, target: "returning" }, { couponId: ID })).toBeNull();
    expect(couponRefusal({ ...open, target: "new" }, { couponId: ID, history: null })).toBeNull();
  });
});

describe("couponRefusal: limits", () => {
  it("once per customer refuses a person who booked with this coupon, not with another", () => {
    const once = { ...open, oncePerCustomer: true };
    const usedIt = history({ usedCouponIds: new Set([ID]) });
    const usedOther = history({ usedCouponIds: new Set(["other"]) });
    expect(couponRefusal(once, { couponId: ID, history: usedIt })).toBe("used");
    expect(couponRefusal(once, { couponId: ID, history: usedOther })).toBeNull();
    expect(couponRefusal(open, { couponId: ID, history: usedIt })).toBeNull();
  });

  it("weekdays and hours are the visit's, in the salon's zone", () => {
    // 月〜金, 10:00–15:00.
    const weekdayDaytime = { ...open, weekdays: 0b0111110, fromMinute: 600, untilMinute: 900 };
    const at = (weekday: number, minutes: number) =>
      couponRefusal(weekdayDaytime, { couponId: ID, local: { weekday, minutes } });
    expect(at(1, 600)).toBeNull();
    expect(at(5, 899)).toBeNull();
    expect(at(0, 600)).toBe("weekday");
    expect(at(6, 700)).toBe("weekday");
    expect(at(3, 599)).toBe("hours");
    expect(at(3, 900)).toBe("hours");
    // Not known (the waiting list asks for a day, not a time): not checked.
    expect(couponRefusal(weekdayDaytime, { couponId: ID })).toBeNull();
  });

  it("a stylist's coupon needs that stylist chosen (指名), not 指名なし", () => {
    const hers = { ...open, staffId: "s1" };
    expect(couponRefusal(hers, { couponId: ID, requestedStaffId: "s1" })).toBeNull();
    expect(couponRefusal(hers, { couponId: ID, requestedStaffId: "s2" })).toBe("stylist");
    expect(couponRefusal(hers, { couponId: ID, requestedStaffId: null })).toBe("stylist");
  });

  it("学割 needs the statement at confirm; a hold has none yet", () => {
    const student = { ...open, studentOnly: true };
    expect(couponRefusal(student, { couponId: ID })).toBeNull();
    expect(couponRefusal(student, { couponId: ID, studentDeclared: true })).toBeNull();
    expect(couponRefusal(student, { couponId: ID, studentDeclared: false })).toBe("student");
  });

  it("couponFitsPerson looks at the person only (the salon page's list)", () => {
    const evening = { ...open, target: "returning" as const, fromMinute: 1080, untilMinute: 1200 };
    expect(couponFitsPerson(evening, ID, regular)).toBe(true);
    expect(couponFitsPerson(evening, ID, newcomer)).toBe(false);
  });

  it("describes the limits in Japanese", () => {
    expect(
      couponLimitNotes(
        { ...open, weekdays: 0b0111110, fromMinute: 600, untilMinute: 900, studentOnly: true },
        "佐藤",
      ),
    ).toEqual(["月・火・水・木・金 10:00〜15:00来店", "佐藤指名", "学割（学生の方）"]);
    expect(couponLimitNotes({ ...open, oncePerCustomer: true })).toEqual(["お一人様1回限り"]);
    expect(couponLimitNotes(open)).toEqual([]);
  });
});
