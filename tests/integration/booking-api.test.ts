import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveProfile } from "../../server/accounts/profile";
import { confirmBookingOnce } from "../../server/bookings/booking.server";
import type { DatabaseHandle } from "../../server/db/client";
import { salonPaymentPolicies } from "../../server/db/schema";
import { browser, lastMailLink } from "../support/accounts";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import { buildMenu, buildSalonWithStaff } from "../support/builders";
import { readEventStream } from "../support/sse";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const now = () => NOW;
const DAY = "2026-12-03";
const CONTACT = {
  name: "予約 花子",
  kana: "よやく はなこ",
  phone: "090-1234-5678",
  email: "hanako@example.jp",
};

const database = withTestDatabase();
let second: DatabaseHandle;
let serverA: ReturnType<typeof createApiTestApp>;
let serverB: ReturnType<typeof createApiTestApp>;

beforeAll(async () => {
  second = await database.openAnother();
  serverA = createApiTestApp(database, { now });
  serverB = createApiTestApp(second, { now });
});
afterAll(async () => {
  await serverA?.close();
  await serverB?.close();
  await second?.close();
});

/** An API account whose address is confirmed (through the mail's link): one that may book. */
async function member(app: Parameters<typeof apiUser>[0], ip?: string) {
  const user = await apiUser(app, ip);
  const verified = await browser(app).request(await lastMailLink(database.db, user.email));
  if (verified.status !== 302) throw new Error(`verification failed: ${verified.status}`);
  return user;
}

type Day = { date: string; slots: { start: string; time: string; staffIds: string[] }[] };

async function availability(path: string, app = serverA.app) {
  const response = await apiClient(app).request(path);
  return { status: response.status, body: await response.json() };
}

const times = (days: Day[], date: string) =>
  days.find((d) => d.date === date)?.slots.map((s) => s.time) ?? [];

async function salonFixture(staffCount = 1) {
  const fixture = await buildSalonWithStaff(database.db, { staffCount });
  const base = `/api/salons/${fixture.salon.slug}/availability?from=${DAY}&to=${DAY}&menus=${fixture.menu.id}`;
  return { ...fixture, base };
}

const holdBody = (f: Awaited<ReturnType<typeof salonFixture>>, time = "10:00", staff?: string) => ({
  salonId: f.salon.slug,
  menuIds: [f.menu.id],
  staffId: staff ?? f.stylists[0]?.slug,
  start: `${DAY}T${time}:00+09:00`,
});

describe("GET /api/salons/{id}/availability", () => {
  it("answers free times by salon slug or UUID, with a stylist or 指名なし", async () => {
    const f = await salonFixture(2);
    const bySlug = await availability(f.base);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data.salon).toMatchObject({ id: f.salon.id, slug: f.salon.slug });
    expect(bySlug.body.data.staffId).toBeNull();
    expect(times(bySlug.body.data.days, DAY)).toContain("10:00");
    const byId = await availability(
      `/api/salons/${f.salon.id}/availability?from=${DAY}&to=2026-12-04&menus=${f.menu.id}&staff=${f.stylists[1]?.slug}`,
    );
    expect(byId.status).toBe(200);
    expect(byId.body.data.staffId).toBe(f.stylists[1]?.id);
    expect(byId.body.data.days.map((d: Day) => d.date)).toEqual([DAY, "2026-12-04"]);
    const repeated = await availability(
      `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=${DAY}&menus=${f.menu.id}&menus=${(await buildMenu(database.db, f.salon.id)).id}`,
    );
    expect(repeated.status).toBe(200);
    expect(repeated.body.data.durationMinutes).toBe(120);
  });

  it("answers 400 with a Japanese message for malformed ids, dates and lists, 404 for an unknown salon", async () => {
    const f = await salonFixture();
    const other = await salonFixture();
    const cases: [string, number, string][] = [
      [
        `/api/salons/${f.salon.slug}/availability?from=2026-13-01&to=${DAY}&menus=${f.menu.id}`,
        400,
        "invalid_request",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=2026-12-02&menus=${f.menu.id}`,
        400,
        "invalid_request",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=2027-01-10&menus=${f.menu.id}`,
        400,
        "invalid_request",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=${DAY}&menus=abc`,
        400,
        "invalid_request",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=${DAY}&menus=`,
        400,
        "invalid_request",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=${DAY}&menus=${f.menu.id},${f.menu.id}`,
        400,
        "invalid_request",
      ],
      [`/api/salons/${f.salon.slug}/availability?from=${DAY}&to=${DAY}`, 400, "invalid_request"],
      [
        `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=${DAY}&menus=${f.menu.id}&staff=NO!`,
        400,
        "invalid_request",
      ],
      [
        `/api/salons/Bad_Id!/availability?from=${DAY}&to=${DAY}&menus=${f.menu.id}`,
        400,
        "invalid_request",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=${DAY}&menus=${other.menu.id}`,
        400,
        "menu_not_available",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=${DAY}&to=${DAY}&menus=${f.menu.id}&staff=nobody-here`,
        400,
        "staff_not_available",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=2026-11-30&to=${DAY}&menus=${f.menu.id}`,
        400,
        "date_range_invalid",
      ],
      [
        `/api/salons/${f.salon.slug}/availability?from=2027-02-01&to=2027-02-02&menus=${f.menu.id}`,
        400,
        "date_range_invalid",
      ],
      [
        `/api/salons/no-such-salon/availability?from=${DAY}&to=${DAY}&menus=${f.menu.id}`,
        404,
        "salon_not_found",
      ],
    ];
    for (const [path, status, code] of cases) {
      const { status: got, body } = await availability(path);
      expect({ path, got, code: body.error?.code }).toEqual({ path, got: status, code });
      expect(body.error.message).toMatch(/[ぁ-んァ-ヶ一-龠]/u);
    }
  });
});

