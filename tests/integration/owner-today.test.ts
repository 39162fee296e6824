import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OwnerToday } from "../../app/components/owner/owner-today";
import * as ownerRoute from "../../app/routes/owner";
import * as todayRoute from "../../app/routes/owner.salons.$id";
import * as frameRoute from "../../app/routes/owner.salons.$id._layout";
import * as signinRoute from "../../app/routes/signin";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import type { BookingActorKind, BookingEventKind, BookingStatus } from "../../server/db/schema";
import { bookingEvents, salonOwners, scheduleExceptions, users } from "../../server/db/schema";
import { todayView } from "../../server/owner/today.server";
import { browser, setRole } from "../support/accounts";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import { buildBooking, buildSalonWithStaff, buildUser } from "../support/builders";
import { createRouteApp, signedInMember } from "../support/route-app";
import { readEventStream } from "../support/sse";
import { withTestDatabase } from "../support/test-database";

/**
 * The back office's 今日 (issue 28, points 2 and 7; decision 0043): the
 * view against built data at a fixed moment, the pages' guard for every
 * kind of visitor, and the JSON answer.
 */
const database = withTestDatabase();

/** A Tuesday afternoon in Tokyo. */
const NOW = new Date("2026-12-01T14:00:00+09:00");
const at = (time: string, date = "2026-12-01") => new Date(`${date}T${time}:00+09:00`);
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

type Built = Awaited<ReturnType<typeof buildSalonWithStaff>>;
let a: Built;
let b: Built;
const booking: Record<string, string> = {};

async function book(
  name: string,
  salon: Built,
  stylist: number,
  from: Date,
  to: Date,
  values: { status?: BookingStatus; kind?: "booking" | "block"; arrived?: boolean } = {},
) {
  const row = await buildBooking(database.db, {
    salonId: salon.salon.id,
    staffId: salon.stylists[stylist]?.id ?? "",
    startsAt: from,
    endsAt: to,
    status: values.status ?? "confirmed",
    kind: values.kind ?? "booking",
    source: "phone",
    staffRequested: stylist === 0,
    customerName: values.kind === "block" ? "" : `${name} 様子`,
    customerKana: values.kind === "block" ? "" : `${name.toUpperCase()} ヨウコ`,
    salonNote: values.kind === "block" ? "休憩" : "",
    arrivedAt: values.arrived ? minutesAgo(30) : null,
    cancelledAt: values.status?.startsWith("cancelled") ? minutesAgo(180) : null,
  });
  booking[name] = row.id;
  return row;
}

async function event(
  name: string,
  kind: BookingEventKind,
  actorKind: BookingActorKind,
  createdAt: Date,
  salon = a,
) {
  await database.db.insert(bookingEvents).values({
    salonId: salon.salon.id,
    bookingId: booking[name] ?? "",
    kind,
    actorKind,
    createdAt,
  });
}

beforeAll(async () => {
  a = await buildSalonWithStaff(database.db, { staffCount: 2, salon: { name: "サロンA" } });
  b = await buildSalonWithStaff(database.db, { salon: { name: "サロンB" } });
  // Stylist 2 works a short day today (an exception of the schedule).
  await database.db.insert(scheduleExceptions).values({
    salonId: a.salon.id,
    staffId: a.stylists[1]?.id ?? null,
    date: "2026-12-01",
    kind: "hours",
    startsAt: "10:00",
    endsAt: "16:00",
  });
  await book("done", a, 0, at("10:00"), at("11:00"), { status: "completed" });
  await book("noshow", a, 0, at("11:00"), at("12:00"), { status: "no_show" });
  await book("cancelled", a, 1, at("12:00"), at("13:00"), { status: "cancelled_by_user" });
  await book("here", a, 1, at("13:30"), at("14:10"), { arrived: true });
  await book("late", a, 0, at("13:50"), at("14:50"));
  await book("soon", a, 1, at("14:20"), at("15:20"));
  await book("later", a, 0, at("15:00"), at("16:00"));
  await book("break", a, 0, at("16:00"), at("17:00"), { kind: "block" });
  await book("tomorrow", a, 0, at("10:00", "2026-12-02"), at("11:00", "2026-12-02"));
  await book("elsewhere", b, 0, at("15:00"), at("16:00"));

  await event("later", "created", "customer", minutesAgo(30));
  await event("soon", "created", "customer", minutesAgo(120));
  await event("cancelled", "cancelled", "customer", minutesAgo(180));
  await event("late", "created", "salon", minutesAgo(10));
  await event("done", "created", "customer", minutesAgo(8 * 24 * 60));
  await event("later", "moved", "customer", minutesAgo(20 * 60));
  await event("later", "note_changed", "salon", minutesAgo(5));
  await event("tomorrow", "created", "customer", new Date(NOW.getTime() + 2 * 3_600_000));
  await event("elsewhere", "created", "customer", minutesAgo(15), b);
});

