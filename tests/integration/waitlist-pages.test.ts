import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as historyRoute from "../../app/routes/account.history";
import * as waitlistLeaveRoute from "../../app/routes/account.waitlist";
import * as offerRoute from "../../app/routes/account.waitlist.offers.$offerId";
import * as ledgerRoute from "../../app/routes/owner.salons.$id.bookings";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import * as joinRoute from "../../app/routes/salons.$id.waitlist";
import { addDays, calendarDay, localToInstant } from "../../common/local-time";
import {
  bookings,
  salonMembers,
  salonOwners,
  users,
  waitlistEntries,
  waitlistOffers,
} from "../../server/db/schema";
import { matchWaitlist } from "../../server/waitlist/waitlist-matcher.server";
import { browser, ORIGIN, setRole } from "../support/accounts";
import { apiUser, createApiTestApp } from "../support/api-client";
import { buildBooking, buildSalonWithStaff } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { readEventStream } from "../support/sse";
import { withTestDatabase } from "../support/test-database";

/**
 * Issue 30, point 4 (decision 0055): the waiting list's screens. Joining
 * from the booking flow's full day (/salons/:id/waitlist), the section of
 * /account/history and leaving it, the offer page (/account/waitlist/offers/:id)
 * into the confirm step or 辞退する, and the day's line in the salon's ledger.
 * The routes read the real clock: the days are a few days from today.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(() => {
  env = createRouteApp(database, [
    { path: "/salons/:id/waitlist", module: joinRoute },
    { path: "/salons/:id/confirm", module: confirmRoute },
    { path: "/account/history", module: historyRoute },
    { path: "/account/waitlist", module: waitlistLeaveRoute },
    { path: "/account/waitlist/offers/:offerId", module: offerRoute },
    { path: "/owner/salons/:id/bookings", module: ledgerRoute },
  ]);
});

const ZONE = "Asia/Tokyo";
const today = () => calendarDay(new Date(), ZONE);
const at = (date: string, time: string) => localToInstant(date, time, ZONE);

/** A salon (10:00–20:00, stylists working all day) whose day `date` is fully booked. */
async function fullDay(staffCount = 1) {
  const f = await buildSalonWithStaff(database.db, { staffCount });
  const date = addDays(today(), 3);
  const blockers = [];
  for (const stylist of f.stylists) {
    blockers.push(
      await buildBooking(database.db, {
        salonId: f.salon.id,
        staffId: stylist.id,
        startsAt: at(date, "10:00"),
        endsAt: at(date, "20:00"),
        status: "confirmed",
        source: "phone",
      }),
    );
  }
  const query = `menu=${f.menu.id}&date=${date}`;
  return { ...f, date, blockers, query, path: `/salons/${f.salon.slug}/waitlist?${query}` };
}

type JoinPage = {
  loaderData: {
    page: {
      date: string;
      startChoices: string[];
      endChoices: string[];
      values: { windowStart: string; windowEnd: string };
      problems: string[];
      joined: boolean;
      stylistName: string | null;
    };
  };
  actionData: {
    errors: Record<string, string>;
    values: { windowStart: string; windowEnd: string };
  } | null;
};

const entriesOf = (userId: string) =>
  database.db.select().from(waitlistEntries).where(eq(waitlistEntries.userId, userId));