describe("holds and bookings", () => {
  it("needs policyConsent at a salon with a payment and cancellation policy, and returns what was agreed", async () => {
    const f = await salonFixture();
    await database.db.insert(salonPaymentPolicies).values({
      salonId: f.salon.id,
      mode: "none",
      sameDayPercent: 50,
    });
    const user = await member(serverA.app);
    const { data: held } = await (
      await user.request("/api/holds", { method: "POST", json: holdBody(f, "14:00") })
    ).json();
    const refused = await user.request("/api/bookings", {
      method: "POST",
      json: { holdId: held.id, contact: CONTACT },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({
      code: "policy_consent_required",
      message: expect.stringMatching(/キャンセルポリシーに同意する/),
    });
    const agreed = await user.request("/api/bookings", {
      method: "POST",
      json: { holdId: held.id, contact: CONTACT, policyConsent: true },
    });
    expect(agreed.status).toBe(201);
    const { data: booking } = await agreed.json();
    expect(booking.paymentPolicy).toMatchObject({
      mode: "none",
      bookedAmount: 5500,
      dueAtBooking: 0,
      fees: [{ window: "same_day", percent: 50, amount: 2750, date: DAY }],
    });
    const shown = await (await user.request(`/api/bookings/${booking.id}`)).json();
    expect(shown.data.paymentPolicy).toEqual(booking.paymentPolicy);
  });

  it("refuses 409 payment_required where the salon asks payment at booking: only its pages take it", async () => {
    const f = await salonFixture();
    await database.db
      .insert(salonPaymentPolicies)
      .values({ salonId: f.salon.id, mode: "card_only", sameDayPercent: 50 });
    const user = await member(serverA.app);
    const { data: held } = await (
      await user.request("/api/holds", { method: "POST", json: holdBody(f, "15:00") })
    ).json();
    const refused = await user.request("/api/bookings", {
      method: "POST",
      json: { holdId: held.id, contact: CONTACT, policyConsent: true },
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatchObject({
      code: "payment_required",
      message: expect.stringMatching(/オンライン決済が必要/),
    });
  });

  it("holds, books (idempotently), lists, shows, cancels, and the time is free again", async () => {
    const f = await salonFixture();
    const user = await member(serverA.app);
    const hold = await user.request("/api/holds", { method: "POST", json: holdBody(f, "11:00") });
    expect(hold.status).toBe(201);
    const { data: held } = await hold.json();
    expect(held).toMatchObject({
      salonId: f.salon.id,
      staffId: f.stylists[0]?.id,
      totalPrice: 5500,
    });
    expect(held.expiresAt).toBe(new Date(NOW.getTime() + 10 * 60_000).toISOString());
    expect(times((await availability(f.base)).body.data.days, DAY)).not.toContain("11:00");

    const key = "booking-key-0001";
    const book = () =>
      user.request("/api/bookings", {
        method: "POST",
        headers: { "idempotency-key": key },
        json: { holdId: held.id, contact: CONTACT, notes: "初めてです" },
      });
    const created = await book();
    expect(created.status).toBe(201);
    const { data: booking } = await created.json();
    expect(booking).toMatchObject({
      id: held.id,
      status: "confirmed",
      customer: { name: "予約 花子", kana: "ヨヤク ハナコ", phone: "09012345678" },
      notes: "初めてです",
      salon: { slug: f.salon.slug },
    });
    const replay = await book();
    expect(replay.status).toBe(200);
    expect((await replay.json()).data.id).toBe(booking.id);

    const list = await (await user.request("/api/bookings")).json();
    expect(list.data.upcoming.map((b: { id: string }) => b.id)).toEqual([booking.id]);
    const one = await user.request(`/api/bookings/${booking.id}`);
    expect(one.status).toBe(200);
    expect((await one.json()).data.bookingNumber).toBe(booking.bookingNumber);

    const cancelled = await user.request(`/api/bookings/${booking.id}/cancel`, {
      method: "POST",
      json: { reason: "予定が入りました" },
    });
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).data.status).toBe("cancelled_by_user");
    expect(times((await availability(f.base)).body.data.days, DAY)).toContain("11:00");
  });

  // Races: PostgreSQL only, PGlite runs the two transactions one after the other
  // (transactionsTakeTurns); the replay of one key in turn is the first test's.
  it.skipIf(transactionsTakeTurns)(
    "creates one booking for two simultaneous submissions with one Idempotency-Key",
    async () => {
      const f = await salonFixture();
      const user = await member(serverA.app);
      const { data: held } = await (
        await user.request("/api/holds", { method: "POST", json: holdBody(f, "16:00") })
      ).json();
      const submit = () =>
        user.request("/api/bookings", {
          method: "POST",
          headers: { "idempotency-key": "double-click-0001" },
          json: { holdId: held.id, contact: CONTACT },
        });
      const answers = await Promise.all([submit(), submit()]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
      const ids = await Promise.all(answers.map(async (a) => (await a.json()).data.id));
      expect(ids).toEqual([held.id, held.id]);
    },
  );

  it("scopes Idempotency-Key to its user, and answers 422 to a key reused for another hold", async () => {
    const f = await salonFixture(2);
    const alice = await member(serverA.app);
    const bob = await member(serverA.app);
    const hold = async (user: typeof alice, time: string) =>
      (await (await user.request("/api/holds", { method: "POST", json: holdBody(f, time) })).json())
        .data;
    const book = (user: typeof alice, holdId: string) =>
      user.request("/api/bookings", {
        method: "POST",
        headers: { "idempotency-key": "same-key-0001" },
        json: { holdId, contact: CONTACT },
      });
    const aliceHold = await hold(alice, "10:00");
    expect((await book(alice, aliceHold.id)).status).toBe(201);
    // Bob happens to send the same key for his own hold at the same salon.
    const bobHold = await hold(bob, "12:00");
    const bobs = await book(bob, bobHold.id);
    expect(bobs.status).toBe(201);
    expect((await bobs.json()).data).toMatchObject({ id: bobHold.id, status: "confirmed" });
    // Alice reuses her key for another hold: not her old booking passed off as this one.
    const second = await hold(alice, "14:00");
    const reused = await book(alice, second.id);
    expect(reused.status).toBe(422);
    const { error } = await reused.json();
    expect(error.code).toBe("idempotency_key_reused");
    expect(error.message).toMatch(/[ぁ-んァ-ヶ一-龠]/u);
    expect((await (await alice.request(`/api/bookings/${second.id}`)).json()).data.status).toBe(
      "held",
    );
  });

  it("lets an unverified account hold but answers its booking 403 email_not_verified, hold kept", async () => {
    const f = await salonFixture();
    const user = await apiUser(serverA.app);
    const hold = await user.request("/api/holds", { method: "POST", json: holdBody(f, "17:00") });
    expect(hold.status).toBe(201);
    const { data: held } = await hold.json();
    const book = () =>
      user.request("/api/bookings", {
        method: "POST",
        json: { holdId: held.id, contact: CONTACT },
      });
    const refused = await book();
    expect(refused.status).toBe(403);
    const { error } = await refused.json();
    expect(error.code).toBe("email_not_verified");
    expect(error.message).toMatch(/メールアドレスの確認/);
    expect((await (await user.request(`/api/bookings/${held.id}`)).json()).data.status).toBe(
      "held",
    );
    await browser(serverA.app).request(await lastMailLink(database.db, user.email));
    expect((await book()).status).toBe(201);
  });

  it.skipIf(transactionsTakeTurns)(
    "confirmBookingOnce: of two simultaneous confirmations with one key, the second is a replay",
    async () => {
      const f = await salonFixture();
      const user = await member(serverA.app);
      const { data: held } = await (
        await user.request("/api/holds", { method: "POST", json: holdBody(f, "18:00") })
      ).json();
      const confirm = () =>
        confirmBookingOnce(database.db, {
          ...bookingClient(database.db),
          holdId: held.id,
          userId: user.userId,
          customer: { ...CONTACT, kana: "ヨヤク ハナコ", phone: "09012345678" },
          notes: "",
          idempotencyKey: "race-key-0001",
          now: NOW,
        });
      const results = await Promise.all([confirm(), confirm()]);
      expect(results.map((r) => r.replayed).sort()).toEqual([false, true]);
      expect(results.map((r) => r.booking.id)).toEqual([held.id, held.id]);
    },
  );

  it("takes the contact from the account's profile when none is sent", async () => {
    const f = await salonFixture();
    const user = await member(serverA.app);
    await saveProfile(database.db, user.userId, {
      name: "会員 太郎",
      nameKana: "カイイン タロウ",
      phone: "0312345678",
      gender: "male",
      birthDate: null,
    });
    const { data: held } = await (
      await user.request("/api/holds", { method: "POST", json: holdBody(f, "15:00") })
    ).json();
    const created = await user.request("/api/bookings", {
      method: "POST",
      json: { holdId: held.id },
    });
    expect(created.status).toBe(201);
    expect((await created.json()).data.customer).toEqual({
      name: "会員 太郎",
      kana: "カイイン タロウ",
      phone: "0312345678",
      email: user.email,
    });
  });

  it("answers 400 contact_required without a contact to an account with no profile, and keeps the hold", async () => {
    const f = await salonFixture();
    const user = await member(serverA.app);
    const { data: held } = await (
      await user.request("/api/holds", { method: "POST", json: holdBody(f, "16:00") })
    ).json();
    const refused = await user.request("/api/bookings", {
      method: "POST",
      json: { holdId: held.id },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe("contact_required");
    const booked = await user.request("/api/bookings", {
      method: "POST",
      json: { holdId: held.id, contact: CONTACT },
    });
    expect(booked.status).toBe(201);
  });

  it("answers 401 to guests on every endpoint that needs an account", async () => {
    const guest = apiClient(serverA.app);
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, path, json] of [
      ["POST", "/api/holds", {}],
      ["POST", "/api/bookings", {}],
      ["GET", "/api/bookings", undefined],
      ["GET", `/api/bookings/${id}`, undefined],
      ["POST", `/api/bookings/${id}/cancel`, {}],
    ] as const) {
      const response = await guest.request(path, { method, json });
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
      expect((await response.json()).error.code).toBe("unauthorized");
    }
  });

  it("answers 404 for another user's booking and 400 for malformed ids and bodies", async () => {
    const f = await salonFixture();
    const owner = await member(serverA.app);
    const stranger = await member(serverA.app);
    const { data: held } = await (
      await owner.request("/api/holds", { method: "POST", json: holdBody(f, "12:00") })
    ).json();
    expect((await stranger.request(`/api/bookings/${held.id}`)).status).toBe(404);
    const cancel = await stranger.request(`/api/bookings/${held.id}/cancel`, {
      method: "POST",
      json: {},
    });
    expect(cancel.status).toBe(404);
    expect((await stranger.request("/api/bookings/not-a-uuid")).status).toBe(400);
    const stolen = await stranger.request("/api/bookings", {
      method: "POST",
      json: {
        holdId: held.id,
        contact: { name: "他人", kana: "たにん", phone: "0312345678", email: "x@example.jp" },
      },
    });
    expect(stolen.status).toBe(410);

    for (const json of [
      { ...holdBody(f), start: "tomorrow" },
      { ...holdBody(f), menuIds: [] },
      { ...holdBody(f), menuIds: ["x"] },
      { ...holdBody(f), salonId: "Bad!" },
    ]) {
      const response = await owner.request("/api/holds", { method: "POST", json });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe("invalid_request");
    }
    const broken = await owner.request("/api/holds", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    const badContact = await owner.request("/api/bookings", {
      method: "POST",
      json: { holdId: held.id, contact: { name: "", kana: "abc", phone: "12", email: "no" } },
    });
    expect(badContact.status).toBe(400);
    expect((await badContact.json()).error.issues.length).toBeGreaterThanOrEqual(4);
  });

  it("answers 409 when the time is taken", async () => {
    const f = await salonFixture();
    const first = await member(serverA.app);
    const late = await member(serverB.app);
    expect(
      (await first.request("/api/holds", { method: "POST", json: holdBody(f, "13:00") })).status,
    ).toBe(201);
    const lost = await late.request("/api/holds", { method: "POST", json: holdBody(f, "13:00") });
    expect(lost.status).toBe(409);
    expect((await lost.json()).error.code).toBe("slot_taken");
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After after too many holds from one account", async () => {
    const limited = createApiTestApp(database, {
      now,
      env: { BOOKING_RATE_LIMIT_PER_ACCOUNT: "2" },
    });
    const f = await salonFixture();
    const user = await member(limited.app);
    const attempt = (time: string) =>
      user.request("/api/holds", { method: "POST", json: holdBody(f, time) });
    expect((await attempt("14:00")).status).toBe(201);
    expect((await attempt("15:00")).status).toBe(201);
    const third = await attempt("16:00");
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = await third.json();
    expect(body.error.code).toBe("too_many_requests");
    expect(body.error.message).toMatch(/秒ほど待って/);
    await limited.close();
  });

  it("answers 429 after too many bookings from one address across accounts", async () => {
    const limited = createApiTestApp(database, { now, env: { BOOKING_RATE_LIMIT_PER_IP: "1" } });
    const ip = "198.51.100.77";
    const a = await member(limited.app, ip);
    const b = await member(limited.app, ip);
    // Counted by confirmBooking itself: a missing hold (410) is an attempt too.
    const json = {
      holdId: "00000000-0000-4000-8000-000000000000",
      contact: { ...CONTACT, kana: "ヨヤク ハナコ", phone: "09012345678" },
    };
    expect((await a.request("/api/bookings", { method: "POST", json })).status).toBe(410);
    const blocked = await b.request("/api/bookings", { method: "POST", json });
    expect(blocked.status).toBe(429);
    await limited.close();
  });
});

describe("live slots across app servers", () => {
  it("a time held through server A disappears from a stream served by server B", async () => {
    const f = await salonFixture();
    const before = serverB.slotEvents.subscriberCount();
    const response = await apiClient(serverB.app).request(
      `/api/salons/${f.salon.slug}/availability/stream?from=${DAY}&to=${DAY}&menus=${f.menu.id}`,
    );
    expect(response.status).toBe(200);
    const stream = readEventStream(response);
    const first = await stream.nextAvailability<{ data: { days: Day[] } }>();
    expect(times(first.payload.data.days, DAY)).toContain("17:00");

    const user = await member(serverA.app);
    expect(
      (await user.request("/api/holds", { method: "POST", json: holdBody(f, "17:00") })).status,
    ).toBe(201);
    const next = await stream.nextAvailability<{ data: { days: Day[] }; changedDates: string[] }>();
    expect(next.payload.changedDates).toEqual([DAY]);
    expect(times(next.payload.data.days, DAY)).not.toContain("17:00");

    // Booked and then cancelled through server A: the time comes back on B's page.
    const { data: hold } = await (
      await user.request("/api/holds", { method: "POST", json: holdBody(f, "17:00") })
    ).json();
    const booked = await user.request("/api/bookings", {
      method: "POST",
      json: { holdId: hold.id, contact: CONTACT },
    });
    expect(booked.status).toBe(201);
    await user.request(`/api/bookings/${hold.id}/cancel`, { method: "POST", json: {} });
    // (Events of the re-hold may come first; the cancellation's brings the time back.)
    const freed = await stream.inbox.next(
      (m) =>
        m.event === "availability" &&
        times(JSON.parse(m.data ?? "{}").data.days, DAY).includes("17:00"),
    );
    expect(JSON.parse(freed.data ?? "{}").changedDates).toEqual([DAY]);

    await stream.close();
    const gone = new Promise<void>((resolve) => {
      const check = () =>
        serverB.slotEvents.subscriberCount() === before ? resolve() : setImmediate(check);
      check();
    });
    await gone;
  });

  it("answers a JSON 4xx instead of a stream for bad input", async () => {
    const f = await salonFixture();
    const response = await apiClient(serverB.app).request(
      `/api/salons/${f.salon.slug}/availability/stream?from=${DAY}&to=${DAY}&menus=nope`,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/json/);
    const unknown = await apiClient(serverB.app).request(
      `/api/salons/no-such/availability/stream?from=${DAY}&to=${DAY}&menus=${f.menu.id}`,
    );
    expect(unknown.status).toBe(404);
  });
});
