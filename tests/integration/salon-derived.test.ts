import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../common/search.schema";
import { menus, salonFeatures, salons } from "../../server/db/schema";
import { recomputeSalonDerived } from "../../server/salons/derived.server";
import { searchSalons } from "../../server/salons/search";
import {
  buildArea,
  buildFeature,
  buildMenu,
  buildReview,
  buildSalon,
  buildStation,
} from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
const NOW = new Date("2026-06-01T09:00:00+09:00");

async function found(q: string) {
  const result = await searchSalons(
    database.db,
    parseSearchQuery(new URLSearchParams({ q })),
    undefined,
    NOW,
  );
  return result.salons.map((salon) => salon.slug);
}

describe("recomputeSalonDerived", () => {
  it("derives search text, price range and rating from the salon, its menus and reviews", async () => {
    const { db } = database;
    const area = await buildArea(db, { name: "吉祥寺", kana: "きちじょうじ" });
    const salon = await buildSalon(db, { slug: "derived-a", areaId: area.id, name: "Hair DERIV" });
    await buildMenu(db, salon.id, { name: "ミルボンカラー", price: 7700 });
    await buildMenu(db, salon.id, { name: "前髪カット", price: 1100 });
    await buildMenu(db, salon.id, { name: "隠しメニュー", price: 99000, published: false });
    await buildReview(db, salon.id, { rating: 5 });
    await buildReview(db, salon.id, { rating: 4 });
    await buildReview(db, salon.id, { rating: 4 });
    const [row] = await db.select().from(salons).where(eq(salons.id, salon.id));
    expect(row).toMatchObject({ priceMin: 1100, priceMax: 7700, reviewCount: 3 });
    expect(row?.ratingAverage).toBeCloseTo(4.3, 5);
    expect(row?.searchText).toContain("hair deriv");
    expect(row?.searchText).toContain("きちじょうじ");
    expect(row?.searchText).toContain("みるぼんからー");
    expect(row?.searchText).not.toContain("隠し");
  });

  it("finds an edited name, station and menu at once", async () => {
    const { db } = database;
    const area = await buildArea(db, { name: "中野", kana: "なかの" });
    const station = await buildStation(db, area.id, { name: "新中野", kana: "しんなかの" });
    const salon = await buildSalon(db, { slug: "derived-b", areaId: area.id, name: "Hair OLD" });
    const menu = await buildMenu(db, salon.id, { name: "カット" });
    expect(await found("ルミエール")).toEqual([]);

    await db.transaction(async (tx) => {
      await tx
        .update(salons)
        .set({ name: "Salon ルミエール", stationId: station.id })
        .where(eq(salons.id, salon.id));
      await tx.update(menus).set({ name: "髪質改善トリートメント" }).where(eq(menus.id, menu.id));
      await recomputeSalonDerived(tx, salon.id);
    });
    expect(await found("ルミエール")).toEqual(["derived-b"]);
    expect(await found("新中野")).toEqual(["derived-b"]);
    expect(await found("髪質改善トリートメント")).toEqual(["derived-b"]);
    expect(await found("Hair OLD")).toEqual([]);
  });

  it("keeps the search terms in step: an edited feature or menu name is found at once", async () => {
    const { db } = database;
    const area = await buildArea(db, { name: "高円寺", kana: "こうえんじ" });
    const salon = await buildSalon(db, {
      slug: "derived-terms",
      areaId: area.id,
      genre: "eyelash",
      name: "Lash TERMS",
    });
    const menu = await buildMenu(db, salon.id, { name: "まつげパーマ" });
    const privateRoom = await buildFeature(db, [], { slug: "private-room" });
    const termsOf = async () =>
      (await db.select().from(salons).where(eq(salons.id, salon.id)))[0]?.searchTerms;
    // パーマ too: the text holds it, as `like '%ぱーま%'` would have found.
    expect(await termsOf()).toEqual(["g:eyelash", "k:まつげパーマ", "k:パーマ"]);
    expect(await found("マツエク")).toEqual([]);
    expect(await found("個室")).toEqual([]);

    await db.transaction(async (tx) => {
      await tx.insert(salonFeatures).values({ salonId: salon.id, featureSlug: privateRoom.slug });
      await tx.update(menus).set({ name: "フラットラッシュ 120本" }).where(eq(menus.id, menu.id));
      await recomputeSalonDerived(tx, salon.id);
    });
    expect(await termsOf()).toEqual(["f:private-room", "g:eyelash", "k:まつげエクステ"]);
    expect(await found("マツエク")).toEqual(["derived-terms"]);
    expect(await found("個室 マツエク")).toEqual(["derived-terms"]);
    expect(await found("まつげパーマ")).toEqual([]);

    await db.transaction(async (tx) => {
      await tx.delete(salonFeatures).where(eq(salonFeatures.salonId, salon.id));
      await tx.update(salons).set({ genre: "nail" }).where(eq(salons.id, salon.id));
      await recomputeSalonDerived(tx, salon.id);
    });
    expect(await found("個室")).toEqual([]);
    expect(await found("まつげサロン")).toEqual([]);
    expect(await found("ネイル")).toEqual(["derived-terms"]);
  });

  it("resets the summary of a salon with no menus or reviews", async () => {
    const { db } = database;
    const salon = await buildSalon(db, { slug: "derived-c" });
    const menu = await buildMenu(db, salon.id, { price: 4400 });
    await db.delete(menus).where(eq(menus.id, menu.id));
    await recomputeSalonDerived(db, salon.id);
    const [row] = await db.select().from(salons).where(eq(salons.id, salon.id));
    expect(row).toMatchObject({ priceMin: 0, priceMax: 0, ratingAverage: 0, reviewCount: 0 });
  });
});
