import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  useLoaderData,
} from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LedgerPage } from "../../app/components/owner/ledger-page";
import * as ledgerRoute from "../../app/routes/owner.salons.$id.bookings";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { bookingMenus, salonOwners, scheduleExceptions, users } from "../../server/db/schema";
import type {
  LedgerDay,
  LedgerPage as LedgerPageData,
  LedgerWeek,
} from "../../server/owner/ledger.server";
import { buildLedger } from "../../server/owner/ledger.server";
import { notifySlotChange } from "../../server/realtime/slot-events.server";
import { browser } from "../support/accounts";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import {
  buildBooking,
  buildMenu,
  buildSalon,
  buildSalonWithStaff,
  buildSchedule,
  buildStaff,
  buildUser,
} from "../support/builders";
import { createRouteApp, signedInMember } from "../support/route-app";
import { createRouterApp } from "../support/router-app";
import { readEventStream } from "../support/sse";
import { withTestDatabase } from "../support/test-database";

/**
 * The salon's ledger (issue 28, point 3): the page's guard and data, its
 * server HTML without JavaScript, the JSON API and the live stream.
 */
const database = withTestDatabase();
const db = () => database.db;

/** 勤労感謝の日 (Monday 23 November 2026): a public holiday the salon opens on. */
const HOLIDAY = "2026-11-23";
/** The Wednesday of that week: the salon's weekly day off (定休日). */
const WEDNESDAY = "2026-11-25";
/** Friday: closed by a dated exception (休業日). */
const FRIDAY = "2026-11-27";
const at = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);

type Fixture = Awaited<ReturnType<typeof salonFixture>>;

/**
 * A salon open 10:00–20:00 but on Wednesdays; stylist A works 10–13 and
 * 14–20 (a break), B 10–20, C retired. On the holiday: A has a booking
 * (指名), a live hold and a block; B a booking (指名なし), a cancelled one
 * and an expired hold.
 */
async function salonFixture() {
  const weekdays = [0, 1, 2, 4, 5, 6];
  const salon = await buildSalon(db(), {
    openingHours: weekdays.map((weekday) => ({ weekday, opens: "10:00", closes: "20:00" })),
  });
  const a = await buildStaff(db(), salon.id, { sortOrder: 0, name: "青木 あや" });
  const b = await buildStaff(db(), salon.id, { sortOrder: 1, name: "佐藤 ゆう" });
  await buildStaff(db(), salon.id, { sortOrder: 2, name: "退職 済子", active: false });
  await buildSchedule(db(), a, [
    ...weekdays.map((weekday) => ({ weekday, startsAt: "10:00", endsAt: "13:00" })),
    ...weekdays.map((weekday) => ({ weekday, startsAt: "14:00", endsAt: "20:00" })),
  ]);
  await buildSchedule(
    db(),
    b,
    weekdays.map((weekday) => ({ weekday, startsAt: "10:00", endsAt: "20:00" })),
  );
  await db()
    .insert(scheduleExceptions)
    .values({ salonId: salon.id, staffId: null, date: FRIDAY, kind: "closed", note: "研修" });
  const cut = await buildMenu(db(), salon.id, { name: "カット", price: 5500 });
  const color = await buildMenu(db(), salon.id, { name: "カラー", price: 7700 });

  const booked = await buildBooking(db(), {
    salonId: salon.id,
    staffId: a.id,
    startsAt: at(HOLIDAY, "10:00"),
    endsAt: at(HOLIDAY, "11:00"),
    totalPrice: 13_200,
    status: "confirmed",
    customerName: "山田 花子",
    customerKana: "ヤマダ ハナコ",
    staffRequested: true,
  });
  await db()
    .insert(bookingMenus)
    .values([
      {
        salonId: salon.id,
        bookingId: booked.id,
        position: 0,
        menuId: cut.id,
        name: "カット",
        price: 5500,
        durationMinutes: 30,
      },
      {
        salonId: salon.id,
        bookingId: booked.id,
        position: 1,
        menuId: color.id,
        name: "カラー",
        price: 7700,
        durationMinutes: 30,
      },
    ]);
  const hold = await buildBooking(db(), {
    salonId: salon.id,
    staffId: a.id,
    startsAt: at(HOLIDAY, "11:00"),
    endsAt: at(HOLIDAY, "12:00"),
    status: "held",
    holdExpiresAt: new Date(Date.now() + 600_000),
  });
  const block = await buildBooking(db(), {
    salonId: salon.id,
    staffId: a.id,
    kind: "block",
    startsAt: at(HOLIDAY, "15:00"),
    endsAt: at(HOLIDAY, "16:00"),
    totalPrice: 0,
    status: "confirmed",
    salonNote: "打ち合わせ",
  });
  const free = await buildBooking(db(), {
    salonId: salon.id,
    staffId: b.id,
    startsAt: at(HOLIDAY, "10:00"),
    endsAt: at(HOLIDAY, "11:00"),
    status: "confirmed",
    customerName: "鈴木 一郎",
    customerKana: "スズキ イチロウ",
    staffRequested: false,
  });
  const cancelled = await buildBooking(db(), {
    salonId: salon.id,
    staffId: b.id,
    startsAt: at(HOLIDAY, "12:00"),
    endsAt: at(HOLIDAY, "13:00"),
    status: "cancelled_by_user",
    cancelledAt: new Date(),
    cancelledBy: "user",
    customerName: "田中 次郎",
    customerKana: "タナカ ジロウ",
  });
  await buildBooking(db(), {
    salonId: salon.id,
    staffId: b.id,
    startsAt: at(HOLIDAY, "14:00"),
    endsAt: at(HOLIDAY, "15:00"),
    status: "held",
    holdExpiresAt: new Date(Date.now() - 60_000),
  });
  return { salon, a, b, booked, hold, block, free, cancelled };
}