describe("joining the waiting list from the booking flow", () => {
  it("sends a guest to sign in and back to the same choice, for the page and its form", async () => {
    const f = await fullDay();
    const guest = browser(env.app);
    const page = await guest.request(f.path);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`/signin?redirect=${encodeURIComponent(f.path)}`);
    const post = await guest.request(
      f.path,
      postForm({ windowStart: "10:00", windowEnd: "20:00" }),
    );
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toBe(`/signin?redirect=${encodeURIComponent(f.path)}`);
  });

  it("shows the window on the salon's hours (the whole day by default), joins, and says so with the way to the history", async () => {
    const f = await fullDay();
    const { b, userId } = await signedInMember(database, env, "joiner");
    const page = (await (await b.request(f.path)).json()) as JoinPage;
    expect(page.loaderData.page.problems).toEqual([]);
    expect(page.loaderData.page.values).toEqual({ windowStart: "10:00", windowEnd: "20:00" });
    expect(page.loaderData.page.startChoices[0]).toBe("10:00");
    expect(page.loaderData.page.startChoices.at(-1)).toBe("19:30");
    expect(page.loaderData.page.endChoices.at(-1)).toBe("20:00");
    expect(page.loaderData.page.stylistName).toBeNull();

    const joined = await b.request(f.path, postForm({ windowStart: "13:00", windowEnd: "17:30" }));
    expect(joined.status).toBe(302);
    const back = joined.headers.get("location") ?? "";
    expect(back).toBe(`${f.path}&joined=1`);
    expect((await entriesOf(userId)).map((e) => [e.windowStart, e.windowEnd, e.status])).toEqual([
      [13 * 60, 17 * 60 + 30, "waiting"],
    ]);
    const after = (await (await b.request(back)).json()) as JoinPage;
    expect(after.loaderData.page.joined).toBe(true);
  });

  it("answers hostile or impossible input with a 4xx Japanese message, keeping what was typed", async () => {
    const f = await fullDay();
    const { b, userId } = await signedInMember(database, env, "hostile");
    const refusals: [Record<string, string>, number, string, RegExp][] = [
      [{ windowStart: "25:00", windowEnd: "20:00" }, 400, "windowStart", /「から」を選んで/],
      [{ windowStart: "15:00", windowEnd: "11:00" }, 400, "windowEnd", /「まで」に選んで/],
      [{ windowStart: "x".repeat(5000), windowEnd: "20:00" }, 400, "windowStart", /「から」/],
      [{ windowEnd: "20:00" }, 400, "windowStart", /「から」を選んで/],
    ];
    for (const [fields, status, field, message] of refusals) {
      const answer = await b.request(f.path, postForm(fields));
      expect({ fields: Object.keys(fields), status: answer.status }).toEqual({
        fields: Object.keys(fields),
        status,
      });
      const { actionData } = (await answer.json()) as JoinPage;
      expect(actionData?.errors[field]).toMatch(message);
      expect(actionData?.values.windowEnd).toBe(fields.windowEnd ?? "");
    }
    // A menu of another salon, a broken date: the page and the post say why.
    const other = await buildSalonWithStaff(database.db);
    const foreign = `/salons/${f.salon.slug}/waitlist?menu=${other.menu.id}&date=${f.date}`;
    const foreignPage = await b.request(foreign);
    expect(foreignPage.status).toBe(400);
    expect(((await foreignPage.json()) as JoinPage).loaderData.page.problems[0]).toMatch(
      /メニュー/,
    );
    const foreignPost = await b.request(
      foreign,
      postForm({ windowStart: "10:00", windowEnd: "20:00" }),
    );
    expect(foreignPost.status).toBe(400);
    const badDate = await b.request(
      `/salons/${f.salon.slug}/waitlist?menu=${f.menu.id}&date=2026-02-30`,
    );
    expect(badDate.status).toBe(400);
    const past = await b.request(
      `/salons/${f.salon.slug}/waitlist?menu=${f.menu.id}&date=${addDays(today(), -1)}`,
    );
    expect(past.status).toBe(400);
    expect(((await past.json()) as JoinPage).loaderData.page.problems).toContain(
      "過去の日付は選べません。今日以降の日付をお選びください。",
    );
    // A day with a free time in the window: book it instead (409), the typed window kept.
    const freeDay = addDays(f.date, 1);
    const free = await b.request(
      `/salons/${f.salon.slug}/waitlist?menu=${f.menu.id}&date=${freeDay}`,
      postForm({ windowStart: "11:00", windowEnd: "12:00" }),
    );
    expect(free.status).toBe(409);
    const freeAnswer = (await free.json()) as JoinPage;
    expect(freeAnswer.actionData?.errors.form).toMatch(/ご希望の時間に空きがあります/);
    expect(freeAnswer.actionData?.values).toEqual({ windowStart: "11:00", windowEnd: "12:00" });
    // Twice for the same day: refused.
    expect(
      (await b.request(f.path, postForm({ windowStart: "10:00", windowEnd: "20:00" }))).status,
    ).toBe(302);
    const twice = await b.request(f.path, postForm({ windowStart: "10:00", windowEnd: "12:00" }));
    expect(twice.status).toBe(409);
    expect((await entriesOf(userId)).length).toBe(1);
  });

  it("limits joins per account (429 with a Japanese message, what was typed kept)", async () => {
    const limited = createRouteApp(
      database,
      [{ path: "/salons/:id/waitlist", module: joinRoute }],
      {
        BOOKING_RATE_LIMIT_PER_ACCOUNT: "2",
      },
    );
    const f = await fullDay();
    const { b } = await signedInMember(database, limited, "hasty");
    // Refused windows do not reach joinWaitlist; joins (and refused joins) count.
    const other = `/salons/${f.salon.slug}/waitlist?menu=${f.menu.id}&date=${addDays(f.date, 1)}`;
    expect(
      (await b.request(other, postForm({ windowStart: "11:00", windowEnd: "12:00" }))).status,
    ).toBe(409);
    expect(
      (await b.request(f.path, postForm({ windowStart: "10:00", windowEnd: "20:00" }))).status,
    ).toBe(302);
    const third = await b.request(f.path, postForm({ windowStart: "12:00", windowEnd: "13:00" }));
    expect(third.status).toBe(429);
    const { actionData } = (await third.json()) as JoinPage;
    expect(actionData?.errors.form).toMatch(/操作が多すぎます/);
    expect(actionData?.values).toEqual({ windowStart: "12:00", windowEnd: "13:00" });
  });

  it("offers the full days in the booking flow (the chosen full day, and a list of them)", async () => {
    const f = await fullDay();
    const { b } = await signedInMember(database, env, "flow");
    const answer = await b.request(`/salons/${f.salon.slug}/confirm?${f.query}`);
    expect(answer.status).toBe(200);
    const view = (await answer.json()).loaderData.view as {
      date: string | null;
      times: unknown[];
      days: { date: string; available: boolean; full: boolean }[];
    };
    expect(view.date).toBe(f.date);
    expect(view.times).toEqual([]);
    expect(view.days.find((day) => day.date === f.date)).toMatchObject({
      available: false,
      full: true,
    });
    expect(view.days.find((day) => day.date === addDays(f.date, 1))?.full).toBe(false);
  });
});

