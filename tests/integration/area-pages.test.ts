import { beforeAll, describe, expect, it } from "vitest";
import { getAreaPage, listAreaIndex } from "../../server/areas/area-pages";
import { buildArea, buildFeature, buildSalon, buildStation } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

beforeAll(async () => {
  const { db } = database;
  const parent = await buildArea(db, { slug: "shibuya", name: "渋谷", sortOrder: 1 });
  const child = await buildArea(db, {
    slug: "omotesando",
    name: "表参道",
    parentId: parent.id,
    sortOrder: 2,
  });
  await buildArea(db, { slug: "empty-area", name: "空き", sortOrder: 3 });
  const station = await buildStation(db, parent.id, { slug: "shibuya-st", name: "渋谷" });
  const a = await buildSalon(db, { slug: "a", areaId: parent.id, stationId: station.id });
  const b = await buildSalon(db, { slug: "b", areaId: parent.id, stationId: station.id });
  const c = await buildSalon(db, { slug: "c", areaId: child.id });
  await buildSalon(db, { slug: "d", areaId: parent.id, status: "draft" });
  await buildFeature(db, [a.id, b.id, c.id], { slug: "card-ok", name: "カード" });
  await buildFeature(db, [a.id], { slug: "private-room", name: "個室" });
});

describe("area pages", () => {
  it("lists areas by region and prefecture with published salon counts", async () => {
    const regions = await listAreaIndex(database.db);
    expect(regions).toEqual([
      {
        region: "関東",
        prefectures: [
          {
            slug: "tokyo",
            name: "東京都",
            areas: [
              { slug: "shibuya", name: "渋谷", salonCount: 2 },
              { slug: "omotesando", name: "表参道", salonCount: 1 },
              { slug: "empty-area", name: "空き", salonCount: 0 },
            ],
          },
        ],
      },
    ]);
  });

  it("shows an area with its sub-areas, stations, popular features and salons", async () => {
    const page = await getAreaPage(database.db, "shibuya", 1);
    expect(page?.subAreas).toEqual([{ slug: "omotesando", name: "表参道", salonCount: 1 }]);
    expect(page?.stations).toEqual([{ slug: "shibuya-st", name: "渋谷", salonCount: 2 }]);
    expect(page?.popularFeatures).toEqual([
      { slug: "card-ok", name: "カード", salonCount: 3 },
      { slug: "private-room", name: "個室", salonCount: 1 },
    ]);
    expect(page?.result.total).toBe(3);
    expect(page?.parent).toBeNull();
  });

  it("a sub-area names its parent", async () => {
    const page = await getAreaPage(database.db, "omotesando", 1);
    expect(page?.parent).toEqual({ slug: "shibuya", name: "渋谷" });
    expect(page?.result.salons.map((salon) => salon.slug)).toEqual(["c"]);
  });

  it("returns null for unknown and malformed area ids", async () => {
    expect(await getAreaPage(database.db, "nowhere", 1)).toBeNull();
    expect(await getAreaPage(database.db, "../etc", 1)).toBeNull();
  });
});
