import { describe, expect, it } from "vitest";
import { menus, reviews, salons } from "../../server/db/schema";
import { buildMenu, buildSalon } from "../support/builders";
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
    const insert = database.db.insert(reviews).values({
      salonId: salon.id,
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
