import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { HistoryWaitlist } from "../../../server/waitlist/history-waitlist.server";
import type { WaitlistJoinPage } from "../../../server/waitlist/join-page.server";
import type { OfferPage } from "../../../server/waitlist/offer-page.server";
import { LedgerWaitlist } from "../owner/ledger-waitlist";
import { WaitlistEntries } from "./waitlist-entries";
import { WaitlistJoin } from "./waitlist-join";
import { WaitlistOffer } from "./waitlist-offer";
import { WaitlistPrompt } from "./waitlist-prompt";

let shown: ReturnType<typeof createElement> | null = null;
function Shown() {
  return shown;
}
const Stub = createRoutesStub([{ path: "/", Component: Shown }]);

/** Server-rendered inside a router, as the page's first HTML (what a browser without JavaScript gets). */
function render(element: ReturnType<typeof createElement>) {
  shown = element;
  return renderToString(createElement(Stub, { initialEntries: ["/"] })).replaceAll("<!-- -->", "");
}

const salon = { id: "s1", slug: "hair-test", name: "Hair TEST", timeZone: "Asia/Tokyo" };

const joinPage: WaitlistJoinPage = {
  salon,
  date: "2026-11-23",
  menus: [{ name: "カット", price: 5500, durationMinutes: 60 }],
  stylistName: null,
  couponTitle: null,
  backHref: "/salons/hair-test/confirm?menu=m1&date=2026-11-23",
  startChoices: ["10:00", "10:30", "19:30"],
  endChoices: ["10:30", "19:30", "20:00"],
  values: { windowStart: "10:00", windowEnd: "20:00" },
  problems: [],
  joined: false,
  liveEntriesMax: 5,
};