let f: Fixture;
let other: Awaited<ReturnType<typeof buildSalonWithStaff>>;

beforeAll(async () => {
  f = await salonFixture();
  other = await buildSalonWithStaff(db());
});

describe("the ledger's read model", () => {
  it("draws a day per stylist: working hours, break, free spots, bookings, hold, block; cancellations apart", async () => {
    const day = (await buildLedger(db(), f.salon, HOLIDAY, new Date(), "day")) as LedgerDay;
    expect(day.view).toBe("day");
    expect(day.holiday).toBe("勤労感謝の日");
    expect(day.closed).toBeNull();
    expect(day.opening.map((s) => `${s.startTime}-${s.endTime}`)).toEqual(["10:00-20:00"]);
    expect(day.axis).toEqual({ startMinutes: 600, endMinutes: 1200, stepMinutes: 15 });
    // Active stylists in the salon's order; the retired one has nothing that day.
    expect(day.columns.map((c) => c.staff.name)).toEqual(["青木 あや", "佐藤 ゆう"]);

    const [a, b] = day.columns;
    const times = (spans: { startTime: string; endTime: string }[] = []) =>
      spans.map((s) => `${s.startTime}-${s.endTime}`);
    expect(times(a?.working)).toEqual(["10:00-13:00", "14:00-20:00"]);
    expect(times(a?.breaks)).toEqual(["13:00-14:00"]);
    expect(times(a?.free)).toEqual(["12:00-13:00", "14:00-15:00", "16:00-20:00"]);
    expect(
      a?.entries.map((e) => [
        e.startTime,
        e.kind,
        e.status,
        e.statusLabel,
        e.customerName,
        e.label,
      ]),
    ).toEqual([
      ["10:00", "booking", "confirmed", "予約確定", "山田 花子", ""],
      ["11:00", "booking", "held", "仮押さえ", "", ""],
      ["15:00", "block", "confirmed", "ブロック中", "", "打ち合わせ"],
    ]);
    const first = a?.entries[0];
    expect(first).toMatchObject({
      customerKana: "ヤマダ ハナコ",
      menus: ["カット", "カラー"],
      totalPrice: 13_200,
      staffRequested: true,
    });
    // B: the expired hold is gone, the cancellation is not drawn.
    expect(b?.entries.map((e) => [e.startTime, e.staffRequested])).toEqual([["10:00", false]]);
    expect(times(b?.free)).toEqual(["11:00-20:00"]);
    expect(day.cancelled.map((e) => [e.customerName, e.statusLabel])).toEqual([
      ["田中 次郎", "お客様キャンセル"],
    ]);
  });

  it("says why a day is closed: 定休日, 休業日, and 祝日休業 when the salon closes on holidays", async () => {
    const wednesday = (await buildLedger(db(), f.salon, WEDNESDAY, new Date())) as LedgerDay;
    expect(wednesday.closed).toEqual({ reason: "regular", label: "定休日" });
    expect(wednesday.columns.every((c) => c.working.length === 0 && c.free.length === 0)).toBe(
      true,
    );
    const friday = (await buildLedger(db(), f.salon, FRIDAY, new Date())) as LedgerDay;
    expect(friday.closed).toEqual({ reason: "closure", label: "休業日" });

    const closing = await buildSalonWithStaff(db(), {
      settings: { closedOnPublicHolidays: true },
    });
    const holiday = (await buildLedger(db(), closing.salon, HOLIDAY, new Date())) as LedgerDay;
    expect(holiday.closed).toEqual({ reason: "holiday", label: "祝日休業" });
    expect(holiday.holiday).toBe("勤労感謝の日");
  });

  it("follows a stylist's dated exceptions: a day off, other hours", async () => {
    const fixture = await buildSalonWithStaff(db(), { staffCount: 2 });
    const [first, second] = fixture.stylists;
    if (!first || !second) throw new Error("no stylists");
    await db()
      .insert(scheduleExceptions)
      .values([
        { salonId: fixture.salon.id, staffId: first.id, date: "2026-11-24", kind: "closed" },
        {
          salonId: fixture.salon.id,
          staffId: second.id,
          date: "2026-11-24",
          kind: "hours",
          startsAt: "12:00",
          endsAt: "16:00",
        },
      ]);
    const day = (await buildLedger(db(), fixture.salon, "2026-11-24", new Date())) as LedgerDay;
    expect(day.columns.map((c) => c.working.map((s) => `${s.startTime}-${s.endTime}`))).toEqual([
      [],
      ["12:00-16:00"],
    ]);
    expect(day.columns[0]?.free).toEqual([]);
  });

  it("shows a draft salon's day like any other: its bookings and its stylists' hours", async () => {
    const draft = await buildSalonWithStaff(db(), { salon: { status: "draft" } });
    const stylist = draft.stylists[0];
    if (!stylist) throw new Error("no stylist");
    await buildBooking(db(), {
      salonId: draft.salon.id,
      staffId: stylist.id,
      startsAt: at("2026-11-24", "11:00"),
      endsAt: at("2026-11-24", "12:00"),
      status: "confirmed",
      source: "phone",
      customerName: "下書き 太郎",
    });
    const day = (await buildLedger(db(), draft.salon, "2026-11-24", new Date())) as LedgerDay;
    expect(day.scheduleKnown).toBe(true);
    expect(day.columns[0]?.working).toMatchObject([{ startTime: "10:00", endTime: "20:00" }]);
    expect(day.columns[0]?.entries.map((e) => e.customerName)).toEqual(["下書き 太郎"]);
  });

  it("widens the axis to a booking outside the opening hours", async () => {
    const late = await buildSalonWithStaff(db());
    const stylist = late.stylists[0];
    if (!stylist) throw new Error("no stylist");
    await buildBooking(db(), {
      salonId: late.salon.id,
      staffId: stylist.id,
      startsAt: at("2026-11-24", "20:30"),
      endsAt: at("2026-11-24", "21:15"),
      status: "confirmed",
      source: "phone",
    });
    const day = (await buildLedger(db(), late.salon, "2026-11-24", new Date())) as LedgerDay;
    expect(day.axis).toMatchObject({ startMinutes: 600, endMinutes: 22 * 60 });
  });

  it("sums up a week from Monday per day and stylist", async () => {
    const week = (await buildLedger(db(), f.salon, "2026-11-26", new Date(), "week")) as LedgerWeek;
    expect([week.from, week.to]).toEqual([HOLIDAY, "2026-11-29"]);
    expect(week.staff.map((s) => s.name)).toEqual(["青木 あや", "佐藤 ゆう"]);
    const [monday, , wednesday, , friday] = week.days;
    expect(monday?.holiday).toBe("勤労感謝の日");
    expect(wednesday?.closed?.label).toBe("定休日");
    expect(friday?.closed?.label).toBe("休業日");
    // A block is listed but not counted as a booking; the cancellation is counted apart.
    expect(monday?.perStaff.map((cell) => cell.count)).toEqual([2, 1]);
    expect(
      monday?.perStaff[0]?.entries.map((e) => [e.startTime, e.customerName || e.label]),
    ).toEqual([
      ["10:00", "山田 花子"],
      ["11:00", ""],
      ["15:00", "打ち合わせ"],
    ]);
    expect(monday?.cancelledCount).toBe(1);
    expect(week.previous).toBe("2026-11-19");
    expect(week.next).toBe("2026-12-03");
  });
});

