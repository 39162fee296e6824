import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findAvailability } from "../../server/bookings/availability";
import { loadAvailabilityInput } from "../../server/bookings/availability-data.server";
import { japaneseHolidaysBetween } from "../../server/bookings/holidays";
import {
  areas,
  articles,
  menus,
  prefectures,
  salonPaymentPolicies,
  salons,
  staff,
  stations,
} from "../../server/db/schema";
import { demoOwnerSalons } from "../../server/db/seed/demo-week";
import { isSeeded, seedDatabase } from "../../server/db/seed/seed";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const SALONS = 12;
/** The seed places bookings after this instant (a Tuesday morning in Tokyo). */
const NOW = new Date("2026-12-01T09:00:00+09:00");

async function fingerprint() {
  const db = database.db;
  const counts = {
    prefectures: await db.$count(prefectures),
    areas: await db.$count(areas),
    stations: await db.$count(stations),
    salons: await db.$count(salons),
    staff: await db.$count(staff),
    menus: await db.$count(menus),
    articles: await db.$count(articles),
  };
  const [digest] = await db
    .select({
      value: sql<string>`md5(string_agg(${salons.slug} || ${salons.name} || ${salons.priceMin}, ',' order by ${salons.slug}))`,
    })
    .from(salons);
  return { counts, digest: digest?.value };
}

