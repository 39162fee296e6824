import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  areas,
  articles,
  menus,
  prefectures,
  salons,
  staff,
  stations,
} from "../../server/db/schema";
import { isSeeded, seedDatabase } from "../../server/db/seed/seed";
import { createTestDatabase, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const SALONS = 12;

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
    await seedDatabase(database.db, { salonCount: SALONS });
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

  it("is safe to re-run: the same rows, no duplicates", async () => {
    const before = await fingerprint();
    await seedDatabase(database.db, { salonCount: SALONS });
    expect(await fingerprint()).toEqual(before);
  });

  it("is deterministic: a fresh database gets identical data", async () => {
    const first = await fingerprint();
    const other = await createTestDatabase();
    try {
      await seedDatabase(other.db, { salonCount: SALONS });
      const [digest] = await other.db
        .select({
          value: sql<string>`md5(string_agg(${salons.slug} || ${salons.name} || ${salons.priceMin}, ',' order by ${salons.slug}))`,
        })
        .from(salons);
      expect(digest?.value).toBe(first.digest);
    } finally {
      await other.drop();
    }
  });
});
