import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountServices } from "../../server/accounts/account-services";
import {
  demoOwnerSalonSummary,
  describeDemoAccounts,
  describeDemoOwnerSalons,
  seedDemoAccounts,
} from "../../server/accounts/demo-accounts";
import { loadConfig } from "../../server/config";
import {
  bookings,
  products,
  salonMembers,
  salonOwners,
  salons,
  staff,
  users,
} from "../../server/db/schema";
import { demoProducts } from "../../server/db/seed/demo-products";
import { seedDatabase } from "../../server/db/seed/seed";
import { todayView } from "../../server/owner/today.server";
import { ORIGIN } from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

/**
 * The demo owner's busy week (issue 28, point 1; decision 0043): three
 * published salons, bookings from every source, the past days' outcomes,
 * customer records with regulars, history entries, and a start-up line per
 * salon with today's bookings.
 */
const database = withTestDatabase();

/** A Thursday afternoon in Tokyo: Monday to Wednesday are this week's past. */
const NOW = new Date("2026-12-03T15:00:00+09:00");
const SALONS = 12;

const config = loadConfig({ PUBLIC_URL: ORIGIN, LOG_LEVEL: "silent" });
let accounts: ReturnType<typeof createAccountServices>;

async function seedAll() {
  await seedDatabase(database.db, { salonCount: SALONS, now: NOW });
  await seedDemoAccounts(database.db, accounts, { isProduction: false });
}

async function ownerSalonIds() {
  const rows = await database.db
    .select({ id: salonOwners.salonId, slug: salons.slug, status: salons.status })
    .from(salonOwners)
    .innerJoin(users, eq(users.id, salonOwners.userId))
    .innerJoin(salons, eq(salons.id, salonOwners.salonId))
    .where(eq(users.email, "demo-owner@example.jp"))
    .orderBy(salons.slug);
  return rows;
}

type Row = Record<string, number>;
async function stats(ids: string[]) {
  const result = (await database.db.execute(sql`
    select
      count(*)::int as bookings,
      count(*) filter (where source = 'web')::int as web,
      count(*) filter (where source = 'phone')::int as phone,
      count(*) filter (where source = 'walk_in')::int as walk_in,
      count(*) filter (where status = 'completed' and starts_at < ${NOW})::int as completed,
      count(*) filter (where status = 'no_show' and starts_at < ${NOW})::int as no_show,
      count(*) filter (where status = 'cancelled_by_user')::int as cancelled_by_user,
      count(*) filter (where status = 'cancelled_by_salon' and cancel_category is not null)::int as cancelled_by_salon,
      count(*) filter (where status in ('completed', 'no_show') and starts_at > ${NOW})::int as outcomes_ahead,
      count(*) filter (where source = 'walk_in' and starts_at > ${NOW})::int as walk_ins_ahead,
      count(*) filter (where customer_id is null)::int as without_customer,
      count(*) filter (where not exists (select 1 from booking_events e where e.booking_id = b.id
        and e.kind = 'created'))::int as without_created,
      (select count(*)::int from (select customer_id from bookings r
        where r.salon_id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and r.customer_id is not null
        group by customer_id having count(*) > 1) repeat) as regulars,
      count(*) filter (where starts_at < date_trunc('day', ${NOW}::timestamptz at time zone 'Asia/Tokyo') at time zone 'Asia/Tokyo')::int as past_days
    from bookings b
    where b.salon_id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and b.kind = 'booking' and ${NOT_A_REVIEW_VISIT}`)) as unknown as { rows: Row[] };
  return result.rows[0] ?? {};
}

/** The week's bookings, not the past visits the demo reviews stand on (seed/review-visits.ts). */
const NOT_A_REVIEW_VISIT = sql`not exists (select 1 from reviews rv where rv.booking_id = b.id)`;

beforeAll(async () => {
  accounts = createAccountServices(database.db, config);
  await seedAll();
}, 120_000);

afterAll(async () => {
  await accounts?.close();
});

