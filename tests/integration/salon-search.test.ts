import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../common/search.schema";
import { prefectures, salonPhotos, salons } from "../../server/db/schema";
import { PRIOR_MEAN, PRIOR_WEIGHT, searchSalons } from "../../server/salons/search";
import { loadSearchPage, withoutUnknownFilters } from "../../server/salons/search-page";
import { normalizeForSearch } from "../../server/search/normalize";
import { buildArea, buildFeature, buildSalon, buildStation } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
const everyDay = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({
  weekday,
  opens: "10:00",
  closes: "20:00",
}));
const ids = { shibuya: "", umeda: "", station: "", feature: "", feature2: "" };

beforeAll(async () => {
  const { db } = database;
  await db
    .insert(prefectures)
    .values({ code: 27, slug: "osaka", name: "大阪府", kana: "おおさかふ", region: "近畿" });
  const shibuya = await buildArea(db, { slug: "shibuya", name: "渋谷", kana: "しぶや" });
  const omotesando = await buildArea(db, {
    slug: "omotesando",
    name: "表参道",
    kana: "おもてさんどう",
    parentId: shibuya.id,
  });
  const umeda = await buildArea(db, {
    slug: "umeda",
    prefectureCode: 27,
    name: "梅田",
    kana: "うめだ",
  });
  const station = await buildStation(db, shibuya.id, { slug: "shibuya-st" });
  const alpha = await buildSalon(db, {
    slug: "alpha",
    name: "Hair ALPHA",
    nameKana: "ヘアアルファ",
    genre: "hair",
    areaId: shibuya.id,
    stationId: station.id,
    ratingAverage: 4.8,
    reviewCount: 200,
    priceMin: 4000,
    priceMax: 12000,
    latitude: 35.658,
    longitude: 139.7016,
    regularHolidays: [2],
    openingHours: everyDay.filter((day) => day.weekday !== 2),
    searchText: normalizeForSearch("Hair ALPHA ヘアアルファ 渋谷 しぶや ヘアサロン カット"),
  });
  const beta = await buildSalon(db, {
    slug: "beta",
    name: "Nail BETA",
    nameKana: "ネイルベータ",
    genre: "nail",
    areaId: omotesando.id,
    ratingAverage: 4.9,
    reviewCount: 2,
    priceMin: 6000,
    priceMax: 9000,
    latitude: 35.665,
    longitude: 139.712,
    openingHours: everyDay,
    searchText: normalizeForSearch("Nail BETA ネイルベータ 表参道 ネイルサロン ジェルネイル"),
  });
  const gamma = await buildSalon(db, {
    slug: "gamma",
    name: "Salon GAMMA 100%",
    nameKana: "サロンガンマ",
    genre: "hair",
    areaId: umeda.id,
    prefectureCode: 27,
    ratingAverage: 3.9,
    reviewCount: 50,
    priceMin: 3000,
    priceMax: 8000,
    latitude: 34.7025,
    longitude: 135.4959,
    openingHours: everyDay,
    searchText: normalizeForSearch(
      "Salon GAMMA 100% サロンガンマ 梅田 うめだ ヘアサロン カット カラー",
    ),
  });
  await buildSalon(db, {
    slug: "draft",
    name: "Hair DRAFT",
    areaId: shibuya.id,
    status: "draft",
    ratingAverage: 5,
    reviewCount: 500,
    openingHours: everyDay,
    searchText: normalizeForSearch("Hair DRAFT 渋谷 カット"),
  });
  ids.shibuya = shibuya.id;
  ids.umeda = umeda.id;
  ids.station = station.id;
  ids.feature = (await buildFeature(db, [alpha.id, beta.id], { slug: "private-room" })).slug;
  ids.feature2 = (await buildFeature(db, [alpha.id, gamma.id], { slug: "card-ok" })).slug;
});

/** Long before the dates below, so the date filter falls back to opening hours (decision 0014). */
const NOW = new Date("2026-06-01T09:00:00+09:00");

async function search(query: string) {
  return searchSalons(database.db, parseSearchQuery(new URLSearchParams(query)), undefined, NOW);
}
const slugs = async (query: string) => (await search(query)).salons.map((salon) => salon.slug);