const salonA = () => ({ id: a.salon.id, name: a.salon.name, timeZone: a.salon.timeZone });

describe("the day at a glance (todayView)", () => {
  it("counts the day's bookings by status, leaving out blocks, other days and other salons", async () => {
    const view = await todayView(database.db, salonA(), NOW);
    expect(view.counts).toEqual({ booked: 4, completed: 1, cancelled: 1, noShow: 1 });
    expect(view.date).toBe("2026-12-01");
    expect(view.dateLabel).toBe("2026年12月1日(火)");
    expect(view.nowTime).toBe("14:00");
  });

  it("lists the bookings still to come, the next one first, with what the desk needs", async () => {
    const view = await todayView(database.db, salonA(), NOW);
    expect(view.upcoming.map((item) => item.id)).toEqual([booking.soon, booking.later]);
    expect(view.upcoming[0]).toMatchObject({
      startTime: "14:20",
      endTime: "15:20",
      customerName: "soon 様子",
      customerKana: "SOON ヨウコ",
      staffName: "スタイリスト2",
      staffRequested: false,
      status: "confirmed",
      source: "phone",
      arrived: false,
    });
    expect(view.upcoming[1]?.staffRequested).toBe(true);
    expect(view.upcoming[1]?.menus).toEqual([]);
  });

  it("names arrivals due: started or starting within 30 minutes, not yet arrived", async () => {
    const view = await todayView(database.db, salonA(), NOW);
    expect(view.arrivalsDue.map((item) => item.id)).toEqual([booking.late, booking.soon]);
  });

  it("gives each stylist's free time left from the engine's schedule, exceptions and busy time", async () => {
    const view = await todayView(database.db, salonA(), NOW);
    expect(view.capacity).toEqual([
      // 14:00–20:00 left; 13:50–14:50 (from 14:00), 15:00–16:00 and the 16:00–17:00 block taken.
      {
        staffId: a.stylists[0]?.id,
        staffName: "スタイリスト1",
        workingMinutesLeft: 360,
        bookedMinutesLeft: 170,
        freeMinutesLeft: 190,
      },
      // Today only until 16:00; 13:30–14:10 (from 14:00) and 14:20–15:20 taken.
      {
        staffId: a.stylists[1]?.id,
        staffName: "スタイリスト2",
        workingMinutesLeft: 120,
        bookedMinutesLeft: 70,
        freeMinutesLeft: 50,
      },
    ]);
  });

  it("shows the customers' changes: a new booking within the hour and the day's cancellations and moves need a look", async () => {
    const view = await todayView(database.db, salonA(), NOW);
    expect(view.attention.map((n) => [n.kind, n.bookingId])).toEqual([
      ["created", booking.later],
      ["cancelled", booking.cancelled],
      ["moved", booking.later],
    ]);
    expect(view.notices.map((n) => [n.kind, n.bookingId])).toEqual([
      ["created", booking.later],
      ["created", booking.soon],
      ["cancelled", booking.cancelled],
      ["moved", booking.later],
    ]);
    expect(view.notices[0]).toMatchObject({
      atLabel: "12月1日(火) 13:30",
      bookingStartLabel: "12月1日(火) 15:00",
      customerName: "later 様子",
      status: "confirmed",
    });
  });

  it("keeps at most 20 notices of the last 7 days, newest first", async () => {
    for (let i = 0; i < 25; i++)
      await event("tomorrow", "created", "customer", minutesAgo(300 + i));
    const view = await todayView(database.db, salonA(), NOW);
    expect(view.notices).toHaveLength(20);
    const times = view.notices.map((n) => Date.parse(n.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    await database.db
      .delete(bookingEvents)
      .where(eq(bookingEvents.bookingId, booking.tomorrow ?? ""));
  });

  it("reads a quiet day and a salon in another time zone", async () => {
    const quiet = await todayView(
      database.db,
      { id: b.salon.id, name: "サロンB", timeZone: "Asia/Tokyo" },
      at("18:00", "2026-12-03"),
    );
    expect(quiet).toMatchObject({
      upcoming: [],
      arrivalsDue: [],
      attention: [],
      counts: { booked: 0, completed: 0, cancelled: 0, noShow: 0 },
    });
    // 14:00 in Tokyo is 05:00 UTC: the same instant is still 1 December there, at 05:00.
    const utc = await todayView(database.db, { ...salonA(), timeZone: "UTC" }, NOW);
    expect(utc.nowTime).toBe("05:00");
    expect(utc.dateLabel).toBe("2026年12月1日(火)");
  });

  it("renders the day in Japanese, with the next booking, 指名 marks and links to each booking", async () => {
    const view = await todayView(database.db, salonA(), NOW);
    const html = renderToString(
      createElement(MemoryRouter, null, createElement(OwnerToday, { data: { view } })),
    );
    expect(html).toContain("2026年12月1日(火)");
    expect(html).toContain("次の予約");
    expect(html).toContain("指名なし");
    expect(html).toContain(`/owner/salons/${a.salon.id}/bookings/${booking.soon}`);
    expect(html).toContain("3時間10分");
    expect(html).not.toContain("休憩");
    const empty = renderToString(
      createElement(
        MemoryRouter,
        null,
        createElement(OwnerToday, {
          data: {
            view: { ...view, upcoming: [], arrivalsDue: [], attention: [], notices: [] },
          },
        }),
      ),
    );
    expect(empty).toContain("今日これからの予約はありません。");
    expect(empty).toContain("確認が必要なお知らせはありません。");
  });

  it("puts the day's bookings first, with 要確認 summed up above them and listed after (issue 38, point 7)", async () => {
    const view = await todayView(database.db, salonA(), NOW);
    const html = renderToString(
      createElement(
        MemoryRouter,
        null,
        createElement(OwnerToday, { data: { view, scheduleRequests: 2 } }),
      ),
    ).replaceAll("<!-- -->", "");
    const at = (text: string) => {
      const index = html.indexOf(text);
      expect(index, text).toBeGreaterThanOrEqual(0);
      return index;
    };
    // The bookings' headings come before 要確認's, the numbers' and the notices'.
    const arrivals = at('id="arrivals-heading"');
    const upcoming = at('id="upcoming-heading"');
    expect(arrivals).toBeLessThan(upcoming);
    for (const after of ["attention-heading", "counts-heading", "capacity-heading"]) {
      expect(upcoming, after).toBeLessThan(at(`id="${after}"`));
    }
    // The one line above them says what needs a look and leads to it.
    const summary = at('href="#attention-heading"');
    expect(summary).toBeLessThan(arrivals);
    expect(html).toContain(`要確認：お知らせ ${view.attention.length}件・勤務変更の申請 2件`);
    const quiet = renderToString(
      createElement(
        MemoryRouter,
        null,
        createElement(OwnerToday, {
          data: { view: { ...view, attention: [], pendingApprovals: [] } },
        }),
      ),
    );
    expect(quiet).not.toContain('href="#attention-heading"');
  });
});

describe("the 今日 pages", () => {
  let site: ReturnType<typeof createRouteApp>;
  beforeAll(() => {
    site = createRouteApp(database, [
      { path: "/owner", module: ownerRoute },
      { path: "/owner/salons/:id", module: todayRoute, layout: frameRoute },
      { path: "/signin", module: signinRoute },
    ]);
  });
  afterAll(async () => {
    await site.accounts.close();
  });

  async function signedIn(role: "user" | "owner" | "admin", salons: Built[] = []) {
    const member = await signedInMember(database, site, role);
    await setRole(database.db, member.email, role);
    for (const salon of salons) {
      await database.db
        .insert(salonOwners)
        .values({ salonId: salon.salon.id, userId: member.userId });
    }
    return member;
  }

  const pageOf = (salon: Built) => `/owner/salons/${salon.salon.id}`;

  it("sends a guest to sign in and back to the page", async () => {
    const guest = browser(site.app);
    for (const path of ["/owner", pageOf(a)]) {
      const answer = await guest.request(path);
      expect(answer.status, path).toBe(302);
      expect(answer.headers.get("location")).toBe(`/signin?redirect=${encodeURIComponent(path)}`);
    }
  });

  it("brings an owner who signs in from there back to the page", async () => {
    const owner = await signedIn("owner", [a]);
    const guest = browser(site.app);
    const path = pageOf(a);
    const toSignIn = await guest.request(path);
    const signInPath = toSignIn.headers.get("location") ?? "";
    const signIn = await guest.request(signInPath, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        email: owner.email,
        password: "secret1",
        redirect: new URL(signInPath, "http://x").searchParams.get("redirect") ?? "",
      }).toString(),
    });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("location")).toBe(path);
    expect((await guest.request(path)).status).toBe(200);
  });

  it("gives a member the 404 screen and another salon's owner the same", async () => {
    const member = await signedIn("user");
    expect((await member.b.request("/owner")).status).toBe(404);
    expect((await member.b.request(pageOf(a))).status).toBe(404);
    const ownerOfB = await signedIn("owner", [b]);
    expect((await ownerOfB.b.request(pageOf(a))).status).toBe(404);
    expect((await ownerOfB.b.request(pageOf(b))).status).toBe(200);
  });

  it("treats a suspended owner as a guest", async () => {
    const owner = await signedIn("owner", [a]);
    await database.db.update(users).set({ banned: true }).where(eq(users.id, owner.userId));
    const answer = await owner.b.request(pageOf(a));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toMatch(/^\/signin\?redirect=/);
  });

  it("opens /owner on the owner's first salon, with a switcher list of the others", async () => {
    const owner = await signedIn("owner", [b, a]);
    const home = await owner.b.request("/owner");
    expect(home.status).toBe(302);
    // By name: サロンA before サロンB.
    expect(home.headers.get("location")).toBe(pageOf(a));
    const page = await owner.b.request(pageOf(a));
    expect(page.status).toBe(200);
    const { loaderData, layoutData } = (await page.json()) as {
      loaderData: { view: { salon: { id: string } } };
      layoutData: { salon: { id: string }; salons: { id: string }[] };
    };
    expect(loaderData.view.salon.id).toBe(a.salon.id);
    // The frame, read once by the layout route for every page of the salon.
    expect(layoutData.salon.id).toBe(a.salon.id);
    expect(layoutData.salons.map((salon) => salon.id)).toEqual([a.salon.id, b.salon.id]);
  });

  it("tells an owner without salons, and an administrator, where to go", async () => {
    const lonely = await signedIn("owner");
    const none = await lonely.b.request("/owner");
    expect(none.status).toBe(200);
    expect(((await none.json()) as { loaderData: unknown }).loaderData).toEqual({
      kind: "no_salons",
    });
    const admin = await signedIn("admin");
    const home = await admin.b.request("/owner");
    expect(((await home.json()) as { loaderData: unknown }).loaderData).toEqual({ kind: "admin" });
    const page = await admin.b.request(pageOf(a));
    expect(page.status).toBe(200);
    const { layoutData } = (await page.json()) as { layoutData: { salons: unknown[] } };
    expect(layoutData.salons).toEqual([]);
  });
});

