import type { RouteConfigEntry } from "@react-router/dev/routes";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { attachCustomer } from "../../server/bookings/salon-customers.server";
import { bookings, salonOwners, users } from "../../server/db/schema";
import { browser, ORIGIN, testLogin } from "../support/accounts";
import { buildBooking, buildReview, buildSalonWithStaff } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The back office's access matrix (issue 28, points 1 and 9; decision 0037):
 * every owner page of app/routes.ts and every /api/owner operation of the
 * running app (so a route added later is covered without editing this
 * file), for a guest, a member, the owner of another salon, a suspended
 * owner, the salon's owner and an administrator, with real ids of salon A
 * in every parameter. Also hostile input as the salon's owner: 4xx, never 5xx.
 */
const env = {
  PUBLIC_URL: ORIGIN,
  TRUST_PROXY: "true",
  E2E_LOGIN: "true",
  RATE_LIMIT_PER_IP: "1000000",
  RATE_LIMIT_PER_ACCOUNT: "1000000",
};

const database = withTestDatabase();
let full: Awaited<ReturnType<typeof createFullApp>>;
const ids = { id: "", bookingId: "", customerId: "", reviewId: "" };
let salonB = "";

type Browser = ReturnType<typeof browser>;
const who: Record<string, Browser> = {};

const signedIn = (role: "user" | "owner" | "admin") => testLogin(full.app, database.db, role);

beforeAll(async () => {
  full = await createFullApp(database, env);
  const a = await buildSalonWithStaff(database.db);
  const b = await buildSalonWithStaff(database.db);
  ids.id = a.salon.id;
  salonB = b.salon.id;
  const startsAt = new Date(Date.now() + 2 * 86_400_000);
  const customerId = await database.db.transaction((tx) =>
    attachCustomer(tx, {
      salonId: a.salon.id,
      userId: null,
      name: "佐藤 一郎",
      kana: "サトウ イチロウ",
      phone: "09011112222",
      email: "",
    }),
  );
  const booking = await buildBooking(database.db, {
    salonId: a.salon.id,
    staffId: a.stylists[0]?.id ?? "",
    startsAt,
    endsAt: new Date(startsAt.getTime() + 3_600_000),
    status: "confirmed",
    source: "phone",
    customerName: "佐藤 一郎",
    customerKana: "サトウ イチロウ",
    customerPhone: "09011112222",
    customerId,
  });
  ids.bookingId = booking.id;
  ids.customerId = customerId;
  // A review of a past visit, for /api/owner/…/reviews/{reviewId}/reply.
  ids.reviewId = (await buildReview(database.db, a.salon.id, { staffId: a.stylists[0]?.id })).id;

  who.guest = browser(full.app);
  who.member = (await signedIn("user")).b;
  const ownerA = await signedIn("owner");
  await database.db.insert(salonOwners).values({ salonId: a.salon.id, userId: ownerA.userId });
  who.owner = ownerA.b;
  const ownerB = await signedIn("owner");
  await database.db.insert(salonOwners).values({ salonId: b.salon.id, userId: ownerB.userId });
  who.otherOwner = ownerB.b;
  const suspended = await signedIn("owner");
  await database.db.insert(salonOwners).values({ salonId: a.salon.id, userId: suspended.userId });
  await database.db.update(users).set({ banned: true }).where(eq(users.id, suspended.userId));
  who.suspended = suspended.b;
  who.admin = (await signedIn("admin")).b;
}, 120_000);

afterAll(async () => {
  await full?.close();
});

function flatten(entries: RouteConfigEntry[], prefix = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [prefix, entry.path ?? ""].filter(Boolean).join("/");
    return [
      ...(entry.index || entry.path !== undefined ? [path] : []),
      ...flatten(entry.children ?? [], path),
    ];
  });
}

/** A route pattern with salon A's real ids in its parameters. */
function filled(pattern: string) {
  return pattern.replace(/[:{](\w+)}?/g, (_, name: string) => {
    const value = ids[name as keyof typeof ids];
    if (value === undefined) throw new Error(`no test id for :${name} in ${pattern}`);
    return value;
  });
}

/** The query a page cannot answer 200 without (a 400 names what is missing). */
const pageQueries: Record<string, string> = {
  "owner/salons/:id/bookings.csv": "?from=2026-11-01&to=2026-11-30",
  "owner/salons/:id/stylists.csv": "?from=2026-11-01&to=2026-11-30",
  "owner/salons/:id/coupons.csv": "?from=2026-11-01&to=2026-11-30",
};

const ownerPages = () =>
  flatten(routes)
    .filter((path) => path === "owner" || path.startsWith("owner/"))
    .map((pattern) => `/${filled(pattern)}${pageQueries[pattern] ?? ""}`);

