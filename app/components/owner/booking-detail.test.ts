import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type {
  BookingDetailPageData,
  BookingPageBooking,
  MovePageData,
} from "../../../server/owner/booking-detail-page.server";
import { BookingDetailView, BookingMoveView } from "./booking-detail";

const booking: BookingPageBooking = {
  id: "5d0f3c8e-9a1b-4c2d-8e7f-0a1b2c3d4e5f",
  kind: "booking",
  bookingNumber: "7K3M-Q9TX",
  version: 3,
  status: "confirmed",
  statusLabel: "予約確定",
  sourceLabel: "電話",
  dateLabel: "2026年12月3日(木)",
  timeLabel: "14:00〜15:00",
  staffName: "スタイリスト1",
  staffRequested: false,
  customer: { name: "山田 花子", kana: "ヤマダ ハナコ", phone: "090-1234-5678", email: "" },
  customerHref: null,
  menus: [{ name: "カット", priceLabel: "￥5,500", durationMinutes: 60 }],
  couponTitle: null,
  totalLabel: "￥5,500",
  notes: "",
  policyLines: null,
  salonNote: "",
  arrivedLabel: null,
  cancellation: null,
  history: [
    { id: "e1", what: "予約を受付（電話）", who: "山田 太郎", when: "2026年12月1日(火) 09:00" },
  ],
  can: {
    arrive: true,
    complete: true,
    noShow: false,
    cancel: true,
    move: true,
    release: false,
    note: true,
    approve: false,
    refuse: false,
    undo: null,
  },
  checkout: null,
  pending: false,
  arriveFrom: "13:00",
  startTime: "14:00",
  date: "2026-12-03",
};
const frame = { salon: { id: "s1", name: "Hair TEST" } };

/** Server-renders a view inside a data router, as the page would be. */
function render(component: () => ReturnType<typeof createElement>) {
  const Stub = createRoutesStub([{ path: "/", Component: component }]);
  // React marks the seams between text pieces with empty comments; the page reads as one text.
  return renderToString(createElement(Stub, { initialEntries: ["/"] })).replaceAll("<!-- -->", "");
}

describe("the booking detail and move views", () => {
  it("render the booking, its actions with the version, the no-show hint and the history", () => {
    const data: BookingDetailPageData = {
      ...frame,
      booking,
      done: "来店を記録しました。",
      cancelCategories: [{ value: "salon", label: "サロン都合" }],
    };
    const html = render(() => createElement(BookingDetailView, { data, result: undefined }));
    expect(html).toContain("予約 7K3M-Q9TX");
    expect(html).toContain('href="tel:09012345678"');
    expect(html).toContain("指名なし");
    expect(html).toContain('name="version" value="3"');
    expect(html).toContain("無断キャンセルは開始時刻（14:00）を過ぎると記録できます。");
    expect(html).toContain('role="status"');
    expect(html).toContain("山田 太郎");
    expect(html).toContain(
      'href="/owner/salons/s1/bookings/5d0f3c8e-9a1b-4c2d-8e7f-0a1b2c3d4e5f/move"',
    );
  });

  it("a pending booking (仮予約) offers 承認する and 承認しない, keeping the refusal's message", () => {
    const data: BookingDetailPageData = {
      ...frame,
      booking: {
        ...booking,
        statusLabel: "仮予約（承認待ち）",
        pending: true,
        can: { ...booking.can, approve: true, refuse: true },
      },
      done: null,
      cancelCategories: [{ value: "salon", label: "サロン都合" }],
    };
    const html = render(() =>
      createElement(BookingDetailView, {
        data,
        result: {
          errors: { message: "お客様へのメッセージは500文字以内で入力してください。" },
          values: { intent: "refuse", message: "あいにく" },
          needsConfirmation: false,
        },
      }),
    );
    expect(html).toContain("仮予約（承認待ち）");
    expect(html).toContain('name="intent" value="approve"');
    expect(html).toContain('name="intent" value="refuse"');
    expect(html).toContain("承認しない");
    expect(html).toContain('id="refuseMessage"');
    expect(html).toContain("あいにく");
    expect(html).toContain("お客様へのメッセージは500文字以内で入力してください。");
  });

  it("the move form keeps what was typed and offers 「このまま移動する」 after the warning", () => {
    const data: MovePageData = {
      ...frame,
      booking,
      stylists: [{ value: "a", label: "スタイリスト1" }],
      menus: [{ id: "m1", category: "カット", label: "カット（￥5,500・60分）" }],
      values: {
        date: "2026-12-03",
        time: "14:00",
        staffId: "a",
        menuIds: ["m1"],
        confirmOutsideSchedule: false,
        keepNomination: false,
      },
    };
    const html = render(() =>
      createElement(BookingMoveView, {
        data,
        result: {
          errors: { confirmOutsideSchedule: "この時間は スタイリスト1 の勤務時間外です。" },
          values: {
            intent: "move",
            date: "2026-12-04",
            time: "19:30",
            staffId: "a",
            menuIds: ["m1"],
          },
          needsConfirmation: true,
        },
      }),
    );
    expect(html).toContain('value="2026-12-04"');
    expect(html).toContain('value="19:30"');
    expect(html).toContain("このまま移動する");
    expect(html).toContain('name="confirmOutsideSchedule"');
    expect(html).toContain('role="alert"');
    // A 指名なし booking has no 指名 to keep.
    expect(html).not.toContain('name="keepNomination"');
  });

  it("the move form of a 指名 booking offers 指名を引き継ぐ, unticked (issue 38, §1.3)", () => {
    const data: MovePageData = {
      ...frame,
      booking: { ...booking, staffRequested: true },
      stylists: [{ value: "a", label: "スタイリスト1" }],
      menus: [{ id: "m1", category: "カット", label: "カット（￥5,500・60分）" }],
      values: {
        date: "2026-12-03",
        time: "14:00",
        staffId: "a",
        menuIds: ["m1"],
        confirmOutsideSchedule: false,
        keepNomination: false,
      },
    };
    const html = render(() => createElement(BookingMoveView, { data, result: undefined }));
    const box = html.match(/<input[^>]*name="keepNomination"[^>]*>/)?.[0];
    expect(box).toBeDefined();
    expect(box).not.toContain("checked");
    expect(html).toContain("指名を引き継ぐ");
    expect(html).toContain("指名なしになり、指名料はなくなります");
  });
});