describe("GET /api/owner/salons/{id}/today", () => {
  let api: ReturnType<typeof createApiTestApp>;
  beforeAll(() => {
    api = createApiTestApp(database, { now: () => NOW, heartbeatMs: 60_000 });
  });
  afterAll(async () => {
    await api.close();
    await api.accounts.close();
  });

  async function owner(salons: Built[]) {
    const client = await apiUser(api.app);
    await database.db
      .update(users)
      .set({ role: "owner", emailVerified: true })
      .where(eq(users.id, client.userId));
    for (const salon of salons) {
      await database.db
        .insert(salonOwners)
        .values({ salonId: salon.salon.id, userId: client.userId });
    }
    return client;
  }

  it("answers the same view as the page for the salon's owner, as of the API's clock", async () => {
    const client = await owner([a]);
    const answer = await client.request(`/api/owner/salons/${a.salon.id}/today`);
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as {
      data: Awaited<ReturnType<typeof todayView>>;
    };
    expect(data.counts).toEqual({ booked: 4, completed: 1, cancelled: 1, noShow: 1 });
    expect(data.upcoming.map((item) => item.id)).toEqual([booking.soon, booking.later]);
    expect(data.dateLabel).toBe("2026年12月1日(火)");
  });

  it("answers 401 to a guest and 404 to another salon's owner", async () => {
    const guest = await apiClient(api.app).request(`/api/owner/salons/${a.salon.id}/today`);
    expect(guest.status).toBe(401);
    const other = await owner([b]);
    const answer = await other.request(`/api/owner/salons/${a.salon.id}/today`);
    expect(answer.status).toBe(404);
    const body = (await answer.json()) as { error: { message: string } };
    expect(body.error.message).toBe("サロンが見つかりません。");
    const malformed = await other.request("/api/owner/salons/not-a-uuid/today");
    expect([400, 404]).toContain(malformed.status);
  });

  it("streams every change of the salon's bookings, on any day, to the page's 要確認 (issue 38, point 6)", async () => {
    const c = await buildSalonWithStaff(database.db, { salon: { name: "サロンC" } });
    const client = await owner([c]);
    const response = await client.request(`/api/owner/salons/${c.salon.id}/today/stream`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = readEventStream(response);
    try {
      const hello = await stream.inbox.next((m) => m.event === "today");
      expect(JSON.parse(hello.data ?? "null")).toEqual({
        changedDates: null,
        data: { date: "2026-12-01" },
      });
      // A visitor books tomorrow on the web: the hold, then the booking, are news for today.
      const visitor = await buildUser(database.db);
      const booking = bookingClient(database.db);
      const hold = await holdSlot(database.db, {
        ...booking,
        salonId: c.salon.id,
        menuIds: [c.menu.id],
        staffId: null,
        start: at("15:00", "2026-12-02"),
        userId: visitor.id,
        now: NOW,
      });
      const held = await stream.inbox.next((m) => m.event === "today");
      expect(JSON.parse(held.data ?? "null").changedDates).toEqual(["2026-12-02"]);
      await confirmBooking(database.db, {
        ...booking,
        holdId: hold.id,
        userId: visitor.id,
        customer: { name: "明日 来子", kana: "アシタ クルコ", phone: "09012345678", email: "" },
        notes: "",
        idempotencyKey: null,
        now: NOW,
      });
      const confirmed = await stream.inbox.next((m) => m.event === "today");
      expect(JSON.parse(confirmed.data ?? "null").changedDates).toEqual(["2026-12-02"]);
      // What the page then reads again shows it in 要確認.
      const view = await todayView(database.db, c.salon, NOW);
      expect(view.attention.map((notice) => [notice.kind, notice.customerName])).toEqual([
        ["created", "明日 来子"],
      ]);
    } finally {
      await stream.close();
    }
    const stranger = await owner([b]);
    const refused = await stranger.request(`/api/owner/salons/${c.salon.id}/today/stream`);
    expect(refused.status).toBe(404);
    const guest = await apiClient(api.app).request(`/api/owner/salons/${c.salon.id}/today/stream`);
    expect(guest.status).toBe(401);
  });
});
