import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachCustomer } from "../../server/bookings/salon-customers.server";
import { salonMembers, salonOwners } from "../../server/db/schema";
import {
  capabilitiesOf,
  type SalonAccessRole,
  type SalonCapability,
} from "../../server/salon-access/salon-access.server";
import { type browser, ORIGIN, testLogin } from "../support/accounts";
import { buildBooking, buildReview, buildSalonWithStaff } from "../support/builders";
import { createFullApp } from "../support/full-app";
import {
  declaredCapability,
  fillPattern,
  type OwnerOperation,
  ownerOperations,
  ownerPageRoutes,
} from "../support/owner-routes";
import { withTestDatabase } from "../support/test-database";

/**
 * The role matrix (issue 29, points 1 and 8; decision 0045): every /owner
 * route of app/routes.ts and every /api/owner operation of the OpenAPI
 * document, for the salon's owner, an administrator and each staff role
 * (manager, reception, stylist). Each route declares its capability (the
 * route module's `capability`, the operation's x-salon-capability); a role
 * whose row of the test's own table has it gets past the guard (not 401/404),
 * any other gets the 404. Then what a stylist sees (their own column and
 * bookings, never a phone or an address), and that removing a person or
 * changing their role takes effect on their very next request.
 */
const env = {
  PUBLIC_URL: ORIGIN,
  TRUST_PROXY: "true",
  E2E_LOGIN: "true",
  RATE_LIMIT_PER_IP: "1000000",
  RATE_LIMIT_PER_ACCOUNT: "1000000",
};

const PHONE_1 = "09011112222";
const PHONE_2 = "09033334444";
const EMAIL_1 = "ichiro-sato@example.jp";

const database = withTestDatabase();
let full: Awaited<ReturnType<typeof createFullApp>>;
const ids = { id: "", bookingId: "", customerId: "", reviewId: "" };
/** Salon A's second stylist's booking (not the stylist account's). */
let otherBookingId = "";
let todayOwn = "";
let todayOther = "";
let ownStaffId = "";
let operations: OwnerOperation[] = [];

type Browser = ReturnType<typeof browser>;
const roles = ["owner", "admin", "manager", "reception", "stylist"] as const;
const who = {} as Record<(typeof roles)[number], Browser>;

const signedIn = (role: "user" | "owner" | "admin") => testLogin(full.app, database.db, role);

/** A plain account with a membership of salon A. */
async function member(role: "manager" | "reception" | "stylist") {
  const signed = await signedIn("user");
  await database.db.insert(salonMembers).values({
    salonId: ids.id,
    userId: signed.userId,
    role,
    staffId: role === "stylist" ? ownStaffId : null,
  });
  return signed;
}

beforeAll(async () => {
  full = await createFullApp(database, env);
  const a = await buildSalonWithStaff(database.db, { staffCount: 2 });
  ids.id = a.salon.id;
  const [own, other] = a.stylists;
  if (!own || !other) throw new Error("two stylists expected");
  ownStaffId = own.id;
  const startsAt = new Date(Date.now() + 2 * 86_400_000);
  const customerId = await database.db.transaction((tx) =>
    attachCustomer(tx, {
      salonId: a.salon.id,
      userId: null,
      name: "佐藤 一郎",
      kana: "サトウ イチロウ",
      phone: PHONE_1,
      email: EMAIL_1,
    }),
  );
  const booking = (
    staffId: string,
    at: Date,
    name: string,
    phone: string,
    email: string,
    customer: string | null = null,
  ) =>
    buildBooking(database.db, {
      salonId: a.salon.id,
      staffId,
      startsAt: at,
      endsAt: new Date(at.getTime() + 3_600_000),
      status: "confirmed",
      source: "phone",
      customerName: name,
      customerKana: "カナ",
      customerPhone: phone,
      customerEmail: email,
      customerId: customer,
    });
  const mine = await booking(own.id, startsAt, "佐藤 一郎", PHONE_1, EMAIL_1, customerId);
  ids.bookingId = mine.id;
  ids.customerId = customerId;
  otherBookingId = (await booking(other.id, startsAt, "鈴木 花子", PHONE_2, "hanako@example.jp"))
    .id;
  // Started a minute ago: on today's list (arrivals due) whatever the hour.
  const justNow = new Date(Date.now() - 60_000);
  todayOwn = (await booking(own.id, justNow, "今日 自分", PHONE_1, EMAIL_1)).id;
  todayOther = (await booking(other.id, justNow, "今日 他人", PHONE_2, "other@example.jp")).id;

  // At once: each sign-in hashes a password (scrypt, on libuv's threads).
  const [owner, admin, manager, reception, stylist] = await Promise.all([
    signedIn("owner"),
    signedIn("admin"),
    member("manager"),
    member("reception"),
    member("stylist"),
  ]);
  await database.db.insert(salonOwners).values({ salonId: a.salon.id, userId: owner.userId });
  Object.assign(who, {
    owner: owner.b,
    admin: admin.b,
    manager: manager.b,
    reception: reception.b,
    stylist: stylist.b,
  });
  // A review of a past visit, for /api/owner/…/reviews/{reviewId}/reply.
  ids.reviewId = (await buildReview(database.db, a.salon.id, { staffId: other.id })).id;
  operations = await ownerOperations(full.app);
}, 120_000);

