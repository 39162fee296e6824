import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelBooking } from "../../server/bookings/booking.server";
import { salonMembers, salonOwners, users } from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { waitlistJobHandlers } from "../../server/waitlist/waitlist-jobs.server";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { buildBooking, buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * /api/waitlist and /api/owner/salons/{id}/waitlist (issue 30, points 4–6;
 * decision 0055): every call is also checked against the OpenAPI document
 * (api-client.ts).
 */
const database = withTestDatabase();

/** Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const DAY = "2026-12-03";
const at = (local: string) => new Date(`${DAY}T${local}:00+09:00`);

let api: ReturnType<typeof createApiTestApp>;
/** The API's clock: a minute on for every call, so the line's order is the order of the calls. */
let clock = NOW;
beforeAll(() => {
  api = createApiTestApp(database, {
    now: () => {
      clock = new Date(clock.getTime() + 60_000);
      return clock;
    },
  });
});
afterAll(async () => {
  await api.close();
  await api.accounts.close();
});

async function runJobs(now: Date) {
  const worker = createJobWorker({
    db: database.db,
    handlers: waitlistJobHandlers({ mailFrom: "noreply@example.jp", publicUrl: "https://x.jp" }),
    log: createLogger("silent"),
    now: () => now,
  });
  while ((await worker.runOnce()) > 0) {}
}

/** Two stylists, both booked all day on DAY; the first one's 14:00–15:00 can be cancelled. */
async function fullSalon() {
  const built = await buildSalonWithStaff(database.db, { staffCount: 2 });
  const [first, second] = built.stylists;
  if (!first || !second) throw new Error("no stylists");
  const blocker = await buildUser(database.db);
  const canceller = await buildUser(database.db);
  for (const [staffId, from, until] of [
    [first.id, "10:00", "14:00"],
    [first.id, "15:00", "20:00"],
    [second.id, "10:00", "20:00"],
  ] as const) {
    await buildBooking(database.db, {
      salonId: built.salon.id,
      staffId,
      userId: blocker.id,
      startsAt: at(from),
      endsAt: at(until),
    });
  }
  const freed = await buildBooking(database.db, {
    salonId: built.salon.id,
    staffId: first.id,
    userId: canceller.id,
    startsAt: at("14:00"),
    endsAt: at("15:00"),
  });
  const cancel = () =>
    cancelBooking(database.db, {
      bookingId: freed.id,
      userId: canceller.id,
      reason: "",
      now: clock,
    });
  return { ...built, first, second, cancel };
}

const body = (salonId: string, menuId: string, extra: Record<string, unknown> = {}) => ({
  salonId,
  menuIds: [menuId],
  date: DAY,
  windowStart: "12:00",
  windowEnd: "17:00",
  ...extra,
});

type Entry = {
  id: string;
  status: string;
  windowStart: string;
  windowEnd: string;
  staffLabel: string;
  offer: { id: string; holdId: string } | null;
};

describe("/api/waitlist", () => {
  it("asks a guest to sign in", async () => {
    const guest = apiClient(api.app);
    expect((await guest.request("/api/waitlist")).status).toBe(401);
    const post = await guest.request("/api/waitlist", { method: "POST", json: {} });
    expect(post.status).toBe(401);
  });

  it("answers hostile input with a 4xx and a Japanese message, never a 5xx", async () => {
    const { salon, menu } = await fullSalon();
    const visitor = await apiUser(api.app);
    const bad: unknown[] = [
      {},
      [],
      "text",
      body(salon.id, menu.id, { date: "2026-02-30" }),
      body(salon.id, menu.id, { date: "x".repeat(5000) }),
      body(salon.id, menu.id, { windowStart: "25:00" }),
      body(salon.id, menu.id, { windowStart: "14:00", windowEnd: "13:00" }),
      body(salon.id, menu.id, { windowEnd: 900 }),
      body(salon.id, menu.id, { menuIds: "all" }),
      body(salon.id, menu.id, { menuIds: [menu.id, menu.id] }),
      body(salon.id, menu.id, { staffId: "<script>alert(1)</script>" }),
      body("../../etc/passwd", menu.id),
      body(salon.id, menu.id, { date: "2026-11-01" }),
      body(salon.id, menu.id, { couponId: "'; drop table jobs; --" }),
    ];
    for (const json of bad) {
      const answer = await visitor.request("/api/waitlist", { method: "POST", json });
      expect(answer.status, JSON.stringify(json).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(json).slice(0, 80)).toBeLessThan(500);
      const { error } = (await answer.json()) as { error: { message: string } };
      expect(error.message).toMatch(/[ぁ-んァ-ヶ一-龠]/);
    }
    const broken = await visitor.request("/api/waitlist", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    for (const path of ["/api/waitlist/nope", "/api/waitlist/offers/%00"]) {
      const answer = await visitor.request(path, {
        method: path.includes("offers") ? "GET" : "DELETE",
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it("joins, lists, offers, declines and leaves", async () => {
    const { salon, menu, first, cancel } = await fullSalon();
    const alice = await apiUser(api.app);
    const bob = await apiUser(api.app);
    // Offers go only to accounts that can confirm them: the addresses are verified.
    for (const { userId } of [alice, bob]) {
      await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
    }
    const joined = await alice.request("/api/waitlist", {
      method: "POST",
      json: body(salon.slug, menu.id),
    });
    expect(joined.status).toBe(201);
    const { data: entry } = (await joined.json()) as { data: Entry };
    expect(entry).toMatchObject({
      status: "waiting",
      windowStart: "12:00",
      windowEnd: "17:00",
      staffLabel: "指名なし",
      offer: null,
    });
    const again = await alice.request("/api/waitlist", {
      method: "POST",
      json: body(salon.id, menu.id),
    });
    expect(again.status).toBe(409);
    const bobs = await bob.request("/api/waitlist", {
      method: "POST",
      json: body(salon.id, menu.id, {
        staffId: first.id,
        windowStart: "14:00",
        windowEnd: "24:00",
      }),
    });
    expect(bobs.status).toBe(201);
    const { data: bobEntry } = (await bobs.json()) as { data: Entry };
    // Free now on another day: book it instead.
    const free = await alice.request("/api/waitlist", {
      method: "POST",
      json: body(salon.id, menu.id, { date: "2026-12-04" }),
    });
    expect(free.status).toBe(409);
    expect(((await free.json()) as { error: { code: string } }).error.code).toBe(
      "waitlist_time_free",
    );

    await cancel();
    await runJobs(clock);
    const list = (await (await alice.request("/api/waitlist")).json()) as { data: Entry[] };
    expect(list.data.map((e) => e.status)).toEqual(["offered"]);
    const offerId = list.data[0]?.offer?.id ?? "";
    const offer = await alice.request(`/api/waitlist/offers/${offerId}`);
    expect(offer.status).toBe(200);
    expect(((await offer.json()) as { data: { bookable: boolean } }).data.bookable).toBe(true);
    expect((await bob.request(`/api/waitlist/offers/${offerId}`)).status).toBe(404);
    expect(
      (await bob.request(`/api/waitlist/offers/${offerId}/decline`, { method: "POST", json: {} }))
        .status,
    ).toBe(404);

    const declined = await alice.request(`/api/waitlist/offers/${offerId}/decline`, {
      method: "POST",
      json: {},
    });
    expect(declined.status).toBe(200);
    expect(((await declined.json()) as { data: { status: string } }).data.status).toBe("withdrawn");
    const twice = await alice.request(`/api/waitlist/offers/${offerId}/decline`, {
      method: "POST",
      json: {},
    });
    expect(twice.status).toBe(410);

    await runJobs(clock);
    const bobList = (await (await bob.request("/api/waitlist")).json()) as { data: Entry[] };
    expect(bobList.data[0]?.status).toBe("offered");
    expect((await alice.request(`/api/waitlist/${bobEntry.id}`, { method: "DELETE" })).status).toBe(
      404,
    );
    const left = await bob.request(`/api/waitlist/${bobEntry.id}`, { method: "DELETE" });
    expect(left.status).toBe(200);
    expect(((await left.json()) as { data: Entry }).data).toMatchObject({
      status: "left",
      offer: null,
    });
    expect((await bob.request(`/api/waitlist/${bobEntry.id}`, { method: "DELETE" })).status).toBe(
      409,
    );
  });
});

describe("/api/owner/salons/{id}/waitlist", () => {
  it("shows the salon its line for the day; a stylist their own and 指名なし entries", async () => {
    const { salon, menu, first, second } = await fullSalon();
    const visitors = [await apiUser(api.app), await apiUser(api.app), await apiUser(api.app)];
    const staffIds = [null, first.id, second.id];
    for (const [index, visitor] of visitors.entries()) {
      const answer = await visitor.request("/api/waitlist", {
        method: "POST",
        json: body(salon.id, menu.id, { staffId: staffIds[index] }),
      });
      expect(answer.status).toBe(201);
    }
    const owner = await apiUser(api.app);
    await database.db
      .update(users)
      .set({ role: "owner", emailVerified: true })
      .where(eq(users.id, owner.userId));
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.userId });
    const path = `/api/owner/salons/${salon.id}/waitlist?date=${DAY}`;
    const answer = await owner.request(path);
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as {
      data: { date: string; entries: (Entry & { position: number; customer: { name: string } })[] };
    };
    expect(data.date).toBe(DAY);
    expect(data.entries.map((e) => [e.position, e.staffLabel])).toEqual([
      [1, "指名なし"],
      [2, first.name],
      [3, second.name],
    ]);

    const stylist = await apiUser(api.app);
    await database.db
      .update(users)
      .set({ emailVerified: true })
      .where(eq(users.id, stylist.userId));
    await database.db
      .insert(salonMembers)
      .values({ salonId: salon.id, userId: stylist.userId, role: "stylist", staffId: second.id });
    const own = await stylist.request(path);
    expect(own.status).toBe(200);
    const scoped = (await own.json()) as { data: { entries: Entry[] } };
    expect(scoped.data.entries.map((e) => e.staffLabel)).toEqual(["指名なし", second.name]);

    const stranger = await apiUser(api.app);
    expect((await stranger.request(path)).status).toBe(404);
    const badDate = await owner.request(`/api/owner/salons/${salon.id}/waitlist?date=2026-13-45`);
    expect(badDate.status).toBe(400);
  });
});