/** The member joins the full day, the blocker is cancelled, and the matcher offers the time. */
async function offered() {
  const f = await fullDay();
  const member = await signedInMember(database, env, "offered");
  const joined = await member.b.request(
    f.path,
    postForm({ windowStart: "10:00", windowEnd: "20:00" }),
  );
  expect(joined.status).toBe(302);
  const blocker = f.blockers[0];
  if (!blocker) throw new Error("no blocker");
  await database.db
    .update(bookings)
    .set({ status: "cancelled_by_salon", cancelledAt: new Date(), cancelledBy: "salon" })
    .where(eq(bookings.id, blocker.id));
  // Tomorrow 09:00 in the salon's zone: outside the quiet hours whatever the real clock says,
  // and the offer's deadline lies ahead of the pages' real clock.
  const now = at(addDays(today(), 1), "09:00");
  const result = await database.db.transaction((tx) =>
    matchWaitlist(tx, { salonId: f.salon.id, date: f.date, now }),
  );
  const offerId = result.offerIds[0];
  if (!offerId) throw new Error("no offer made");
  return { ...f, member, offerId, offerPath: `/account/waitlist/offers/${offerId}` };
}

type OfferAnswer = {
  loaderData: {
    offer: {
      state: string;
      message: string | null;
      bookHref: string | null;
      startsAt: string;
      expiresAt: string;
      staffName: string;
      menus: { name: string }[];
    };
  };
  actionData: { error: string } | null;
};