afterAll(async () => {
  await full?.close();
});

/**
 * Who may do what, written out here on its own (issue 38, §6): the test
 * must not read its expectations from the table it checks (granting
 * reception customers.export there passed). A change of a role's rights
 * is a change of this table too, made on purpose.
 */
const managerRights: readonly SalonCapability[] = [
  "ledger.read",
  "bookings.act",
  "bookings.enter",
  "checkout.act",
  // 取消 of a saved 会計 (decision 0085): owner, manager, admin.
  "checkout.void",
  "dayclose.act",
  "payments.refund",
  "customers.manage",
  "customers.export",
  "bookings.export",
  "reports.read",
  "settings.manage",
  // The salon's webhooks (decision 0086): owner, manager, admin.
  "webhooks.manage",
  "salon.edit",
  "schedules.manage",
  "reviews.reply",
];
const expectedRights: Record<SalonAccessRole, readonly SalonCapability[]> = {
  owner: [...managerRights, "members.manage"],
  admin: [...managerRights, "members.manage"],
  manager: managerRights,
  reception: ["ledger.read", "bookings.act", "bookings.enter", "checkout.act", "customers.manage"],
  stylist: ["ledger.read", "schedules.request"],
};

const allows = (role: SalonAccessRole, capability: SalonCapability) =>
  expectedRights[role].includes(capability);

const form = (body: string) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body,
});

