import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { menus, reviews, salons } from "../../server/db/schema";
import { buildMenu, buildReview, buildSalon } from "../support/builders";
import { sqlState, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const CHECK_VIOLATION = "23514";
const FOREIGN_KEY_VIOLATION = "23503";

async function failureCode(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    return sqlState(error);
  }
  return "no error";
}

describe("check constraints", () => {
  it.each([
    ["latitude above 90", { latitude: 90.5 }],
    ["latitude below -90", { latitude: -91 }],
    ["longitude above 180", { longitude: 180.1 }],
    ["longitude below -180", { longitude: -181 }],
  ])("rejects a salon with %s", async (_label, overrides) => {
    expect(await failureCode(buildSalon(database.db, overrides))).toBe(CHECK_VIOLATION);
  });

  it("accepts the boundary coordinates", async () => {
    const salon = await buildSalon(database.db, { latitude: -90, longitude: 180 });
    expect(salon.latitude).toBe(-90);
  });

  it("rejects a negative menu price and a zero duration", async () => {
    const salon = await buildSalon(database.db);
    expect(await failureCode(buildMenu(database.db, salon.id, { price: -1 }))).toBe(
      CHECK_VIOLATION,
    );
    expect(await failureCode(buildMenu(database.db, salon.id, { durationMinutes: 0 }))).toBe(
      CHECK_VIOLATION,
    );
    const free = await buildMenu(database.db, salon.id, { price: 0 });
    expect(free.price).toBe(0);
  });

  it.each([0, 6])("rejects a review rating of %i", async (rating) => {
    const salon = await buildSalon(database.db);
    const visit = await buildReview(database.db, salon.id);
    await database.db.delete(reviews).where(eq(reviews.id, visit.id));
    const insert = database.db.insert(reviews).values({
      salonId: salon.id,
      bookingId: visit.bookingId,
      authorLabel: "30代・女性",
      rating,
      body: "とても良かったです。",
      visitedOn: "2026-10-01",
    });
    expect(await failureCode(insert)).toBe(CHECK_VIOLATION);
  });

  it("rejects an unknown genre and an invalid postal code", async () => {
    expect(await failureCode(buildSalon(database.db, { genre: "barber" as "hair" }))).toBe(
      CHECK_VIOLATION,
    );
    expect(await failureCode(buildSalon(database.db, { postalCode: "1500001" }))).toBe(
      CHECK_VIOLATION,
    );
  });

  it("rejects a menu of a salon that does not exist", async () => {
    const insert = database.db.insert(menus).values({
      salonId: "00000000-0000-4000-8000-000000000000",
      category: "カット",
      name: "カット",
      price: 1000,
      durationMinutes: 30,
    });
    expect(await failureCode(insert)).toBe(FOREIGN_KEY_VIOLATION);
  });
});

describe("salon defaults", () => {
  it("starts as a draft with no rating", async () => {
    const salon = await buildSalon(database.db, { status: undefined });
    expect(salon.status).toBe("draft");
    expect(salon.ratingAverage).toBe(0);
    expect(salon.timeZone).toBe("Asia/Tokyo");
    expect(typeof salons.id.name).toBe("string");
  });
});

describe("foreign keys", () => {
  // Reference data that is never deleted while salons point at it.
  const REFERENCE_DATA = new Set(["areas", "prefectures"]);

  it("each is served by an index on its columns, so deleting the row it points at reads no table", async () => {
    // Deleting a coupon, a stylist or an account makes PostgreSQL look up the rows that point
    // at it (to refuse, cascade or set null); without an index leading with those columns that
    // is a scan of the whole table (bookings, reviews, audit logs) on every deletion.
    const result = await database.db.execute(sql`
      select c.conrelid::regclass::text as "table", c.confrelid::regclass::text as "references",
        array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i)
          join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as "columns"
      from pg_constraint c
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace
        and not exists (
          select 1 from pg_index i
          where i.indrelid = c.conrelid
            and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
            and c.conkey @> (i.indkey::int2[])[0:cardinality(c.conkey) - 1])
      order by 1, 3`);
    const unindexed = (
      result as unknown as { rows: { table: string; references: string; columns: string[] }[] }
    ).rows.filter((row) => !REFERENCE_DATA.has(row.references));
    expect(unindexed).toEqual([]);
  });
});
