import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { NoticeSettingsPage, type NoticeSettingsPageData } from "./notice-settings";

const rules = {
  slotStepMinutes: "15",
  leadTimeMinutes: "60",
  bookingWindowDays: "60",
  cancellationCutoffHours: "24",
  bufferBeforeMinutes: "0",
  bufferAfterMinutes: "0",
  maxLiveBookingsPerCustomer: "",
  dailyLimitPerStaff: "",
  sameDayCutoff: "",
  holdMinutes: "10",
  waitlistOfferMinutes: "30",
  closedOnPublicHolidays: "",
  requiresApproval: "",
  approvalAnswerHours: "24",
};

const data: NoticeSettingsPageData = {
  salon: { id: "s1", name: "Hair TEST" },
  settings: { enabled: true, email: "" },
  ownerEmails: ["owner@example.jp"],
  bookingRules: { values: rules, version: 4 },
  paymentPolicy: {
    mode: "deposit",
    depositKind: "percent",
    depositValue: "20",
    sameDayPercent: "50",
    dayBeforePercent: "30",
    noShowPercent: "100",
    note: "",
  },
  paymentPolicyPreview: ["当日（ご予約日の0:00〜）のキャンセル：ご予約金額の50%"],
  saved: null,
};

/** Server-renders the page inside a data router, as the route would. */
function render(props: Parameters<typeof NoticeSettingsPage>[0]) {
  const page = () => createElement(NoticeSettingsPage, props);
  const Stub = createRoutesStub([{ path: "/", Component: page }]);
  return renderToString(createElement(Stub, { initialEntries: ["/"] })).replaceAll("<!-- -->", "");
}

describe("the 設定 page (decision 0048)", () => {
  it("draws the booking rules with their version and labels, beside the notice mails", () => {
    const html = render({ data });
    expect(html).toContain('name="intent" value="booking-rules"');
    expect(html).toContain('name="version" value="4"');
    for (const label of [
      "予約の時間間隔",
      "施術前の準備時間（分）",
      "施術後の準備時間（分）",
      "お客様1人が持てる予約の数",
      "キャンセル待ちのご案内の有効時間（分）",
      "新規のネット予約をサロンが承認してから確定する（仮予約）",
      "予約通知メールを送る",
    ]) {
      expect(html).toContain(label);
    }
    expect(html).toMatch(/<label for="salon-buffer-before"/);
  });

  it("draws the payment and cancellation policy with the §9 note and the visitors' text", () => {
    const html = render({ data });
    expect(html).toContain('name="intent" value="payment-policy"');
    expect(html).toContain("消費者契約法第9条");
    expect(html).toContain("当日（ご予約日の0:00〜）のキャンセル：ご予約金額の50%");
    expect(html).toContain('name="mode" checked="" value="deposit"');
    expect(html).toMatch(/<label for="policy-same-day"/);
  });

  it("shows a refused policy's messages and what was typed", () => {
    const html = render({
      data,
      result: {
        kind: "policy",
        errors: {
          sameDayPercent:
            "当日のキャンセル料は100%以下で入力してください（ご予約金額を超える請求はできません）。",
        },
        values: { ...data.paymentPolicy, sameDayPercent: "150" },
      },
    });
    expect(html).toContain("当日のキャンセル料は100%以下で入力してください");
    expect(html).toMatch(/id="policy-same-day"[^>]*value="150"/);
  });

  it("shows a refused save's messages and what was typed, and keeps its version", () => {
    const html = render({
      data,
      result: {
        kind: "rules",
        stranding: true,
        errors: { bufferBeforeMinutes: "施術前の準備時間（分）は0〜240の範囲で入力してください。" },
        form: {
          values: { ...rules, bufferBeforeMinutes: "300" },
          version: 3,
        },
      },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain("施術前の準備時間（分）は0〜240の範囲で入力してください。");
    expect(html).toContain('value="300"');
    expect(html).toContain('name="version" value="3"');
    expect(html).toContain('aria-invalid="true"');
    // A change that would strand bookings offers to apply it anyway.
    expect(html).toContain('name="allowStranding"');
  });
});
