import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client";
import { salonOwners } from "../../server/db/schema";
import { READ_PRIMARY_COOKIE } from "../../server/http/read-own-writes";
import { browser, ORIGIN, testLogin } from "../support/accounts";
import { buildArea, buildBooking, buildSalonWithStaff } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * DATABASE_REPLICA_URL (decision 0074) with a "replica" that is a different
 * database on purpose: the same slugs under other names, so each page shows
 * which database it read. Search, areas, listings, a salon's public tabs and
 * the sitemap read the replica; booking, account and back-office pages read
 * the primary; and a browser that has just written reads the primary.
 */
const env = {
  PUBLIC_URL: ORIGIN,
  TRUST_PROXY: "true",
  E2E_LOGIN: "true",
  RATE_LIMIT_PER_IP: "1000000",
  RATE_LIMIT_PER_ACCOUNT: "1000000",
};
const PRIMARY_NAME = "プライマリ美容室";
const REPLICA_NAME = "レプリカ美容室";

let primary: TestDatabase;
let replica: TestDatabase;
let app: ReturnType<Awaited<ReturnType<typeof createFullApp>>["serverOn"]>;
let primarySalonId = "";
let primaryStylistId = "";

async function twinSalon(db: Database, name: string, only: string) {
  const area = await buildArea(db, { slug: "twin-area", name: "ツイン" });
  const built = await buildSalonWithStaff(db, { salon: { slug: "twin", name, areaId: area.id } });
  await buildSalonWithStaff(db, { salon: { slug: only, name: `${name}別館`, areaId: area.id } });
  return built;
}

beforeAll(async () => {
  primary = await createTestDatabase();
  replica = await createTestDatabase();
  const built = await twinSalon(primary.db, PRIMARY_NAME, "primary-only");
  primarySalonId = built.salon.id;
  primaryStylistId = built.stylists[0]?.id ?? "";
  await twinSalon(replica.db, REPLICA_NAME, "replica-only");
  const full = await createFullApp(primary, env);
  app = full.serverOn(primary, { replica });
});
afterAll(async () => {
  await primary?.drop();
  await replica?.drop();
});

/** A browser whose requests never carry the read-primary cookie (as after it expired). */
function withoutReadPrimary(b: ReturnType<typeof browser>) {
  return (path: string) => {
    const cookie = b.jar
      .header()
      .split("; ")
      .filter((pair) => pair && !pair.startsWith(`${READ_PRIMARY_COOKIE}=`))
      .join("; ");
    return app.request(`${ORIGIN}${path}`, {
      headers: { cookie, "x-forwarded-for": b.ip },
      redirect: "manual",
    });
  };
}

const signedIn = (role: "user" | "owner") => testLogin(app, primary.db, role);

const pageText = async (response: Response) => {
  expect(response.status).toBe(200);
  return response.text();
};

describe("pages that may lag read the replica", () => {
  it.each([
    "/",
    "/salons/search",
    "/area/twin-area",
    "/salons/twin",
    "/salons/twin/coupons",
    "/salons/twin/styles",
    "/salons/twin/stylists",
    "/salons/twin/reviews",
    "/salons/twin/access",
  ])("%s", async (path) => {
    const guest = browser(app);
    const html = await pageText(await guest.request(path));
    expect(html).toContain(REPLICA_NAME);
    expect(html).not.toContain(PRIMARY_NAME);
  });

  it("the search's count and the sitemap", async () => {
    const guest = browser(app);
    const count = await guest.request("/salons/search/count");
    expect(await count.json()).toMatchObject({ total: 2 });
    const sitemap = await pageText(await guest.request("/sitemap.xml"));
    expect(sitemap).toContain("/salons/replica-only");
    expect(sitemap).not.toContain("/salons/primary-only");
  });
});

describe("booking, account and back office read the primary", () => {
  it("the booking page of a salon", async () => {
    const guest = browser(app);
    const html = await pageText(await guest.request("/salons/twin/confirm"));
    expect(html).toContain(PRIMARY_NAME);
    expect(html).not.toContain(REPLICA_NAME);
  });

  it("a member's booking history", async () => {
    const { b, userId } = await signedIn("user");
    const startsAt = new Date(Date.now() + 3 * 86_400_000);
    await buildBooking(primary.db, {
      salonId: primarySalonId,
      staffId: primaryStylistId,
      userId,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      status: "confirmed",
    });
    const html = await pageText(await withoutReadPrimary(b)("/account/history"));
    expect(html).toContain(PRIMARY_NAME);
  });

  it("the salon's back office", async () => {
    const { b, userId } = await signedIn("owner");
    await primary.db.insert(salonOwners).values({ salonId: primarySalonId, userId });
    const html = await pageText(await withoutReadPrimary(b)(`/owner/salons/${primarySalonId}`));
    expect(html).toContain(PRIMARY_NAME);
    expect(html).not.toContain(REPLICA_NAME);
  });
});

describe("a browser reads its own writes", () => {
  it("a successful write sends that browser's reads to the primary for a few seconds", async () => {
    const b = browser(app);
    expect(await pageText(await b.request("/salons/twin"))).toContain(REPLICA_NAME);
    // A write (here a sign-in; a hold, a booking, a review or a favorite alike).
    const login = await b.request("/api/test/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ role: "user" }),
    });
    expect(login.status).toBe(201);
    const set = login.headers.getSetCookie().find((line) => line.startsWith(READ_PRIMARY_COOKIE));
    expect(set).toMatch(/Max-Age=15;.*HttpOnly; SameSite=Lax/);
    for (const path of ["/salons/twin", "/salons/search", "/sitemap.xml"]) {
      const text = await pageText(await b.request(path));
      expect(text).not.toContain(path === "/sitemap.xml" ? "replica-only" : REPLICA_NAME);
      expect(text).toContain(path === "/sitemap.xml" ? "primary-only" : PRIMARY_NAME);
    }
    // Once the cookie has expired, the same browser reads the replica again.
    expect(await pageText(await withoutReadPrimary(b)("/salons/twin"))).toContain(REPLICA_NAME);
  });

  it("a refused write does not", async () => {
    const b = browser(app);
    const refused = await b.request("/api/holds", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(b.jar.has(READ_PRIMARY_COOKIE)).toBe(false);
    expect(await pageText(await b.request("/salons/twin"))).toContain(REPLICA_NAME);
  });
});