describe("searchSalons filters", () => {
  it("lists every published salon, never drafts, with the total", async () => {
    const result = await search("");
    expect(result.total).toBe(3);
    expect(result.salons.map((salon) => salon.slug).sort()).toEqual(["alpha", "beta", "gamma"]);
  });

  it("matches a keyword against name, kana, area, station and menu names", async () => {
    expect(await slugs("q=alpha")).toEqual(["alpha"]);
    expect(await slugs("q=ネイルベータ")).toEqual(["beta"]);
    expect(await slugs("q=梅田")).toEqual(["gamma"]);
    expect(await slugs("q=ジェルネイル")).toEqual(["beta"]);
    expect(await slugs("q=カラー")).toEqual(["gamma"]);
  });

  it("normalizes the keyword: full-width, half-width, katakana and hiragana meet", async () => {
    expect(await slugs("q=ＡＬＰＨＡ")).toEqual(["alpha"]);
    expect(await slugs("q=ｱﾙﾌｧ")).toEqual(["alpha"]);
    expect(await slugs("q=あるふぁ")).toEqual(["alpha"]);
    // シブヤ is the area 渋谷, which includes its sub-area 表参道 (beta).
    expect((await slugs("q=シブヤ")).sort()).toEqual(["alpha", "beta"]);
  });

  it("requires every word of the keyword", async () => {
    expect((await slugs("q=カット ヘアサロン")).sort()).toEqual(["alpha", "gamma"]);
    expect(await slugs("q=カット 梅田")).toEqual(["gamma"]);
    expect(await slugs("q=カット　ジェルネイル")).toEqual([]);
  });

  it("treats LIKE wildcards in the keyword literally", async () => {
    expect(await slugs("q=100%")).toEqual(["gamma"]);
    expect(await slugs("q=%")).toEqual(["gamma"]);
    expect(await slugs("q=_")).toEqual([]);
  });

  it("filters by prefecture, by area including its sub-areas, and by station", async () => {
    expect(await slugs("pref=osaka")).toEqual(["gamma"]);
    expect((await slugs("area=shibuya")).sort()).toEqual(["alpha", "beta"]);
    expect(await slugs("area=omotesando")).toEqual(["beta"]);
    expect(await slugs("station=shibuya-st")).toEqual(["alpha"]);
    expect(await slugs("area=nowhere")).toEqual([]);
  });

  it("filters by genre", async () => {
    expect(await slugs("genre=nail")).toEqual(["beta"]);
  });

  it("filters by features, requiring all of them", async () => {
    expect((await slugs("feature=private-room")).sort()).toEqual(["alpha", "beta"]);
    expect(await slugs("feature=private-room&feature=card-ok")).toEqual(["alpha"]);
  });

  it("filters by the starting price range", async () => {
    expect((await slugs("priceMin=4000")).sort()).toEqual(["alpha", "beta"]);
    expect((await slugs("priceMax=4000")).sort()).toEqual(["alpha", "gamma"]);
    expect(await slugs("priceMin=3500&priceMax=5000")).toEqual(["alpha"]);
  });

  it("beyond the free-time summary, filters by a date the salon is open (2026-11-24 is a Tuesday)", async () => {
    expect((await slugs("date=2026-11-24")).sort()).toEqual(["beta", "gamma"]);
    expect((await slugs("date=2026-11-25")).sort()).toEqual(["alpha", "beta", "gamma"]);
  });

  it("filters by minimum rating", async () => {
    expect((await slugs("rating=4.5")).sort()).toEqual(["alpha", "beta"]);
    expect(await slugs("rating=4.85")).toEqual(["beta"]);
  });

  it("combines a keyword with filters", async () => {
    expect(await slugs("q=カット&area=shibuya&feature=card-ok")).toEqual(["alpha"]);
  });
});

describe("searchSalons sorting", () => {
  it("recommended: Bayesian average, so 4.9 from 2 reviews ranks below 3.9 from 50", async () => {
    expect(await slugs("")).toEqual(["alpha", "gamma", "beta"]);
    expect(await slugs("sort=recommended")).toEqual(["alpha", "gamma", "beta"]);
  });

  it("the stored recommended score is decision 0006's formula with search.ts's constants", async () => {
    const rows = await database.db
      .select({
        rating: salons.ratingAverage,
        reviews: salons.reviewCount,
        score: salons.recommendedScore,
      })
      .from(salons);
    expect(rows.length).toBeGreaterThan(2);
    for (const { rating, reviews, score } of rows) {
      const expected = (rating * reviews + PRIOR_MEAN * PRIOR_WEIGHT) / (reviews + PRIOR_WEIGHT);
      // rating_average is a 4-byte real, so the stored score differs in the 7th digit.
      expect(score).toBeCloseTo(expected, 5);
    }
  });

  it("rating: plain average, highest first", async () => {
    expect(await slugs("sort=rating")).toEqual(["beta", "alpha", "gamma"]);
  });

  it("price low to high and high to low", async () => {
    expect(await slugs("sort=price-asc")).toEqual(["gamma", "alpha", "beta"]);
    expect(await slugs("sort=price-desc")).toEqual(["beta", "alpha", "gamma"]);
  });

  it("distance from the visitor's position, nearest first", async () => {
    expect(await slugs("sort=distance&lat=34.70&lng=135.50")).toEqual(["gamma", "alpha", "beta"]);
    expect(await slugs("sort=distance&lat=35.666&lng=139.713")).toEqual(["beta", "alpha", "gamma"]);
  });

  it("distance without a position falls back to recommended", async () => {
    expect(await slugs("sort=distance")).toEqual(["alpha", "gamma", "beta"]);
  });
});