describe("the demo owner's week", () => {
  it("gives the demo owner the first three published salons by slug", async () => {
    const owned = await ownerSalonIds();
    expect(owned).toHaveLength(3);
    expect(owned.every((salon) => salon.status === "published")).toBe(true);
    const firstThree = await database.db
      .select({ slug: salons.slug })
      .from(salons)
      .where(eq(salons.status, "published"))
      .orderBy(salons.slug)
      .limit(3);
    expect(owned.map((salon) => salon.slug)).toEqual(firstThree.map((salon) => salon.slug));
  });

  it("fills their week with web, phone and walk-in bookings and the past days' outcomes", async () => {
    const ids = (await ownerSalonIds()).map((salon) => salon.id);
    const row = await stats(ids);
    expect(row.bookings).toBeGreaterThan(100);
    expect(row.web).toBeGreaterThan(0);
    expect(row.phone).toBeGreaterThan(0);
    expect(row.walk_in).toBeGreaterThan(0);
    expect(row.past_days).toBeGreaterThan(0);
    expect(row.completed).toBeGreaterThan(0);
    expect(row.no_show).toBeGreaterThan(0);
    expect(row.cancelled_by_user).toBeGreaterThan(0);
    expect(row.cancelled_by_salon).toBeGreaterThan(0);
    // Nothing is completed before it happens, and nobody walks in next week.
    expect(row.outcomes_ahead).toBe(0);
    expect(row.walk_ins_ahead).toBe(0);
  });

  it("gives each booking a customer record (with regulars) and its 'created' history entry", async () => {
    const ids = (await ownerSalonIds()).map((salon) => salon.id);
    const row = await stats(ids);
    expect(row.without_customer).toBe(0);
    expect(row.without_created).toBe(0);
    expect(row.regulars).toBeGreaterThan(3);
  });

  it("leaves the other salons' seed as it was: confirmed phone bookings, each with its customer record", async () => {
    const ids = (await ownerSalonIds()).map((salon) => salon.id);
    const others = await database.db
      .select({ source: bookings.source, status: bookings.status, customerId: bookings.customerId })
      .from(bookings)
      .where(
        sql`${bookings.salonId} not in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}) and not exists (select 1 from reviews rv where rv.booking_id = ${bookings.id})`,
      );
    expect(others.length).toBeGreaterThan(0);
    expect(new Set(others.map((row) => `${row.source} ${row.status}`))).toEqual(
      new Set(["phone confirmed"]),
    );
    expect(others.filter((row) => row.customerId === null)).toEqual([]);
  });

  it("shows up on the back office's 今日 with notices", async () => {
    const [first] = await ownerSalonIds();
    const [salon] = await database.db
      .select({ id: salons.id, name: salons.name, timeZone: salons.timeZone })
      .from(salons)
      .where(eq(salons.id, first?.id ?? ""));
    if (!salon) throw new Error("no salon");
    const view = await todayView(database.db, salon, NOW);
    expect(view.notices.length).toBeGreaterThan(0);
    expect(view.notices.some((notice) => notice.kind === "created")).toBe(true);
  });

  it("prints each salon's 今日 address and today's bookings", async () => {
    const summary = await demoOwnerSalonSummary(database.db, NOW);
    const owned = await ownerSalonIds();
    expect(summary.map((salon) => salon.path)).toEqual(
      owned.map((salon) => `/owner/salons/${salon.id}`),
    );
    for (const [i, salon] of summary.entries()) {
      const counted = await database.db.$count(
        bookings,
        and(
          eq(bookings.salonId, owned[i]?.id ?? ""),
          inArray(bookings.status, ["confirmed", "completed", "no_show"]),
          sql`${bookings.startsAt} >= '2026-12-03T00:00:00+09:00' and ${bookings.startsAt} < '2026-12-04T00:00:00+09:00'`,
        ),
      );
      expect(salon.bookingsToday).toBe(counted);
    }
    expect(summary.some((salon) => salon.bookingsToday > 0)).toBe(true);
    expect(describeDemoOwnerSalons(summary, ORIGIN)[0]).toMatch(
      /^http:\/\/localhost:3000\/owner\/salons\/[0-9a-f-]{36} {2}.+（本日の予約 \d+件）$/,
    );
  });

  it("gives the first demo salon a manager, a receptionist and a stylist (its first stylist, whose own bookings they see)", async () => {
    const [first] = await ownerSalonIds();
    const members = await database.db
      .select({
        email: users.email,
        role: salonMembers.role,
        staffId: salonMembers.staffId,
        accountRole: users.role,
      })
      .from(salonMembers)
      .innerJoin(users, eq(users.id, salonMembers.userId))
      .where(eq(salonMembers.salonId, first?.id ?? ""))
      .orderBy(users.email);
    expect(members.map(({ email, role, accountRole }) => ({ email, role, accountRole }))).toEqual([
      { email: "demo-manager@example.jp", role: "manager", accountRole: "user" },
      { email: "demo-reception@example.jp", role: "reception", accountRole: "user" },
      { email: "demo-stylist@example.jp", role: "stylist", accountRole: "user" },
    ]);
    const stylistId = members.find((m) => m.role === "stylist")?.staffId ?? "";
    const [firstStylist] = await database.db
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.salonId, first?.id ?? ""), eq(staff.active, true)))
      .orderBy(staff.sortOrder, staff.id)
      .limit(1);
    expect(stylistId).toBe(firstStylist?.id);
    const [salon] = await database.db
      .select({ id: salons.id, name: salons.name, timeZone: salons.timeZone })
      .from(salons)
      .where(eq(salons.id, first?.id ?? ""));
    if (!salon) throw new Error("no salon");
    const own = await database.db.$count(
      bookings,
      and(eq(bookings.salonId, salon.id), eq(bookings.staffId, stylistId)),
    );
    expect(own).toBeGreaterThan(0);
    const view = await todayView(database.db, salon, NOW, { staffId: stylistId });
    expect(
      [...view.upcoming, ...view.arrivalsDue].every((booking) => booking.staffId === stylistId),
    ).toBe(true);
    expect(describeDemoAccounts().some((line) => line.includes("demo-stylist@example.jp"))).toBe(
      true,
    );
  });

  it("gives the first demo salon a few retail items for 会計 (decision 0079)", async () => {
    const [first] = await ownerSalonIds();
    const rows = await database.db
      .select({ name: products.name, price: products.price, salonId: products.salonId })
      .from(products);
    expect(rows.sort((a, b) => b.price - a.price)).toEqual(
      demoProducts.map((p) => ({ ...p, salonId: first?.id })),
    );
  });

  it("is safe to re-run: the same rows", async () => {
    const ids = (await ownerSalonIds()).map((salon) => salon.id);
    const before = await stats(ids);
    await seedAll();
    expect(await stats(ids)).toEqual(before);
    expect(await ownerSalonIds()).toHaveLength(3);
    expect(await database.db.$count(salonMembers)).toBe(3);
    expect(await database.db.$count(products)).toBe(demoProducts.length);
  });
});