describe("the ledger page", () => {
  let env: ReturnType<typeof createRouteApp>;
  beforeAll(() => {
    env = createRouteApp(database, [{ path: "/owner/salons/:id/bookings", module: ledgerRoute }]);
  });

  async function signedIn(role: "user" | "owner" | "admin", salonId?: string) {
    const member = await signedInMember(database, env, role);
    await db().update(users).set({ role }).where(eq(users.id, member.userId));
    if (salonId) await db().insert(salonOwners).values({ salonId, userId: member.userId });
    return member.b;
  }

  const path = (salonId: string, query = `date=${HOLIDAY}`) =>
    `/owner/salons/${salonId}/bookings?${query}`;

  it("sends a guest to sign in, shows the 404 screen to a member and another salon's owner, opens for the owner and an admin", async () => {
    const guest = await env.app.request(`http://localhost:3000${path(f.salon.id)}`, {
      redirect: "manual",
    });
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe(
      `/signin?redirect=${encodeURIComponent(path(f.salon.id))}`,
    );
    const member = await signedIn("user");
    expect((await member.request(path(f.salon.id))).status).toBe(404);
    const otherOwner = await signedIn("owner", other.salon.id);
    expect((await otherOwner.request(path(f.salon.id))).status).toBe(404);
    expect((await otherOwner.request(path(other.salon.id))).status).toBe(200);

    const owner = await signedIn("owner", f.salon.id);
    const page = await owner.request(path(f.salon.id));
    expect(page.status).toBe(200);
    const body = (await page.json()) as { loaderData: LedgerPageData };
    expect(body.loaderData.kind).toBe("ledger");
    if (body.loaderData.kind !== "ledger") return;
    expect(body.loaderData.ledger.view).toBe("day");
    const admin = await signedIn("admin");
    const asAdmin = await admin.request(path(f.salon.id, `view=week&date=${HOLIDAY}`));
    expect(asAdmin.status).toBe(200);
    const week = (await asAdmin.json()) as { loaderData: LedgerPageData };
    expect(week.loaderData.kind === "ledger" && week.loaderData.ledger.view).toBe("week");
  });

  it("answers a date that is not one with 400 and the form again, never a 5xx", async () => {
    const owner = await signedIn("owner", f.salon.id);
    for (const date of ["2026-02-30", "abc", "2026-1-1", "'; drop table bookings;--"]) {
      const response = await owner.request(path(f.salon.id, `date=${encodeURIComponent(date)}`));
      expect(response.status).toBe(400);
      const body = (await response.json()) as { loaderData: LedgerPageData };
      expect(body.loaderData).toMatchObject({
        kind: "invalid",
        typed: date,
        message: expect.stringContaining("YYYY-MM-DD"),
      });
    }
    // No date: today in the salon's zone.
    const today = await owner.request(`/owner/salons/${f.salon.id}/bookings`);
    expect(today.status).toBe(200);
  });

  it("renders, without JavaScript, an ordered list per stylist whose every booking and free spot is a link", async () => {
    const ledger = await buildLedger(db(), f.salon, HOLIDAY, new Date(), "day");
    const data: LedgerPageData = {
      kind: "ledger",
      salon: { id: f.salon.id, name: f.salon.name },
      canEnter: true,
      ledger,
    };
    const html = await serverHtml(`/owner/salons/${f.salon.id}/bookings?date=${HOLIDAY}`, data);
    expect(html).toContain("<h1");
    expect(html).toContain("予約台帳");
    expect(html).toContain("祝日：勤労感謝の日");
    // The scrolled grid is a named, focusable region.
    expect(html).toMatch(/<section aria-label="2026年11月23日\(月\)の予約台帳" tabindex="0"/);
    // A keyboard can jump to any stylist's list.
    expect(html).toContain('<nav aria-label="スタイリストへ移動">');
    expect(html).toContain(`href="#ledger-staff-${f.b.id}"`);
    expect(html).toContain(`id="ledger-staff-${f.b.id}"`);
    // One heading and one ordered list per stylist.
    expect(html.match(/<h3 /g)).toHaveLength(2);
    expect(html.match(/<ol /g)).toHaveLength(2);
    const base = `/owner/salons/${f.salon.id}/bookings`;
    for (const id of [f.booked.id, f.hold.id, f.block.id, f.free.id, f.cancelled.id]) {
      expect(html).toContain(`href="${base}/${id}"`);
    }
    expect(html).toContain(
      `href="${base}/new?staff=${f.a.id}&amp;date=${HOLIDAY}&amp;time=12%3A00"`,
    );
    expect(html).toContain("山田 花子様");
    expect(html).toContain("ヤマダ ハナコ");
    expect(html).toContain("カット、カラー");
    expect(html).toContain("￥13,200");
    expect(html).toContain(">指名<");
    expect(html).toContain(">指名なし<");
    expect(html).toContain("仮押さえ");
    expect(html).toContain("ネット予約の手続き中");
    expect(html).toContain("ブロック：打ち合わせ");
    expect(html).toContain("休憩 13:00〜14:00");
    expect(html).toContain("11月23日(月)のキャンセル");
    expect(html).toContain("田中 次郎様");
    // Moving and jumping are links and a GET form.
    expect(html).toContain(`href="${base}?date=2026-11-22"`);
    expect(html).toContain(`href="${base}?date=2026-11-24"`);
    expect(html).toMatch(new RegExp(`<form [^>]*action="${base}" method="get"`));
    expect(html).toContain('type="date"');
    expect(html).toContain('aria-live="polite"');

    const closed = await buildLedger(db(), f.salon, WEDNESDAY, new Date(), "day");
    const closedHtml = await serverHtml(`${base}?date=${WEDNESDAY}`, { ...data, ledger: closed });
    expect(closedHtml).toContain("定休日です");
  });

  it("renders the week as a table linking each day to its day view", async () => {
    const ledger = await buildLedger(db(), f.salon, HOLIDAY, new Date(), "week");
    const html = await serverHtml(`/owner/salons/${f.salon.id}/bookings?view=week`, {
      kind: "ledger",
      salon: { id: f.salon.id, name: f.salon.name },
      canEnter: true,
      ledger,
    });
    expect(html).toContain("<table");
    expect(html).toContain(`href="/owner/salons/${f.salon.id}/bookings?date=${HOLIDAY}"`);
    expect(html).toContain("2件");
    expect(html).toContain("前の週");
    expect(html).toContain("次の週");
    expect(html).toContain("定休日");
  });
});

