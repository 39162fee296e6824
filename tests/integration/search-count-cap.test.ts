import { beforeAll, describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../common/search.schema";
import { countSalons, searchSalons } from "../../server/salons/search";
import { suggestSearches } from "../../server/salons/search-suggestions";
import { normalizeForSearch } from "../../server/search/normalize";
import { buildArea, buildSalon } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * The search page's bounded count (docs/decisions/0021-search-at-national-scale.md):
 * past the cap the total is a lower bound, flagged as such, and the page
 * itself is the one an exact count would show.
 */
const database = withTestDatabase();
const PAGE = 2;

beforeAll(async () => {
  const { db } = database;
  const area = await buildArea(db, { slug: "cap-area" });
  // 9 salons with the word カット (one also in its name), 3 without.
  for (let index = 0; index < 12; index++) {
    const cut = index < 9;
    const name = index === 8 ? "カット専門店" : `Salon ${index}`;
    await buildSalon(db, {
      slug: `cap-${String(index).padStart(2, "0")}`,
      name,
      nameKana: "さろん",
      areaId: area.id,
      ratingAverage: 3 + index / 10,
      reviewCount: 10 + index,
      searchText: normalizeForSearch(`${name} さろん ${cut ? "カット" : "ネイル"}`),
    });
  }
});

const search = (params: string, countCap?: number) =>
  searchSalons(
    database.db,
    parseSearchQuery(new URLSearchParams(params)),
    PAGE,
    new Date(),
    countCap === undefined ? {} : { countCap },
  );

describe("the bounded count", () => {
  it("is exact up to the cap", async () => {
    const exact = await search("area=cap-area");
    const capped = await search("area=cap-area", 20);
    expect(exact.total).toBe(12);
    expect(capped.total).toBe(12);
    expect(capped.totalIsLowerBound).toBe(false);
    expect(capped.salons.map((s) => s.slug)).toEqual(exact.salons.map((s) => s.slug));
  });

  it("past the cap says at least the cap, with the same page as an exact count", async () => {
    for (const sort of ["", "&sort=rating", "&sort=price-asc"]) {
      const exact = await search(`area=cap-area${sort}`);
      const capped = await search(`area=cap-area${sort}`, 5);
      expect(exact.totalIsLowerBound).toBe(false);
      expect(capped.totalIsLowerBound, sort).toBe(true);
      expect(capped.total, sort).toBe(5);
      expect(
        capped.salons.map((s) => s.slug),
        sort,
      ).toEqual(exact.salons.map((s) => s.slug));
    }
  });

  it("leaves room for the next page past the cap (a deep page counts further)", async () => {
    const capped = await search("area=cap-area&page=3", 4);
    const exact = await search("area=cap-area&page=3");
    expect(capped.salons.map((s) => s.slug)).toEqual(exact.salons.map((s) => s.slug));
    // Page 3 of 2 shows salons 5–6; the bound reads through page 4.
    expect(capped.total).toBe(8);
    expect(capped.totalIsLowerBound).toBe(true);
  });

  it("keeps the keyword's relevance order; a result small enough to rank is counted exactly", async () => {
    const focused = await search("q=カット", 20);
    expect(focused.total).toBe(9);
    expect(focused.totalIsLowerBound).toBe(false);
    // The word in the salon's name first.
    expect(focused.salons[0]?.name).toBe("カット専門店");
    // The ranking reads up to RELEVANCE_MAX_RESULTS + 1 matches, so below that the count is exact.
    const small = await search("q=カット", 3);
    expect(small.total).toBe(9);
    expect(small.totalIsLowerBound).toBe(false);
  });

  it("counts for the suggestions stop past their cap", async () => {
    const query = parseSearchQuery(new URLSearchParams("q=カット"));
    expect(await countSalons(database.db, query)).toBe(9);
    expect(await countSalons(database.db, query, new Date(), 4)).toBe(5);
    expect(await countSalons(database.db, query, new Date(), 20)).toBe(9);
  });

  it("a suggestion past its own cap says at least that many", async () => {
    // Nothing has カット and a 4.5 rating; without the rating, 9 salons do.
    const query = parseSearchQuery(new URLSearchParams("q=カット&rating=4.5"));
    expect(await countSalons(database.db, query)).toBe(0);
    const withoutRating = (suggestions: Awaited<ReturnType<typeof suggestSearches>>) =>
      suggestions.find((suggestion) => suggestion.label === "評価の指定を外す");
    expect(withoutRating(await suggestSearches(database.db, query))).toMatchObject({
      total: 9,
    });
    expect(withoutRating(await suggestSearches(database.db, query))?.totalIsLowerBound).toBeFalsy();
    expect(withoutRating(await suggestSearches(database.db, query, new Map(), 4))).toMatchObject({
      total: 4,
      totalIsLowerBound: true,
    });
  });
});