describe("the role matrix", () => {
  it("grants each role exactly the rights written out above", () => {
    const sorted = (rights: readonly SalonCapability[]) => [...rights].sort();
    for (const role of Object.keys(expectedRights) as SalonAccessRole[]) {
      expect(sorted(capabilitiesOf[role]), role).toEqual(sorted(expectedRights[role]));
    }
    expect(Object.keys(capabilitiesOf).sort()).toEqual(Object.keys(expectedRights).sort());
  });

  it("has a declared capability for every owner route and /api/owner operation", async () => {
    const missing: string[] = [];
    for (const route of ownerPageRoutes().filter(({ pattern }) => pattern !== "owner")) {
      if (!(await declaredCapability(route))) {
        missing.push(
          `app/${route.file}: export const capability = { loader: "…", action: "…" } (decision 0045)`,
        );
      }
    }
    for (const operation of operations) {
      if (!operation.capability) {
        missing.push(
          `${operation.method} ${operation.pattern}: ...needs("…") in its createRoute (server/api/owner-capability.ts)`,
        );
      }
    }
    expect(missing).toEqual([]);
  });

  it("opens /owner for every role: on the salon they can reach (an administrator: the salons list)", async () => {
    for (const role of roles) {
      const response = await who[role].request("/owner");
      if (role === "admin") expect(response.status, role).toBe(200);
      else {
        expect(response.status, role).toBe(302);
        expect(response.headers.get("location"), role).toBe(`/owner/salons/${ids.id}`);
      }
    }
  });

  it("lets each role open exactly the pages and forms its capabilities allow, and 404s the rest", async () => {
    const routes = ownerPageRoutes().filter(({ pattern }) => pattern !== "owner");
    expect(routes.length).toBeGreaterThanOrEqual(9);
    const failures: string[] = [];
    for (const route of routes) {
      const capability = await declaredCapability(route);
      if (!capability) continue; // reported by the test above
      const path = `/${fillPattern(route.pattern, ids)}`;
      // The five roles at once (their own sessions; the posts change nothing).
      await Promise.all(
        roles.map(async (role) => {
          const page = await who[role].request(path);
          await page.body?.cancel();
          const pageAllowed = allows(role, capability.loader);
          if (
            pageAllowed
              ? [401, 404].includes(page.status) || page.status >= 500
              : page.status !== 404
          ) {
            failures.push(`${role} GET ${path} (${capability.loader}): ${page.status}`);
          }
          if (!capability.action) return;
          // A post that changes nothing (refused by the form's own checks when it gets there).
          const post = await who[role].request(path, form("intent=%00&version=-1&email=x"));
          await post.body?.cancel();
          const postAllowed = allows(role, capability.action);
          if (
            postAllowed
              ? [401, 404].includes(post.status) || post.status >= 500
              : post.status !== 404
          ) {
            failures.push(`${role} POST ${path} (${capability.action}): ${post.status}`);
          }
        }),
      );
    }
    expect(failures).toEqual([]);
  });

  it("answers every /api/owner operation as the operation's declared capability says", async () => {
    expect(operations.length).toBeGreaterThanOrEqual(10);
    const failures: string[] = [];
    for (const operation of operations) {
      const declared = operation.capability;
      if (!declared) continue; // reported by the first test
      const path = `/api${fillPattern(operation.pattern, ids)}`;
      const stream = path.endsWith("/stream");
      // A stream is asked for an impossible range: its guard answers before any event.
      const url = stream ? `${path}?from=2026-13-01` : path;
      await Promise.all(
        roles.map(async (role) => {
          const response = await who[role].request(url, {
            method: operation.method,
            headers: { "content-type": "application/json" },
            body: operation.method === "GET" ? undefined : "{}",
          });
          await response.body?.cancel();
          const allowed = allows(role, declared);
          const wrong = allowed
            ? [401, 404].includes(response.status) || response.status >= 500
            : response.status !== 404;
          if (wrong) {
            failures.push(
              `${role} ${operation.method} ${operation.pattern} (${declared}): ${response.status}`,
            );
          }
        }),
      );
    }
    expect(failures).toEqual([]);
  });

  it("shows each role only the sections of the menu it may open", async () => {
    const base = `/owner/salons/${ids.id}`;
    for (const role of roles) {
      const html = await (await who[role].request(base)).text();
      const link = (section: string) => html.includes(`href="${base}/${section}"`);
      expect(link("bookings"), `${role} 予約台帳`).toBe(true);
      expect(link("customers"), `${role} 顧客`).toBe(allows(role, "customers.manage"));
      expect(link("settings"), `${role} 設定`).toBe(allows(role, "settings.manage"));
    }
  });
});

