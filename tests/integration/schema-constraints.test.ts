import { describe, expect, it } from "vitest";
import { bookings, menus, reviews, salons } from "../../server/db/schema";
import { buildMenu, buildSalon, buildStaff, buildUser } from "../support/builders";
import { sqlState, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

const CHECK_VIOLATION = "23514";
const EXCLUSION_VIOLATION = "23P01";
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

describe("double booking", () => {
  async function scenario() {
    const salon = await buildSalon(database.db);
    const stylist = await buildStaff(database.db, salon.id);
    const user = await buildUser(database.db);
    const book = (
      startsAt: string,
      endsAt: string,
      status: (typeof bookings.$inferInsert)["status"] = "confirmed",
    ) =>
      database.db
        .insert(bookings)
        .values({
          userId: user.id,
          salonId: salon.id,
          staffId: stylist.id,
          startsAt: new Date(startsAt),
          endsAt: new Date(endsAt),
          totalPrice: 5500,
          status,
        })
        .returning();
    return { salon, stylist, book };
  }

  it("rejects an overlapping booking of the same stylist", async () => {
    const { book } = await scenario();
    await book("2026-12-01T01:00:00Z", "2026-12-01T02:00:00Z");
    expect(await failureCode(book("2026-12-01T01:30:00Z", "2026-12-01T02:30:00Z"))).toBe(
      EXCLUSION_VIOLATION,
    );
  });

  it("accepts back-to-back bookings", async () => {
    const { book } = await scenario();
    await book("2026-12-01T01:00:00Z", "2026-12-01T02:00:00Z");
    const [next] = await book("2026-12-01T02:00:00Z", "2026-12-01T03:00:00Z");
    expect(next?.status).toBe("confirmed");
  });

  it("lets a cancelled booking free its time", async () => {
    const { book } = await scenario();
    await book("2026-12-01T01:00:00Z", "2026-12-01T02:00:00Z", "cancelled_by_user");
    const [again] = await book("2026-12-01T01:00:00Z", "2026-12-01T02:00:00Z");
    expect(again?.status).toBe("confirmed");
  });

  it("allows the same time with another stylist", async () => {
    const { salon, book } = await scenario();
    await book("2026-12-01T01:00:00Z", "2026-12-01T02:00:00Z");
    const other = await buildStaff(database.db, salon.id);
    const user = await buildUser(database.db);
    const [row] = await database.db
      .insert(bookings)
      .values({
        userId: user.id,
        salonId: salon.id,
        staffId: other.id,
        startsAt: new Date("2026-12-01T01:00:00Z"),
        endsAt: new Date("2026-12-01T02:00:00Z"),
        totalPrice: 5500,
      })
      .returning();
    expect(row?.staffId).toBe(other.id);
  });

  it("rejects a booking that ends before it starts", async () => {
    const { book } = await scenario();
    expect(await failureCode(book("2026-12-01T02:00:00Z", "2026-12-01T01:00:00Z"))).toBe(
      CHECK_VIOLATION,
    );
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