describe("demo seed", () => {
  it("is empty before seeding", async () => {
    expect(await isSeeded(database.db)).toBe(false);
  });

  it("writes the reference data and the requested number of salons", async () => {
    await seedDatabase(database.db, { salonCount: SALONS, now: NOW });
    const { counts } = await fingerprint();
    expect(counts.prefectures).toBe(47);
    expect(counts.areas).toBeGreaterThanOrEqual(20);
    expect(counts.salons).toBe(SALONS);
    expect(counts.articles).toBe(5);
    expect(await isSeeded(database.db)).toBe(true);
  });

  it("gives every salon 3-8 staff and 8-20 menus, and keeps price and rating summaries consistent", async () => {
    type Row = {
      slug: string;
      staff_count: number;
      menu_count: number;
      consistent_price: boolean;
      consistent_reviews: boolean;
    };
    // Both drivers answer raw SQL with { rows }; the shared Database type cannot name it.
    const rows = (await database.db.execute(sql`
      select s.slug,
        (select count(*)::int from staff st where st.salon_id = s.id) as staff_count,
        (select count(*)::int from menus m where m.salon_id = s.id) as menu_count,
        s.price_min = (select min(price) from menus m where m.salon_id = s.id) as consistent_price,
        s.review_count = (select count(*) from reviews r where r.salon_id = s.id) as consistent_reviews
      from salons s`)) as unknown as { rows: Row[] };
    expect(rows.rows).toHaveLength(SALONS);
    for (const row of rows.rows) {
      expect(row.staff_count, row.slug).toBeGreaterThanOrEqual(3);
      expect(row.staff_count, row.slug).toBeLessThanOrEqual(8);
      expect(row.menu_count, row.slug).toBeGreaterThanOrEqual(8);
      expect(row.menu_count, row.slug).toBeLessThanOrEqual(20);
      expect(row.consistent_price, row.slug).toBe(true);
      expect(row.consistent_reviews, row.slug).toBe(true);
    }
  });

  it("takes about a third to a half of the coming week's slots with bookings", async () => {
    const salonRows = await database.db
      .select({ id: salons.id })
      .from(salons)
      .where(eq(salons.status, "published"));
    let offered = 0;
    let free = 0;
    for (const salon of salonRows) {
      const [shortest] = await database.db
        .select({ id: menus.id })
        .from(menus)
        .where(
          and(
            eq(menus.salonId, salon.id),
            sql`not exists (select 1 from menu_staff ms where ms.menu_id = ${menus.id})`,
          ),
        )
        .orderBy(asc(menus.durationMinutes), asc(menus.id))
        .limit(1);
      if (!shortest) continue;
      const { input } = await loadAvailabilityInput(database.db, {
        salonId: salon.id,
        menuIds: [shortest.id],
        staffId: null,
        from: "2026-12-01",
        to: "2026-12-07",
        now: NOW,
      });
      // (start, stylist) pairs the salon would offer with nobody booked, and those still free.
      const pairs = (days: ReturnType<typeof findAvailability>) =>
        days.reduce(
          (sum, day) => sum + day.slots.reduce((n, slot) => n + slot.staffIds.length, 0),
          0,
        );
      offered += pairs(findAvailability({ ...input, busy: [], bookingsPerStaffDay: new Map() }));
      free += pairs(findAvailability(input));
    }
    const taken = 1 - free / offered;
    expect(offered).toBeGreaterThan(1000);
    expect(taken).toBeGreaterThanOrEqual(0.33);
    expect(taken).toBeLessThanOrEqual(0.5);
  });

  it("gives stylists breaks and days off, and ties coupons to menus", async () => {
    type Row = {
      breaks: number;
      days_off: number;
      coupon_menus: number;
      bookings_with_two_menus: number;
    };
    const result = (await database.db.execute(sql`
      select
        (select count(*)::int from (select staff_id, weekday from staff_schedules
          group by staff_id, weekday having count(*) > 1) b) as breaks,
        (select count(*)::int from schedule_exceptions where kind = 'closed' and staff_id is not null) as days_off,
        (select count(*)::int from coupon_menus) as coupon_menus,
        (select count(*)::int from (select booking_id from booking_menus
          group by booking_id having count(*) > 1) m) as bookings_with_two_menus`)) as unknown as {
      rows: Row[];
    };
    const row = result.rows[0];
    expect(row?.breaks).toBeGreaterThan(0);
    expect(row?.days_off).toBeGreaterThan(0);
    expect(row?.coupon_menus).toBeGreaterThan(0);
    expect(row?.bookings_with_two_menus).toBeGreaterThan(0);
  });

  it("dates reviews and bookings on days the salon is open and the stylist works", async () => {
    type Row = {
      reviews: number;
      reviews_on_closed_days: number;
      reviews_on_stylists_days_off: number;
      reviews_on_closed_holidays: number;
      bookings_on_closed_days: number;
      short_hours_on_closed_days: number;
    };
    const result = (await database.db.execute(sql`
      select
        (select count(*)::int from reviews) as reviews,
        (select count(*)::int from reviews r where not exists (select 1 from salon_opening_hours h
          where h.salon_id = r.salon_id and h.weekday = extract(dow from r.visited_on))) as reviews_on_closed_days,
        (select count(*)::int from reviews r where r.staff_id is not null and not exists (
          select 1 from staff_schedules w where w.staff_id = r.staff_id
          and w.weekday = extract(dow from r.visited_on))) as reviews_on_stylists_days_off,
        (select count(*)::int from reviews r join salon_booking_settings b on b.salon_id = r.salon_id
          where b.closed_on_public_holidays and r.visited_on in (${sql.join(
            [...japaneseHolidaysBetween("2021-01-01", "2026-12-31").keys()].map(
              (day) => sql`${day}::date`,
            ),
            sql`, `,
          )})) as reviews_on_closed_holidays,
        (select count(*)::int from bookings k join salons s on s.id = k.salon_id
          where not exists (select 1 from salon_opening_hours h where h.salon_id = k.salon_id
          and h.weekday = extract(dow from (k.starts_at at time zone s.time_zone)))) as bookings_on_closed_days,
        (select count(*)::int from schedule_exceptions e where e.staff_id is null and e.kind = 'hours'
          and not exists (select 1 from salon_opening_hours h where h.salon_id = e.salon_id
          and h.weekday = extract(dow from e.date))) as short_hours_on_closed_days`)) as unknown as {
      rows: Row[];
    };
    expect(result.rows[0]).toEqual({
      reviews: expect.any(Number),
      reviews_on_closed_days: 0,
      reviews_on_stylists_days_off: 0,
      reviews_on_closed_holidays: 0,
      bookings_on_closed_days: 0,
      short_hours_on_closed_days: 0,
    });
    expect(result.rows[0]?.reviews).toBeGreaterThan(SALONS * 3);
  });

  it("stands every review on a completed visit of its salon and stylist, with aspects and some replies", async () => {
    type Row = {
      reviews: number;
      without_their_visit: number;
      with_aspects: number;
      aspects_far_from_rating: number;
      replied: number;
      replies_not_a_day_or_two_later: number;
      visits_without_menus: number;
    };
    const result = (await database.db.execute(sql`
      select
        (select count(*)::int from reviews) as reviews,
        (select count(*)::int from reviews r where not exists (select 1 from bookings b
          join salons s on s.id = b.salon_id
          where b.id = r.booking_id and b.salon_id = r.salon_id and b.status = 'completed'
          and b.staff_id is not distinct from r.staff_id
          and (b.starts_at at time zone s.time_zone)::date = r.visited_on)) as without_their_visit,
        (select count(*)::int from reviews where rating_atmosphere is not null
          or rating_service is not null or rating_technique is not null
          or rating_finish is not null) as with_aspects,
        (select count(*)::int from reviews where abs(rating_atmosphere - rating) > 1
          or abs(rating_service - rating) > 1 or abs(rating_technique - rating) > 1
          or abs(rating_finish - rating) > 1) as aspects_far_from_rating,
        (select count(*)::int from reviews where reply_body is not null) as replied,
        (select count(*)::int from reviews where reply_body is not null and (replied_at is null
          or replied_at < created_at + interval '20 hours'
          or replied_at > created_at + interval '2 days')) as replies_not_a_day_or_two_later,
        (select count(*)::int from reviews r where not exists (select 1 from booking_menus m
          where m.booking_id = r.booking_id and m.salon_id = r.salon_id)) as visits_without_menus`)) as unknown as {
      rows: Row[];
    };
    const row = result.rows[0];
    if (!row) throw new Error("no row");
    expect(row).toMatchObject({
      without_their_visit: 0,
      aspects_far_from_rating: 0,
      replies_not_a_day_or_two_later: 0,
      visits_without_menus: 0,
    });
    // Most reviews rate the aspects; about 40 % have the salon's reply.
    expect(row.with_aspects / row.reviews).toBeGreaterThan(0.6);
    expect(row.replied / row.reviews).toBeGreaterThan(0.2);
    expect(row.replied / row.reviews).toBeLessThan(0.6);
  });

  it("gives the demo owner's second salon the demo payment and cancellation policy, once", async () => {
    const [, second] = await demoOwnerSalons(database.db);
    const rows = await database.db.select().from(salonPaymentPolicies);
    expect(
      rows.map((row) => [row.salonId, row.mode, row.depositValue, row.sameDayPercent]),
    ).toEqual([[second?.id, "deposit", 20, 50]]);
  });

  it("is safe to re-run: the same rows, no duplicates", async () => {
    const before = await fingerprint();
    await seedDatabase(database.db, { salonCount: SALONS, now: NOW });
    expect(await fingerprint()).toEqual(before);
  });

  it("is deterministic: a fresh database gets identical data", async () => {
    const first = await fingerprint();
    // Emptied to what a new database holds (no rows, identities restarted) and
    // seeded again: the same proof as a second database, without starting one.
    const { rows } = (await database.db.execute(
      sql`select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`,
    )) as unknown as { rows: { name: string }[] };
    expect(rows.length).toBeGreaterThan(10);
    await database.db.execute(
      sql.raw(`truncate table ${rows.map((row) => row.name).join(", ")} restart identity cascade`),
    );
    expect(await database.db.$count(salons)).toBe(0);
    await seedDatabase(database.db, { salonCount: SALONS });
    expect((await fingerprint()).digest).toBe(first.digest);
  });
});