describe("キャンセル待ちに登録", () => {
  it("draws the choice in words and a POST form with two labelled selects, the whole day chosen", () => {
    const html = render(createElement(WaitlistJoin, { page: joinPage, result: undefined }));
    expect(html).toContain("2026年11月23日(月)");
    expect(html).toContain("指名なし");
    expect(html).toMatch(/<form [^>]*method="post"/);
    expect(html).toContain("<legend");
    expect(html).toContain('<label for="waitlist-window-start"');
    expect(html).toContain('<label for="waitlist-window-end"');
    expect(html).toMatch(/<option value="10:00" selected="">10:00<\/option>/);
    expect(html).toMatch(/<option value="20:00" selected="">20:00<\/option>/);
    expect(html).toContain("キャンセル待ちに登録する");
  });

  it("shows a refusal's messages in a summary, marks the field and keeps what was typed", () => {
    const html = render(
      createElement(WaitlistJoin, {
        page: joinPage,
        result: {
          errors: { windowEnd: "開始時刻の範囲は「から」より後の時刻を「まで」に選んでください。" },
          values: { windowStart: "19:30", windowEnd: "10:30" },
        },
      }),
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain("入力内容を確認してください。");
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="waitlist-window-end-hint waitlist-window-end-error"');
    expect(html).toMatch(/<option value="19:30" selected="">/);
    expect(html).toMatch(/<option value="10:30" selected="">10:30<\/option>/);
  });

  it("says it is done, with the way to the history, once joined", () => {
    const html = render(
      createElement(WaitlistJoin, { page: { ...joinPage, joined: true }, result: undefined }),
    );
    expect(html).toContain('role="status"');
    expect(html).toContain("キャンセル待ちに登録しました");
    expect(html).toContain('href="/account/history#waitlist"');
    expect(html).not.toContain("<form");
  });

  it("offers the chosen full day, or the list of full days, from the booking flow", () => {
    const days = [
      { date: "2026-11-23", holiday: true, available: false, full: true },
      { date: "2026-11-24", holiday: false, available: true, full: false },
      { date: "2026-11-25", holiday: false, available: false, full: true },
    ];
    const link = { menuIds: ["m1"], staffSlug: "sato", couponId: null };
    const chosen = render(
      createElement(WaitlistPrompt, {
        slug: "hair-test",
        link,
        days,
        date: "2026-11-23",
        dayHasTimes: false,
      }),
    );
    expect(chosen).toContain("2026年11月23日(月)は満席です。");
    expect(chosen).toContain(
      'href="/salons/hair-test/waitlist?menu=m1&amp;staff=sato&amp;date=2026-11-23"',
    );
    const list = render(
      createElement(WaitlistPrompt, {
        slug: "hair-test",
        link,
        days,
        date: "2026-11-24",
        dayHasTimes: true,
      }),
    );
    expect(list).toMatch(/<form [^>]*action="\/salons\/hair-test\/waitlist" method="get"/);
    expect(list).toContain('<label for="waitlist-full-day"');
    expect(list).toContain('<option value="2026-11-23">');
    expect(list).toContain('<option value="2026-11-25">');
    expect(list).not.toContain('<option value="2026-11-24">');
    expect(list).toContain('name="staff" value="sato"');
    expect(list).toContain("11月24日(火)のキャンセル待ちに登録");
  });
});

describe("the history's キャンセル待ち section", () => {
  const waitlist: HistoryWaitlist = {
    notice: null,
    entries: [
      {
        id: "e1",
        statusLabel: "空きのご案内中",
        live: true,
        date: "2026-11-23",
        windowText: "10:00〜20:00",
        salon,
        menuNames: ["カット"],
        staffLabel: "指名なし",
        offer: {
          id: "o1",
          href: "/account/waitlist/offers/o1",
          startsAt: "2026-11-23T05:00:00.000Z",
          expiresAt: "2026-11-22T00:30:00.000Z",
        },
        bookingHref: null,
      },
      {
        id: "e2",
        statusLabel: "取り消し済み",
        live: false,
        date: "2026-11-20",
        windowText: "12:00〜15:00",
        salon,
        menuNames: ["カラー"],
        staffLabel: "佐藤",
        offer: null,
        bookingHref: "/account/history?booking=b1",
      },
    ],
  };

  it("lists each entry, an open offer's deadline and link, and leaving behind a confirm step for a live one only", () => {
    const html = render(createElement(WaitlistEntries, { waitlist }));
    expect(html).toContain('id="waitlist"');
    expect(html).toContain("2026年11月23日(月) 開始 10:00〜20:00");
    expect(html).toContain("14:00から");
    expect(html).toContain("2026年11月22日(日) 09:30まで");
    expect(html).toContain('href="/account/waitlist/offers/o1"');
    expect(html.match(/<details/g)).toHaveLength(1);
    expect(html).toMatch(/<form [^>]*action="\/account\/waitlist" method="post"/);
    expect(html).toContain('name="entry" value="e1"');
    expect(html).not.toContain('value="e2"');
    expect(html).toContain('href="/account/history?booking=b1"');
    // The live notice's region is there from the start, empty.
    expect(html).toContain('<div role="status"></div>');
  });

  it("says when there is none", () => {
    const html = render(
      createElement(WaitlistEntries, { waitlist: { entries: [], notice: "left" } }),
    );
    expect(html).toContain("キャンセル待ちはありません。");
    expect(html).toContain("キャンセル待ちをやめました。");
  });
});

describe("the offer page", () => {
  const offer: OfferPage = {
    id: "o1",
    state: "open",
    message: null,
    salon,
    date: "2026-11-23",
    startsAt: "2026-11-23T05:00:00.000Z",
    endsAt: "2026-11-23T06:00:00.000Z",
    expiresAt: "2026-11-22T00:30:00.000Z",
    now: "2026-11-22T00:10:00.000Z",
    staffName: "佐藤",
    staffRequested: false,
    menus: [{ name: "カット", price: 5500, durationMinutes: 60 }],
    totalPrice: 5500,
    bookHref: "/salons/hair-test/confirm?hold=h1",
    bookingHref: null,
  };

  it("shows the time, the deadline with the time left, the way to book and 辞退する", () => {
    const html = render(createElement(WaitlistOffer, { offer, error: null }));
    expect(html).toContain("2026年11月23日(月) 14:00〜15:00");
    expect(html).toContain("2026年11月22日(日) 09:30までにご予約ください");
    expect(html).toContain("残り約20分");
    expect(html).toContain("佐藤（指名なし）");
    expect(html).toContain('href="/salons/hair-test/confirm?hold=h1"');
    expect(html).toContain("この日時で予約する");
    expect(html).toContain('name="intent" value="decline"');
  });

  it("says why a closed offer cannot be booked, with the way back", () => {
    const html = render(
      createElement(WaitlistOffer, {
        offer: {
          ...offer,
          state: "expired",
          message: "このご案内は有効期限が過ぎたため、終了しました。",
          bookHref: null,
        },
        error: null,
      }),
    );
    expect(html).toContain("このご案内は有効期限が過ぎたため、終了しました。");
    expect(html).not.toContain("この日時で予約する");
    expect(html).toContain('href="/account/history#waitlist"');
  });
});

describe("the ledger's キャンセル待ち", () => {
  it("counts and numbers the live line and keeps the ended entries apart", () => {
    const html = render(
      createElement(LedgerWaitlist, {
        entries: [
          {
            id: "e1",
            position: 1,
            statusLabel: "空きのご案内中",
            customerName: "山田 花子",
            menuNames: ["カット"],
            staffLabel: "指名なし",
            windowText: "10:00〜20:00",
            offer: { time: "14:00〜15:00", deadline: "09:30" },
          },
          {
            id: "e2",
            position: null,
            statusLabel: "取り消し済み",
            customerName: "田中 次郎",
            menuNames: ["カラー"],
            staffLabel: "佐藤",
            windowText: "12:00〜15:00",
            offer: null,
          },
        ],
      }),
    );
    expect(html).toContain("キャンセル待ち（1件）");
    expect(html).toContain("1番目");
    expect(html).toContain("山田 花子様");
    expect(html).toContain("ご案内中：14:00〜15:00（09:30まで仮押さえ）");
    expect(html).toContain("終了したキャンセル待ち（1件）");
  });
});