describe("searchSalons pagination", () => {
  it("pages through 23 salons 20 at a time with a stable order and total", async () => {
    const { db } = database;
    for (let index = 0; index < 23; index++) {
      await buildSalon(db, {
        slug: `spa-${String(index).padStart(2, "0")}`,
        genre: "headspa",
        areaId: ids.umeda,
        prefectureCode: 27,
        ratingAverage: 4,
        reviewCount: 10,
        searchText: "spa",
      });
    }
    const first = await search("genre=headspa");
    const second = await search("genre=headspa&page=2");
    const beyond = await search("genre=headspa&page=3");
    expect(first).toMatchObject({ total: 23, page: 1, pageSize: 20 });
    expect(first.salons).toHaveLength(20);
    expect(second.salons.map((salon) => salon.slug)).toEqual(["spa-20", "spa-21", "spa-22"]);
    expect(second.total).toBe(23);
    expect(beyond).toMatchObject({ total: 23, salons: [] });
  });
});

describe("loadSearchPage", () => {
  it("offers areas with salons, stations of the chosen area and every feature", async () => {
    const { options } = await loadSearchPage(
      database.db,
      parseSearchQuery(new URLSearchParams("area=shibuya")),
      NOW,
    );
    expect(options.prefectures.map((p) => p.slug)).toEqual(["tokyo", "osaka"]);
    expect(options.areas.map((a) => a.slug)).toContain("omotesando");
    expect(options.stations.map((s) => s.slug)).toEqual(["shibuya-st"]);
    expect(options.features.map((f) => f.slug).sort()).toEqual(["card-ok", "private-room"]);
  });

  it("puts the first card's photo inside the page when it is a small site SVG (issue 42)", async () => {
    const query = parseSearchQuery(new URLSearchParams(""));
    const before = await loadSearchPage(database.db, query, NOW);
    const slugs = before.result.salons.slice(0, 2).map((salon) => salon.slug);
    expect(slugs).toHaveLength(2);
    for (const slug of slugs) {
      const [row] = await database.db
        .select({ id: salons.id })
        .from(salons)
        .where(eq(salons.slug, slug));
      await database.db.insert(salonPhotos).values({
        salonId: row?.id ?? "",
        url: "/images/salons/nail-1.svg",
        alt: "店内",
        width: 800,
        height: 600,
      });
    }
    const { result } = await loadSearchPage(database.db, query, NOW);
    expect(result.salons.slice(0, 2).map((salon) => salon.slug)).toEqual(slugs);
    expect(result.salons[0]?.photoInline).toMatch(/^data:image\/svg\+xml,/);
    expect(result.salons[1]?.photoUrl).toBe("/images/salons/nail-1.svg");
    expect(result.salons[1]?.photoInline).toBeUndefined();
  });
});

describe("withoutUnknownFilters", () => {
  const clean = async (query: string) =>
    (await withoutUnknownFilters(database.db, new URLSearchParams(query)))?.toString() ?? null;

  it("leaves a search whose places and features all exist", async () => {
    expect(
      await clean("q=カット&pref=osaka&area=umeda&station=shibuya-st&feature=private-room"),
    ).toBe(null);
    expect(await clean("q=カット&page=2")).toBe(null);
  });

  it("drops the values that name nothing, keeping the rest as they were", async () => {
    expect(await clean("q=カット&area=foo&feature=private-room&feature=late")).toBe(
      new URLSearchParams("q=カット&feature=private-room").toString(),
    );
    expect(await clean("pref=atlantis&station=nowhere&sort=rating")).toBe("sort=rating");
  });
});