describe("the visitor's waiting list in /account/history", () => {
  it("lists the entry with its window, status and open offer, and leaves it after the confirm step", async () => {
    const f = await offered();
    const history = await (await f.member.b.request("/account/history")).json();
    const [entry] = history.loaderData.waitlist.entries;
    expect(entry).toMatchObject({
      date: f.date,
      windowText: "10:00〜20:00",
      statusLabel: "空きのご案内中",
      staffLabel: "指名なし",
      menuNames: ["カット"],
      live: true,
      offer: { href: f.offerPath },
    });
    // Someone else cannot leave it (404), a broken id is 404 too, junk is 400.
    const stranger = await signedInMember(database, env, "stranger");
    const theirs = await stranger.b.request(
      "/account/waitlist",
      postForm({ intent: "leave", entry: entry.id }),
    );
    expect(theirs.status).toBe(404);
    expect(
      (await stranger.b.request("/account/waitlist", postForm({ intent: "leave", entry: "x" })))
        .status,
    ).toBe(404);
    const junk = await stranger.b.request(
      "/account/waitlist",
      postForm({ intent: "other", entry: "x" }),
    );
    expect({ status: junk.status, location: junk.headers.get("location") }).toEqual({
      status: 400,
      location: null,
    });

    const left = await f.member.b.request(
      "/account/waitlist",
      postForm({ intent: "leave", entry: entry.id }),
    );
    expect(left.status).toBe(302);
    expect(left.headers.get("location")).toBe("/account/history?waitlist=left#waitlist");
    const [row] = await entriesOf(f.member.userId);
    expect(row?.status).toBe("left");
    // The offer's hold went with it.
    const [offer] = await database.db
      .select()
      .from(waitlistOffers)
      .where(eq(waitlistOffers.id, f.offerId));
    expect(offer?.status).toBe("withdrawn");
    const again = await f.member.b.request(
      "/account/waitlist",
      postForm({ intent: "leave", entry: entry.id }),
    );
    expect(again.status).toBe(409);
    expect((await again.json()).actionData.error).toMatch(/すでに終了/);
    const after = await (await f.member.b.request("/account/history?waitlist=left")).json();
    expect(after.loaderData.waitlist.notice).toBe("left");
    expect(after.loaderData.waitlist.entries[0]).toMatchObject({ live: false, offer: null });
  });

  it("shows an empty section to someone who never joined", async () => {
    const { b } = await signedInMember(database, env, "nobody");
    const history = await (await b.request("/account/history")).json();
    expect(history.loaderData.waitlist).toEqual({ entries: [], notice: null });
  });
});