/** Every /api/owner operation the app answers, from the route list Hono keeps. */
const ownerApi = () => {
  const seen = new Set<string>();
  return full.app.routes
    .filter((route) => route.path.startsWith("/api/owner/salons/:id/") && route.method !== "ALL")
    .map((route) => ({ method: route.method, path: filled(route.path) }))
    .filter((route) => {
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
};

const salonPages = () => ownerPages().filter((path) => path.startsWith("/owner/salons/"));

/**
 * A stylist's own pages and their requests as JSON (decisions 0046, 0052): an owner or
 * administrator is no stylist, so 404.
 */
const stylistOnly = (path: string) => /\/schedules\/mine(\/requests)?$/.test(path);
/**
 * What a page allowed to a person answers: 200, but the stylist's own pages are the 404 for
 * anyone else, and a receipt's PDF before its 会計 sends to the receipt page (会計未登録).
 */
const allowedStatus = (path: string) =>
  stylistOnly(path) ? 404 : /\/receipt\.pdf$/.test(path) ? 302 : 200;

describe("the salon back office's access matrix", () => {
  it("lists the back office's pages and API operations", () => {
    const base = `/owner/salons/${ids.id}`;
    expect(ownerPages()).toEqual(
      expect.arrayContaining([
        "/owner",
        base,
        `${base}/bookings`,
        `${base}/bookings/new`,
        `${base}/bookings/${ids.bookingId}`,
        `${base}/bookings/${ids.bookingId}/move`,
        `${base}/customers`,
        `${base}/customers/${ids.customerId}`,
        `${base}/settings`,
        `${base}/settings/webhooks`,
      ]),
    );
    expect(ownerApi().map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining([
        `GET /api/owner/salons/${ids.id}/today`,
        `GET /api/owner/salons/${ids.id}/ledger`,
        `GET /api/owner/salons/${ids.id}/bookings/${ids.bookingId}`,
        `POST /api/owner/salons/${ids.id}/bookings`,
        `GET /api/owner/salons/${ids.id}/customers`,
      ]),
    );
  });

  it("sends a guest and a suspended owner to sign in, coming back to the page", async () => {
    for (const path of ownerPages()) {
      for (const name of ["guest", "suspended"]) {
        const response = await who[name]?.request(path);
        expect(response?.status, `${name} ${path}`).toBe(302);
        expect(response?.headers.get("location"), `${name} ${path}`).toBe(
          `/signin?redirect=${encodeURIComponent(path)}`,
        );
      }
    }
  });

  it("gives a member the 404 screen on every owner page", async () => {
    for (const path of ownerPages()) {
      const response = await who.member?.request(path);
      expect(response?.status, path).toBe(404);
    }
  });

  it("opens every page of salon A for its owner and an administrator, and none for salon B's owner", async () => {
    for (const path of salonPages()) {
      for (const name of ["owner", "admin"]) {
        const response = await who[name]?.request(path);
        expect(response?.status, `${name} ${path}`).toBe(allowedStatus(path));
      }
      const foreign = await who.otherOwner?.request(path);
      expect(foreign?.status, `other owner ${path}`).toBe(404);
      // Posting to another salon's page changes nothing and reveals nothing either.
      const post = await who.otherOwner?.request(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "intent=completed&version=0",
      });
      expect([404, 405], `other owner POST ${path}`).toContain(post?.status);
    }
    // Salon B's own pages open for its owner: the 404s above are about the salon, not the role.
    const own = await who.otherOwner?.request(`/owner/salons/${salonB}`);
    expect([200, 404]).toContain(own?.status);
    const [booking] = await database.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, ids.bookingId));
    expect(booking?.status).toBe("confirmed");
  });

  it("answers /api/owner with 401 for a guest and 404 JSON for anyone without the salon", async () => {
    const operations = ownerApi();
    for (const { method, path } of operations) {
      const init = {
        method,
        headers: { "content-type": "application/json" },
        body: method === "GET" ? undefined : "{}",
      };
      for (const [name, expected] of [
        ["guest", 401],
        ["suspended", 401],
        ["member", 404],
        ["otherOwner", 404],
      ] as const) {
        const response = await who[name]?.request(path, init);
        expect(response?.status, `${name} ${method} ${path}`).toBe(expected);
        const body = (await response?.json()) as { error?: { code?: string; message?: string } };
        expect(body.error?.message, `${name} ${method} ${path}`).toMatch(/[ぁ-んァ-ン一-龥]/);
      }
    }
    // The salon's owner and an administrator get past the check (a body error is a 4xx, not 401/404).
    for (const { path } of operations.filter((op) => op.method === "GET")) {
      if (path.endsWith("/stream")) continue;
      for (const name of ["owner", "admin"]) {
        const response = await who[name]?.request(path);
        expect(response?.status, `${name} GET ${path}`).toBe(allowedStatus(path));
      }
    }
  });

  it("answers hostile input on every owner form and API operation with a 4xx, never a 5xx", async () => {
    const hostile = [
      "intent=%00&version=abc",
      `intent=move&version=1&date=2026-13-45&time=25:99&staff=${"x".repeat(3000)}`,
      `intent=cancel&version=-1&category=%E0&message=${"あ".repeat(5000)}`,
      "q=%&name=%zz&nameKana=<script>&phone=++&menuIds=not-a-uuid",
    ];
    const failures: string[] = [];
    for (const path of salonPages()) {
      for (const body of hostile) {
        const response = await who.owner?.request(path, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        });
        if (!response || response.status >= 500) failures.push(`POST ${path} ${body.slice(0, 40)}`);
        await response?.body?.cancel();
      }
      const query = await who.owner?.request(
        `${path}?date=2026-02-31&view=%00&q=${"%E0".repeat(3)}&page=-1`,
      );
      if (!query || query.status >= 500) failures.push(`GET ${path} with a hostile query`);
      await query?.body?.cancel();
    }
    for (const { method, path } of ownerApi()) {
      if (path.endsWith("/stream")) continue;
      for (const body of [
        "{",
        '{"action":"move","version":"x","start":"yesterday"}',
        "[]",
        `{"a":${"[".repeat(40)}`,
      ]) {
        const response = await who.owner?.request(`${path}?date=%E0&q=%&page=x`, {
          method,
          headers: { "content-type": "application/json" },
          body: method === "GET" ? undefined : body,
        });
        if (!response || response.status >= 500) failures.push(`${method} ${path} ${body}`);
        await response?.body?.cancel();
        if (method === "GET") break;
      }
    }
    expect(failures).toEqual([]);
  });
});
