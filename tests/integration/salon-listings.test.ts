import { beforeAll, describe, expect, it } from "vitest";
import { menuStaff } from "../../server/db/schema";
import { getFeaturePage, getRecommendedSalons, getStaffPage } from "../../server/salons/listings";
import { buildArea, buildFeature, buildMenu, buildSalon, buildStaff } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

beforeAll(async () => {
  const { db } = database;
  const area = await buildArea(db, { slug: "ginza", name: "銀座" });
  const top = await buildSalon(db, {
    slug: "top",
    areaId: area.id,
    ratingAverage: 4.6,
    reviewCount: 300,
  });
  const few = await buildSalon(db, {
    slug: "few",
    areaId: area.id,
    genre: "nail",
    ratingAverage: 5,
    reviewCount: 1,
  });
  await buildSalon(db, { slug: "mid", areaId: area.id, ratingAverage: 4.2, reviewCount: 80 });
  const draft = await buildSalon(db, { slug: "hidden", areaId: area.id, status: "draft" });
  const senior = await buildStaff(db, top.id, { slug: "senior", name: "高橋 さくら" });
  const junior = await buildStaff(db, top.id, { slug: "junior" });
  await buildStaff(db, top.id, { slug: "retired", active: false });
  await buildStaff(db, draft.id, { slug: "draft-staff" });
  await buildMenu(db, top.id, { name: "カット", sortOrder: 1 });
  const director = await buildMenu(db, top.id, { name: "ディレクターカット", sortOrder: 2 });
  await buildMenu(db, few.id, { name: "他店メニュー" });
  await db.insert(menuStaff).values({ menuId: director.id, staffId: senior.id });
  expect(junior.slug).toBe("junior");
  await buildFeature(db, [top.id, few.id, draft.id], { slug: "kids", name: "キッズ歓迎" });
});

describe("staff page", () => {
  it("shows the stylist's salon and the menus they perform", async () => {
    const senior = await getStaffPage(database.db, "senior");
    expect(senior?.salon.slug).toBe("top");
    expect(senior?.menuGroups.flatMap((g) => g.menus.map((m) => m.name))).toEqual([
      "カット",
      "ディレクターカット",
    ]);
    const junior = await getStaffPage(database.db, "junior");
    expect(junior?.menuGroups.flatMap((g) => g.menus.map((m) => m.name))).toEqual(["カット"]);
  });

  it("is null for unknown, inactive, malformed or unpublished-salon staff", async () => {
    for (const slug of ["nobody", "retired", "Bad/Slug", "draft-staff"]) {
      expect(await getStaffPage(database.db, slug)).toBeNull();
    }
  });
});

describe("feature page", () => {
  it("lists published salons with the feature, recommended first", async () => {
    const page = await getFeaturePage(database.db, "kids", 1);
    expect(page?.feature.name).toBe("キッズ歓迎");
    expect(page?.result.salons.map((salon) => salon.slug)).toEqual(["top", "few"]);
    expect(await getFeaturePage(database.db, "unknown", 1)).toBeNull();
  });
});

describe("recommended salons", () => {
  it("ranks by Bayesian average: many good reviews beat one perfect review", async () => {
    const page = await getRecommendedSalons(database.db, "all");
    expect(page?.salons.map((salon) => salon.slug)).toEqual(["top", "mid", "few"]);
  });

  it("scopes by genre, prefecture or area", async () => {
    expect((await getRecommendedSalons(database.db, "nail"))?.salons.map((s) => s.slug)).toEqual([
      "few",
    ]);
    expect((await getRecommendedSalons(database.db, "tokyo"))?.scope).toEqual({
      kind: "prefecture",
      slug: "tokyo",
      name: "東京都",
    });
    expect((await getRecommendedSalons(database.db, "ginza"))?.salons).toHaveLength(3);
  });

  it("is null for an unknown scope", async () => {
    expect(await getRecommendedSalons(database.db, "mars")).toBeNull();
    expect(await getRecommendedSalons(database.db, "<x>")).toBeNull();
  });
});