describe("what a stylist sees", () => {
  it("their own column of the ledger, day and week, without phones or addresses", async () => {
    const day = await who.stylist.request(`/api/owner/salons/${ids.id}/bookings/${ids.bookingId}`);
    const { data: detail } = (await day.json()) as {
      data: { date: string; customer: { name: string; phone: string; email: string } };
    };
    expect(detail.customer).toMatchObject({ name: "佐藤 一郎", phone: "", email: "" });

    const ledger = await who.stylist.request(
      `/api/owner/salons/${ids.id}/ledger?date=${detail.date}`,
    );
    expect(ledger.status).toBe(200);
    const ledgerText = await ledger.text();
    const { data } = JSON.parse(ledgerText) as {
      data: { columns: { staff: { id: string }; entries: { id: string }[] }[] };
    };
    expect(data.columns.map((column) => column.staff.id)).toEqual([ownStaffId]);
    const entryIds = data.columns.flatMap((column) => column.entries.map((entry) => entry.id));
    expect(entryIds).toContain(ids.bookingId);
    expect(entryIds).not.toContain(otherBookingId);

    const week = await who.stylist.request(
      `/api/owner/salons/${ids.id}/ledger?date=${detail.date}&view=week`,
    );
    const weekText = await week.text();
    const weekData = JSON.parse(weekText) as { data: { staff: { id: string }[] } };
    expect(weekData.data.staff.map((s) => s.id)).toEqual([ownStaffId]);
    expect(weekText).toContain("佐藤 一郎");
    expect(weekText).not.toContain("鈴木 花子");

    // The manager sees both columns.
    const managers = await who.manager.request(
      `/api/owner/salons/${ids.id}/ledger?date=${detail.date}`,
    );
    const managerData = (await managers.json()) as { data: { columns: unknown[] } };
    expect(managerData.data.columns).toHaveLength(2);

    const page = await who.stylist.request(`/owner/salons/${ids.id}/bookings?date=${detail.date}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("佐藤 一郎");
    expect(html).not.toContain("鈴木 花子");
    // No links to enter bookings, which a stylist may not do.
    expect(html).not.toContain(`/owner/salons/${ids.id}/bookings/new`);
    for (const text of [ledgerText, weekText, html]) {
      expect(text).not.toContain(PHONE_1);
      expect(text).not.toContain(PHONE_2);
      expect(text).not.toContain(EMAIL_1);
    }
  });

  it("their own bookings on 今日, page and JSON", async () => {
    const response = await who.stylist.request(`/api/owner/salons/${ids.id}/today`);
    const text = await response.text();
    const { data } = JSON.parse(text) as {
      data: { arrivalsDue: { id: string }[]; counts: { booked: number } };
    };
    expect(data.arrivalsDue.map((b) => b.id)).toEqual([todayOwn]);
    expect(data.counts.booked).toBe(1);
    const managers = (await (
      await who.manager.request(`/api/owner/salons/${ids.id}/today`)
    ).json()) as { data: { arrivalsDue: { id: string }[] } };
    expect(managers.data.arrivalsDue.map((b) => b.id).sort()).toEqual(
      [todayOwn, todayOther].sort(),
    );
    const html = await (await who.stylist.request(`/owner/salons/${ids.id}`)).text();
    // The account menu leads a salon's staff (a plain account) back here.
    expect(html).toContain('href="/owner"');
    expect(html).toContain("今日 自分");
    expect(html).not.toContain("今日 他人");
    for (const body of [text, html]) {
      expect(body).not.toContain(PHONE_1);
      expect(body).not.toContain(EMAIL_1);
    }
  });

  it("their own booking's detail without phone, address or the customer's record; another stylist's is not found", async () => {
    const page = await who.stylist.request(`/owner/salons/${ids.id}/bookings/${ids.bookingId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("佐藤 一郎");
    expect(html).not.toContain(PHONE_1);
    expect(html).not.toContain(EMAIL_1);
    expect(html).not.toContain(`/customers/${ids.customerId}`);
    // The same page for reception shows how to reach the customer.
    const receptions = await (
      await who.reception.request(`/owner/salons/${ids.id}/bookings/${ids.bookingId}`)
    ).text();
    expect(receptions).toContain(EMAIL_1);

    const other = await who.stylist.request(`/owner/salons/${ids.id}/bookings/${otherBookingId}`);
    expect(other.status).toBe(404);
    const api = await who.stylist.request(`/api/owner/salons/${ids.id}/bookings/${otherBookingId}`);
    expect(api.status).toBe(404);
    const json = await who.stylist.request(`/api/owner/salons/${ids.id}/bookings/${ids.bookingId}`);
    const body = await json.text();
    expect(body).not.toContain(PHONE_1);
    expect(body).not.toContain(EMAIL_1);
    expect(JSON.parse(body).data.customerId).toBeNull();
  });
});

describe("changes to a person's membership", () => {
  it("ends a removed person's access on their next request, and applies a changed role at once", async () => {
    const person = await member("manager");
    const settings = `/owner/salons/${ids.id}/settings`;
    expect((await person.b.request(settings)).status).toBe(200);
    expect((await person.b.request(`/api/owner/salons/${ids.id}/today`)).status).toBe(200);

    await database.db
      .update(salonMembers)
      .set({ role: "reception" })
      .where(and(eq(salonMembers.salonId, ids.id), eq(salonMembers.userId, person.userId)));
    expect((await person.b.request(settings)).status).toBe(404);
    expect((await person.b.request(`/owner/salons/${ids.id}/customers`)).status).toBe(200);

    await database.db
      .delete(salonMembers)
      .where(and(eq(salonMembers.salonId, ids.id), eq(salonMembers.userId, person.userId)));
    expect((await person.b.request(`/owner/salons/${ids.id}`)).status).toBe(404);
    expect((await person.b.request("/owner")).status).toBe(404);
    expect((await person.b.request(`/api/owner/salons/${ids.id}/today`)).status).toBe(404);
  });
});
