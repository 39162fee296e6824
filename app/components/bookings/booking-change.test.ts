import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { ChangeConfirmView } from "../../../server/bookings/pages/change-page.server";
import { ChangeBanner, ChangeConfirmStep } from "./booking-change";

const side = (start: string, end: string, stylistName: string, total: number) => ({
  start,
  end,
  stylistName,
  staffRequested: true,
  menus: [{ name: "カット", price: total, durationMinutes: 60 }],
  total,
  couponTitle: null,
});

const view: ChangeConfirmView = {
  kind: "change",
  change: {
    bookingId: "00000000-0000-4000-8000-000000000001",
    bookingNumber: "7KQ2-M9XD",
    timeZone: "Asia/Tokyo",
    current: side("2026-12-03T01:00:00.000Z", "2026-12-03T02:00:00.000Z", "佐藤", 5500),
    cancelHref: "/account/history?booking=00000000-0000-4000-8000-000000000001",
  },
  after: side("2026-12-03T01:30:00.000Z", "2026-12-03T02:30:00.000Z", "佐藤", 5500),
  couponDropped: false,
  unchanged: false,
  form: { start: "2026-12-03T01:30:00.000Z", staff: "sato", menuIds: ["m1"], version: 3 },
  repickHref: "/salons/s/confirm?menu=m1&change=00000000-0000-4000-8000-000000000001",
  problems: [],
};

let shown: ReturnType<typeof createElement> | null = null;
function Shown() {
  return shown;
}
const Stub = createRoutesStub([{ path: "/", Component: Shown }]);

/** Server-rendered, inside a router (Link and Form need one), as the page's first HTML. */
function render(element: ReturnType<typeof createElement>) {
  shown = element;
  return renderToString(createElement(Stub, { initialEntries: ["/"] }));
}

describe("予約変更's confirmation", () => {
  it("shows old → new, marks what changed in words, and posts the swap with the version seen", () => {
    const html = render(createElement(ChangeConfirmStep, { view, actionError: null }));
    expect(html).toContain("予約変更の内容を確認する");
    expect(html).toContain("変更前");
    expect(html).toContain("10:00");
    expect(html).toContain("10:30");
    // Only the time changed: one （変更） mark.
    expect(html.match(/（変更）/g)).toHaveLength(1);
    expect(html).toContain('name="intent" value="reschedule"');
    expect(html).toContain('name="version" value="3"');
    expect(html).toContain("この内容に変更する");
  });

  it("says when the coupon no longer applies, shows a refusal as an alert, and offers no button when nothing changes", () => {
    const html = render(
      createElement(ChangeConfirmStep, {
        view: {
          ...view,
          couponDropped: true,
          unchanged: true,
          change: {
            ...view.change,
            current: { ...view.change.current, couponTitle: "初回10%OFF" },
          },
        },
        actionError: "申し訳ありません。この時間はたった今ほかの方の予約で埋まりました。",
      }),
    );
    expect(html).toContain("初回10%OFF");
    expect(html).toContain("通常料金");
    expect(html).toMatch(/role="alert"[^>]*>申し訳ありません/);
    expect(html).not.toContain("この内容に変更する");
  });

  it("the banner names the booking and the way back", () => {
    const html = render(createElement(ChangeBanner, { change: view.change }));
    expect(html).toContain("7KQ2-M9XD");
    expect(html).toContain("変更をやめて予約の詳細へ戻る");
  });
});
