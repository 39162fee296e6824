import { describe, expect, it } from "vitest";
import {
  bookingStatusLabels,
  isPendingApproval,
  staffBookingLabel,
  staffBookingStatusLabels,
  staffStatusLabel,
  visitorStatusLabel,
} from "../../common/status-labels";
import { bookingStatuses } from "../../server/db/schema/bookings";

describe("status labels", () => {
  it("name every booking status, for visitors and for the back office", () => {
    expect(Object.keys(bookingStatusLabels).sort()).toEqual([...bookingStatuses].sort());
    expect(Object.keys(staffBookingStatusLabels).sort()).toEqual([...bookingStatuses].sort());
  });

  it("the back office: 仮予約 before anything a confirmed row may be, then 来店済み, then the status", () => {
    expect(staffBookingLabel({ status: "confirmed" })).toBe("予約確定");
    expect(staffBookingLabel({ status: "confirmed", approval: "approved" })).toBe("予約確定");
    expect(staffBookingLabel({ status: "confirmed", approval: "pending" })).toBe(
      "仮予約（承認待ち）",
    );
    expect(staffBookingLabel({ status: "confirmed", approval: "pending", arrived: true })).toBe(
      "仮予約（承認待ち）",
    );
    expect(staffBookingLabel({ status: "confirmed", arrived: true })).toBe("来店済み");
    expect(staffBookingLabel({ status: "completed", arrived: true })).toBe("施術完了");
    expect(staffBookingLabel({ status: "no_show" })).toBe("無断キャンセル");
    expect(staffBookingLabel({ status: "held" })).toBe("仮押さえ");
    // A cancelled row keeps approval 'pending': it is a cancellation, not a 仮予約.
    expect(staffBookingLabel({ status: "cancelled_by_user", approval: "pending" })).toBe(
      "お客様キャンセル",
    );
    expect(staffBookingLabel({ status: "cancelled_by_salon", approval: "refused" })).toBe(
      "サロンキャンセル",
    );
    expect(staffBookingLabel({ kind: "block", status: "confirmed" })).toBe("ブロック中");
    expect(staffBookingLabel({ kind: "block", status: "cancelled_by_salon" })).toBe("削除済み");
    expect(staffStatusLabel("confirmed", "pending")).toBe("仮予約（承認待ち）");
  });

  it("no back-office word of a live booking is 予約確定 while it waits for approval", () => {
    for (const arrived of [false, true]) {
      expect(staffBookingLabel({ status: "confirmed", approval: "pending", arrived })).not.toBe(
        "予約確定",
      );
    }
    expect(visitorStatusLabel("confirmed", "pending")).toBe("仮予約（サロンの承認待ち）");
    expect(isPendingApproval({ status: "confirmed", approval: "pending" })).toBe(true);
    expect(isPendingApproval({ status: "cancelled_by_user", approval: "pending" })).toBe(false);
  });
});