describe("the offer page", () => {
  it("shows the held time and deadline and leads into the confirm step for that hold; another account gets 404", async () => {
    const f = await offered();
    const answer = await f.member.b.request(f.offerPath);
    expect(answer.status).toBe(200);
    const { offer } = ((await answer.json()) as OfferAnswer).loaderData;
    expect(offer).toMatchObject({ state: "open", message: null, staffName: "スタイリスト1" });
    expect(offer.menus.map((menu) => menu.name)).toEqual(["カット"]);
    expect(new Date(offer.startsAt)).toEqual(at(f.date, "10:00"));
    const confirm = await f.member.b.request(offer.bookHref ?? "");
    expect(confirm.status).toBe(200);
    const view = (await confirm.json()).loaderData.view;
    expect(view.kind).toBe("hold");
    expect(view.expiresAt).toBe(offer.expiresAt);

    const stranger = await signedInMember(database, env, "stranger");
    expect((await stranger.b.request(f.offerPath)).status).toBe(404);
    expect((await stranger.b.request(f.offerPath, postForm({ intent: "decline" }))).status).toBe(
      404,
    );
    expect((await stranger.b.request("/account/waitlist/offers/not-a-uuid")).status).toBe(404);
    expect((await browser(env.app).request(f.offerPath)).status).toBe(302);
  });

  it("is taken in the confirm step: the booking is made, the offer and entry say so, and the history links to it", async () => {
    const f = await offered();
    const { offer } = ((await (await f.member.b.request(f.offerPath)).json()) as OfferAnswer)
      .loaderData;
    const view = (await (await f.member.b.request(offer.bookHref ?? "")).json()).loaderData.view;
    const confirmed = await f.member.b.request(
      offer.bookHref ?? "",
      postForm({
        intent: "confirm",
        hold: view.holdId,
        idempotencyKey: view.idempotencyKey,
        name: "山田 花子",
        nameKana: "やまだ はなこ",
        phone: "090-1234-5678",
        email: f.member.email,
        note: "",
      }),
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toContain("/confirm/thanks?booking=");
    const page = ((await (await f.member.b.request(f.offerPath)).json()) as OfferAnswer).loaderData
      .offer;
    expect(page.state).toBe("accepted");
    expect(page.message).toMatch(/ご予約済み/);
    expect(page.bookHref).toBeNull();
    const history = await (await f.member.b.request("/account/history")).json();
    expect(history.loaderData.waitlist.entries[0]).toMatchObject({
      statusLabel: "予約済み",
      live: false,
      bookingHref: `/account/history?booking=${view.holdId}`,
    });
  });

  it("says an expired offer has ended, with no way to book it", async () => {
    const f = await offered();
    const past = new Date(Date.now() - 60_000);
    await database.db
      .update(waitlistOffers)
      .set({ expiresAt: past })
      .where(eq(waitlistOffers.id, f.offerId));
    const answer = (await (await f.member.b.request(f.offerPath)).json()) as OfferAnswer;
    expect(answer.loaderData.offer.state).toBe("expired");
    expect(answer.loaderData.offer.message).toMatch(/有効期限が過ぎた/);
    expect(answer.loaderData.offer.bookHref).toBeNull();
  });

  it("declines: the hold goes, the entry ends, and declining again is refused with a message", async () => {
    const f = await offered();
    const declined = await f.member.b.request(f.offerPath, postForm({ intent: "decline" }));
    expect(declined.status).toBe(302);
    expect(declined.headers.get("location")).toBe("/account/history?waitlist=declined#waitlist");
    const [offer] = await database.db
      .select()
      .from(waitlistOffers)
      .where(eq(waitlistOffers.id, f.offerId));
    expect(offer?.status).toBe("withdrawn");
    expect(
      await database.db.$count(
        bookings,
        and(eq(bookings.salonId, f.salon.id), eq(bookings.status, "held")),
      ),
    ).toBe(0);
    const again = await f.member.b.request(f.offerPath, postForm({ intent: "decline" }));
    expect(again.status).toBe(410);
    expect(((await again.json()) as OfferAnswer).actionData?.error).toMatch(/受付を終了/);
    const page = (await (await f.member.b.request(f.offerPath)).json()) as OfferAnswer;
    expect(page.loaderData.offer.state).toBe("withdrawn");
    expect((await f.member.b.request(f.offerPath, postForm({ intent: "junk" }))).status).toBe(400);
  });
});

describe("the day's waiting list in the salon's ledger", () => {
  it("lists the line in order for the owner; a stylist sees their own and 指名なし entries", async () => {
    const f = await fullDay(2);
    const [first, second] = f.stylists;
    if (!first || !second) throw new Error("no stylists");
    const join = async (name: string, staff: string | null) => {
      const member = await signedInMember(database, env, name);
      const query = `menu=${f.menu.id}&date=${f.date}${staff ? `&staff=${staff}` : ""}`;
      const answer = await member.b.request(
        `/salons/${f.salon.slug}/waitlist?${query}`,
        postForm({ windowStart: "12:00", windowEnd: "15:00" }),
      );
      expect(answer.status).toBe(302);
    };
    await join("anyone", null);
    await join("wants-first", first.slug);
    await join("wants-second", second.slug);

    const owner = await signedInMember(database, env, "owner");
    await setRole(database.db, owner.email, "owner");
    await database.db.insert(salonOwners).values({ salonId: f.salon.id, userId: owner.userId });
    const ledgerPath = `/owner/salons/${f.salon.id}/bookings?date=${f.date}`;
    const page = await (await owner.b.request(ledgerPath)).json();
    const line = page.loaderData.waitlist as {
      position: number;
      staffLabel: string;
      windowText: string;
      customerName: string;
      statusLabel: string;
    }[];
    expect(line.map((entry) => [entry.position, entry.staffLabel])).toEqual([
      [1, "指名なし"],
      [2, first.name],
      [3, second.name],
    ]);
    expect(line[0]).toMatchObject({
      windowText: "12:00〜15:00",
      customerName: "山田 花子",
      statusLabel: "キャンセル待ち中",
    });
    // The week view has no waiting list.
    const week = await (await owner.b.request(`${ledgerPath}&view=week`)).json();
    expect(week.loaderData.waitlist).toBeNull();

    const stylist = await signedInMember(database, env, "stylist");
    await database.db
      .insert(salonMembers)
      .values({ salonId: f.salon.id, userId: stylist.userId, role: "stylist", staffId: first.id });
    const own = await (await stylist.b.request(ledgerPath)).json();
    expect(
      (own.loaderData.waitlist as { staffLabel: string }[]).map((entry) => entry.staffLabel),
    ).toEqual(["指名なし", first.name]);
    // Another salon's ledger stays closed to them.
    const other = await buildSalonWithStaff(database.db);
    expect((await stylist.b.request(`/owner/salons/${other.salon.id}/bookings`)).status).toBe(404);
  });
});

describe("the live notice of an offer", () => {
  it("streams the visitor's open offers: none at first, then the offer the matcher makes; a guest gets 401", async () => {
    const f = await fullDay();
    const now = at(addDays(today(), 1), "09:00");
    const server = createApiTestApp(database, { now: () => now });
    try {
      const guest = await server.app.request(`${ORIGIN}/api/waitlist/events`);
      expect(guest.status).toBe(401);
      const user = await apiUser(server.app);
      // Offers go only to accounts that can confirm them.
      await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, user.userId));
      await database.db.insert(waitlistEntries).values({
        salonId: f.salon.id,
        userId: user.userId,
        menuIds: [f.menu.id],
        date: f.date,
        windowStart: 600,
        windowEnd: 1200,
        createdAt: new Date(now.getTime() - 3_600_000),
      });
      const response = await user.request("/api/waitlist/events");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
      const stream = readEventStream(response);
      try {
        const first = await stream.inbox.next((m) => m.event === "waitlist");
        expect(JSON.parse(first.data ?? "null").data).toEqual([]);
        // The matcher's offer reaches the visitor's stream once its transaction commits.
        const blocker = f.blockers[0];
        if (!blocker) throw new Error("no blocker");
        await database.db
          .update(bookings)
          .set({ status: "cancelled_by_salon", cancelledAt: now, cancelledBy: "salon" })
          .where(eq(bookings.id, blocker.id));
        const { offerIds } = await database.db.transaction((tx) =>
          matchWaitlist(tx, { salonId: f.salon.id, date: f.date, now }),
        );
        expect(offerIds).toHaveLength(1);
        const next = await stream.inbox.next((m) => m.event === "waitlist");
        const offers = JSON.parse(next.data ?? "null").data;
        expect(offers).toEqual([
          expect.objectContaining({
            offerId: offerIds[0],
            href: `/account/waitlist/offers/${offerIds[0]}`,
            salonName: f.salon.name,
            startsAt: at(f.date, "10:00").toISOString(),
          }),
        ]);
      } finally {
        await stream.close();
      }
    } finally {
      await server.close();
    }
  });
});