function LedgerRoute() {
  return createElement(LedgerPage, { data: useLoaderData() as LedgerPageData });
}

/** The page's server HTML for this data, as the server renders it (React Router's static router). */
async function serverHtml(url: string, data: LedgerPageData) {
  const handler = createStaticHandler([
    {
      id: "ledger",
      path: "/owner/salons/:id/bookings",
      loader: () => data,
      Component: LedgerRoute,
    },
  ]);
  const context = await handler.query(new Request(`http://localhost:3000${url}`));
  if (context instanceof Response) throw new Error("unexpected response");
  const router = createStaticRouter(handler.dataRoutes, context);
  // React's markers between adjacent text parts are not what a reader gets.
  return renderToString(createElement(StaticRouterProvider, { router, context })).replaceAll(
    "<!-- -->",
    "",
  );
}

describe("the ledger API and its live stream", () => {
  const NOW = new Date("2026-11-20T09:00:00+09:00");
  let server: ReturnType<typeof createApiTestApp>;
  beforeAll(() => {
    server = createApiTestApp(database, { now: () => NOW, heartbeatMs: 60_000 });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function apiOwner(salonId: string | null, role: "owner" | "admin" = "owner") {
    const user = await apiUser(server.app);
    await db().update(users).set({ role, emailVerified: true }).where(eq(users.id, user.userId));
    if (salonId) await db().insert(salonOwners).values({ salonId, userId: user.userId });
    return user;
  }

  it("answers the day and the week as JSON for the salon's owner, 404 for another salon's, 401 for a guest", async () => {
    const owner = await apiOwner(f.salon.id);
    const day = await owner.request(`/api/owner/salons/${f.salon.id}/ledger?date=${HOLIDAY}`);
    expect(day.status).toBe(200);
    const { data } = (await day.json()) as { data: LedgerDay };
    expect(data.view).toBe("day");
    expect(data.columns[0]?.entries[0]).toMatchObject({
      customerName: "山田 花子",
      menus: ["カット", "カラー"],
      staffRequested: true,
    });
    const week = await owner.request(
      `/api/owner/salons/${f.salon.id}/ledger?date=${HOLIDAY}&view=week`,
    );
    expect(week.status).toBe(200);
    expect(((await week.json()) as { data: LedgerWeek }).data.days).toHaveLength(7);
    // Today by default (the API's clock).
    const today = await owner.request(`/api/owner/salons/${f.salon.id}/ledger`);
    expect(((await today.json()) as { data: LedgerDay }).data.date).toBe("2026-11-20");

    const bad = await owner.request(`/api/owner/salons/${f.salon.id}/ledger?date=2026-02-30`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(
      /YYYY-MM-DD/,
    );
    for (const query of ["view=month", `date=${"9".repeat(100)}`, "date=a&date=b"]) {
      const refused = await owner.request(`/api/owner/salons/${f.salon.id}/ledger?${query}`);
      expect(refused.status, query).toBe(400);
      const { error } = (await refused.json()) as { error: { message: string } };
      expect(error.message, query).toMatch(/[ぁ-んァ-ン一-龥]/);
    }

    const stranger = await apiOwner(other.salon.id);
    expect((await stranger.request(`/api/owner/salons/${f.salon.id}/ledger`)).status).toBe(404);
    expect(
      (await apiClient(server.app).request(`/api/owner/salons/${f.salon.id}/ledger`)).status,
    ).toBe(401);
    const admin = await apiOwner(null, "admin");
    expect((await admin.request(`/api/owner/salons/${f.salon.id}/ledger`)).status).toBe(200);
  });

  it("tells the owner's open stream when a booking is held and confirmed, also through another app server; another salon's owner gets 404", async () => {
    const fixture = await buildSalonWithStaff(db());
    const owner = await apiOwner(fixture.salon.id);
    const date = "2026-11-24";
    const response = await owner.request(
      `/api/owner/salons/${fixture.salon.id}/ledger/stream?from=${date}&to=${date}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = readEventStream(response);
    const hello = await stream.inbox.next((m) => m.event === "ledger");
    expect(JSON.parse(hello.data ?? "null")).toEqual({
      changedDates: null,
      data: { from: date, to: date },
    });

    // A change on another date is not news for this stream.
    const visitor = { userId: (await buildUser(db())).id };
    const client = bookingClient(db());
    const elsewhere = await holdSlot(db(), {
      ...client,
      salonId: fixture.salon.id,
      menuIds: [fixture.menu.id],
      staffId: null,
      start: at("2026-11-26", "15:00"),
      userId: visitor.userId,
      now: NOW,
    });
    expect(elsewhere.status).toBe("held");
    const hold = await holdSlot(db(), {
      ...client,
      salonId: fixture.salon.id,
      menuIds: [fixture.menu.id],
      staffId: null,
      start: at(date, "15:00"),
      userId: visitor.userId,
      now: NOW,
    });
    const held = await stream.inbox.next((m) => m.event === "ledger");
    expect(JSON.parse(held.data ?? "null").changedDates).toEqual([date]);
    // Confirmed on a second app server (its own pool and LISTEN on PostgreSQL).
    const secondServer = await database.openAnother();
    try {
      await confirmBooking(secondServer.db, {
        ...client,
        holdId: hold.id,
        userId: visitor.userId,
        customer: { name: "予約 花子", kana: "ヨヤク ハナコ", phone: "09012345678", email: "" },
        notes: "",
        idempotencyKey: null,
        now: NOW,
      });
    } finally {
      await secondServer.close();
    }
    const confirmed = await stream.inbox.next((m) => m.event === "ledger");
    expect(JSON.parse(confirmed.data ?? "null").changedDates).toEqual([date]);
    await stream.close();

    const stranger = await apiOwner(other.salon.id);
    const refused = await stranger.request(
      `/api/owner/salons/${fixture.salon.id}/ledger/stream?from=${date}&to=${date}`,
    );
    expect(refused.status).toBe(404);
    const tooLong = await owner.request(
      `/api/owner/salons/${fixture.salon.id}/ledger/stream?from=2026-11-01&to=2026-12-31`,
    );
    expect(tooLong.status).toBe(400);
  });
});

describe("the ledger as the server sends it", () => {
  let site: Awaited<ReturnType<typeof createRouterApp>>;
  beforeAll(async () => {
    site = await createRouterApp(database, { E2E_LOGIN: "true" });
  }, 120_000);
  afterAll(async () => {
    await site?.close();
  });

  it("is a page whose HTML holds a list per stylist with every booking linked, for a reader without JavaScript", async () => {
    const b = browser(site.app);
    const login = await b.request("/api/test/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ role: "owner" }),
    });
    expect(login.status).toBe(201);
    const { email } = (await login.json()) as { email: string };
    const [owner] = await db().select().from(users).where(eq(users.email, email));
    if (!owner) throw new Error("no owner");
    await db().insert(salonOwners).values({ salonId: f.salon.id, userId: owner.id });

    const base = `/owner/salons/${f.salon.id}/bookings`;
    const response = await b.request(`${base}?date=${HOLIDAY}`);
    expect(response.status).toBe(200);
    const html = (await response.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("<title>予約台帳 | Hair Salon TEST | Salon Navi サロン管理</title>");
    expect(html.match(/<ol /g)).toHaveLength(2);
    for (const id of [f.booked.id, f.hold.id, f.block.id, f.free.id, f.cancelled.id]) {
      expect(html).toContain(`href="${base}/${id}"`);
    }
    expect(html).toContain("山田 花子様");
    expect(html).toContain("祝日：勤労感謝の日");

    // The page's live stream, with the browser's session cookie, through the whole server.
    const live = await b.request(
      `/api/owner/salons/${f.salon.id}/ledger/stream?from=${HOLIDAY}&to=${HOLIDAY}`,
    );
    expect(live.status).toBe(200);
    expect(live.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = readEventStream(live);
    await stream.inbox.next((m) => m.event === "ledger");
    await notifySlotChange(db(), f.salon.id, [HOLIDAY]);
    const changed = await stream.inbox.next((m) => m.event === "ledger");
    expect(JSON.parse(changed.data ?? "null").changedDates).toEqual([HOLIDAY]);
    await stream.close();

    const bad = await b.request(`${base}?date=2026-13-01`);
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("日付は YYYY-MM-DD の形式で");
    expect(badHtml).toContain('value="2026-13-01"');
  });
});
