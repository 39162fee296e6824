import { beforeAll, describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../common/search.schema";
import { areaId } from "../../server/db/seed/generate";
import { seedDatabase } from "../../server/db/seed/seed";
import { countSalons, searchSalons } from "../../server/salons/search";
import { loadSearchPage } from "../../server/salons/search-page";
import { normalizeForSearch } from "../../server/search/normalize";
import { buildSalon } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * The relevance suite: what visitors type, against the demo data set (the
 * first 120 salons give every area every genre), with the results expected
 * first. Runs on PGlite and on PostgreSQL. Unlike other tests it reads the
 * seed on purpose: the point is the real vocabulary, places and copy.
 */
const database = withTestDatabase();
beforeAll(async () => {
  await seedDatabase(database.db, { salonCount: 140 });
}, 120_000);

const search = (query: string) =>
  searchSalons(database.db, parseSearchQuery(new URLSearchParams(query)), 200);
const total = async (query: string) => (await search(query)).total;
const q = (keyword: string) => `q=${encodeURIComponent(keyword)}`;

describe("stations and areas, with or without 駅, in kana and romaji", () => {
  it("新宿駅, しんじゅく, シンジュク, shinjuku and Shinjuku find what 新宿 finds", async () => {
    const expected = await total(q("新宿"));
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBe(await total("area=shinjuku"));
    for (const keyword of [
      "新宿駅",
      "しんじゅく",
      "シンジュク",
      "ｼﾝｼﾞｭｸ",
      "shinjuku",
      "Shinjuku",
      "新宿 駅",
    ]) {
      expect(await total(q(keyword)), keyword).toBe(expected);
    }
  });

  it("中目黒駅 finds the salons at 中目黒 station", async () => {
    const result = await search(q("中目黒駅"));
    expect(result.total).toBeGreaterThan(0);
    expect(result.salons.every((salon) => salon.stationName === "中目黒")).toBe(true);
    expect(await total(q("nakameguro"))).toBe(result.total);
  });

  it("Shibuya and しぶや find the salons of 渋谷・原宿", async () => {
    const expected = await total("area=shibuya-harajuku");
    expect(expected).toBeGreaterThan(0);
    expect(await total(q("Shibuya"))).toBeGreaterThanOrEqual(expected);
    expect(await total(q("しぶや"))).toBe(await total(q("Shibuya")));
  });

  it("東京 ネイル and osaka are prefecture filters", async () => {
    expect(await total(q("東京 ネイル"))).toBe(await total("pref=tokyo&genre=nail"));
    expect(await total(q("東京 ネイル"))).toBeGreaterThan(0);
    expect(await total(q("osaka"))).toBe(await total("pref=osaka"));
  });

  it("自由ヶ丘 and 自由ケ丘 find what 自由が丘 finds; 難波 and 大阪難波 what なんば finds", async () => {
    const jiyugaoka = await total(q("自由が丘"));
    expect(jiyugaoka).toBeGreaterThan(0);
    expect(await total(q("自由ヶ丘"))).toBe(jiyugaoka);
    expect(await total(q("自由ケ丘 駅"))).toBe(jiyugaoka);
    const namba = await total(q("なんば ネイル"));
    expect(namba).toBeGreaterThan(0);
    expect(await total(q("難波 ネイル"))).toBe(namba);
    expect(await total(q("大阪難波 ネイル"))).toBe(namba);
  });

  it("名古屋, 札幌 and 神戸 are their cities' areas, not one station", async () => {
    const nagoya = await total(q("名古屋"));
    expect(nagoya).toBe((await total("area=meieki")) + (await total("area=sakae-yabacho")));
    expect(await total(q("nagoya"))).toBe(nagoya);
    expect(await total(q("名古屋 カット"))).toBeGreaterThan(0);
    expect(await total(q("札幌"))).toBe(await total(q("札幌駅")));
    expect(await total(q("札幌"))).toBe(await total("area=sapporo-odori"));
    expect(await total(q("神戸 ネイル"))).toBe(await total(q("三宮 ネイル")));
    expect(await total(q("神戸 ネイル"))).toBeGreaterThan(0);
  });

  it("two areas mean either (渋谷 新宿); a prefecture narrows them (東京 渋谷)", async () => {
    const shibuya = await total("area=shibuya-harajuku");
    const shinjuku = await total("area=shinjuku");
    expect(shibuya).toBeGreaterThan(0);
    expect(shinjuku).toBeGreaterThan(0);
    expect(await total(q("渋谷・原宿 新宿"))).toBe(shibuya + shinjuku);
    expect(await total(q("東京 渋谷・原宿"))).toBe(shibuya);
    expect(await total(q("大阪 渋谷・原宿"))).toBe(0);
    const nail = await total(q("梅田 ネイル"));
    expect(await total(q("梅田 難波 ネイル"))).toBe(nail + (await total(q("なんば ネイル"))));
  });

  it("forgives a typing error in a romaji name", async () => {
    expect(await total(q("shinjku"))).toBe(await total(q("shinjuku")));
  });
});

describe("the vocabulary of salons", () => {
  it.each([
    ["マツエク", "eyelash"],
    ["まつげエクステ", "eyelash"],
    ["まつ毛", "eyelash"],
    ["まつげ", "eyelash"],
    ["美容院", "hair"],
    ["美容室", "hair"],
    ["ジェルネイル", "nail"],
    ["白髪染め", "hair"],
    ["縮毛矯正", "hair"],
    ["縮毛強制", "hair"],
    ["インナーカラー", "hair"],
    ["ヘアー", "hair"],
    ["眉毛", "eyelash"],
    ["アイブロウ", "eyelash"],
    ["エステ", "esthetic"],
    ["脱毛", "esthetic"],
    ["ヘッドスパ", "headspa"],
  ])("%s finds salons, %s first", async (keyword, genre) => {
    const result = await search(q(keyword));
    expect(result.total, keyword).toBeGreaterThan(0);
    expect(result.salons[0]?.genre, keyword).toBe(genre);
  });

  it("美容院 is the hair genre", async () => {
    expect(await total(q("美容院"))).toBe(await total("genre=hair"));
  });

  it("個室, 駅近 and メンズ are the features", async () => {
    expect(await total(q("個室"))).toBe(await total("feature=private-room"));
    expect(await total(q("個室"))).toBeGreaterThan(0);
    expect(await total(q("駅近"))).toBe(await total("feature=near-station"));
    expect(await total(q("メンズ"))).toBe(await total("feature=mens-welcome"));
  });
});

describe("several words mean all of them", () => {
  it("表参道 ネイル: nail salons in 表参道", async () => {
    const result = await search(q("表参道 ネイル"));
    expect(result.total).toBeGreaterThan(0);
    expect(result.total).toBe(await total("area=omotesando-aoyama&genre=nail"));
    for (const salon of result.salons) {
      expect(salon.genre).toBe("nail");
      expect(salon.areaName).toContain("表参道");
    }
    expect(await total(q("表参道ネイル"))).toBe(result.total);
  });

  it("新宿 マツエク 個室: eyelash work in 新宿 with a private room", async () => {
    const result = await search(q("新宿 マツエク 個室"));
    expect(result.total).toBeLessThanOrEqual(await total(`${q("マツエク 個室")}&area=shinjuku`));
    expect(result.total).toBe(await total(`${q("マツエク")}&area=shinjuku&feature=private-room`));
  });
});

describe("words as people join and pad them", () => {
  it.each([
    ["新宿のカット", "新宿 カット"],
    ["新宿、カット", "新宿 カット"],
    ["新宿 安い カット", "新宿 カット"],
    ["おすすめ 表参道 ネイル", "表参道 ネイル"],
    ["カラ－", "カラー"],
    ["子連れokの美容院", "子連れ 美容院"],
  ])("%s finds what %s finds", async (typed, plain) => {
    const expected = await total(q(plain));
    expect(expected, plain).toBeGreaterThan(0);
    expect(await total(q(typed)), typed).toBe(expected);
  });

  it.each([
    ["夜", "feature=open-late"],
    ["日曜", "feature=weekend"],
    ["子供", "feature=kids-welcome"],
  ])("%s is the feature %s", async (word, filter) => {
    expect(await total(q(word))).toBe(await total(filter));
  });
});

describe("what a card says can be searched", () => {
  it("finds a salon by a word of its catch copy", async () => {
    await buildSalon(database.db, {
      areaId: areaId("shinjuku"),
      genre: "hair",
      slug: "catch-copy",
      name: "Hair CATCH",
      nameKana: "ヘアキャッチ",
      catchCopy: "ミルキーグレージュのハイトーンが得意",
    });
    const slugs = (await search(q("ミルキーグレージュ"))).salons.map((salon) => salon.slug);
    expect(slugs).toEqual(["catch-copy"]);
  });
});

describe("a search without results suggests what would work", () => {
  const page = (query: string) =>
    loadSearchPage(database.db, parseSearchQuery(new URLSearchParams(query)), new Date());

  it("中目黒駅 ヘッドスパ 英語: the same words without the place, nearby stations, fewer words", async () => {
    const { result, suggestions } = await page(q("中目黒駅 ヘッドスパ 英語"));
    expect(result.total).toBe(0);
    expect(suggestions[0]).toMatchObject({
      label: "エリアを指定せずに探す",
      query: { q: "ヘッドスパ 英語", station: undefined },
    });
    expect(suggestions.some((s) => /駅で探す$/.test(s.label) && s.query.station)).toBe(true);
    expect(suggestions.map((s) => s.label)).not.toContain("中目黒駅で探す");
    for (const suggestion of suggestions) {
      expect(suggestion.total, suggestion.label).toBeGreaterThan(0);
      expect(await countSalons(database.db, suggestion.query), suggestion.label).toBe(
        suggestion.total,
      );
    }
  });

  it("offers fewer filters: one of them, or the keyword alone", async () => {
    const { result, suggestions } = await page(`${q("表参道 ネイル")}&rating=5&priceMax=2000`);
    expect(result.total).toBe(0);
    const keywordOnly = suggestions.find((s) => s.label === "キーワードだけで探す");
    expect(keywordOnly?.query).toMatchObject({ q: "表参道 ネイル", feature: [] });
    expect(keywordOnly?.query.rating).toBeUndefined();
    expect(keywordOnly?.query.priceMax).toBeUndefined();
    for (const suggestion of suggestions) {
      expect(await countSalons(database.db, suggestion.query), suggestion.label).toBe(
        suggestion.total,
      );
    }
  });

  it("suggests on page 1 only: a later page of nothing is redirected there", async () => {
    const { suggestions } = await page(q("中目黒駅 ヘッドスパ 英語"));
    expect(suggestions.length).toBeGreaterThan(0);
    const later = await page(`${q("中目黒駅 ヘッドスパ 英語")}&page=2`);
    expect(later.result.total).toBe(0);
    expect(later.suggestions).toEqual([]);
  });

  it("suggests nothing when the search finds salons", async () => {
    const { result, suggestions } = await page(q("表参道 ネイル"));
    expect(result.total).toBeGreaterThan(0);
    expect(suggestions).toEqual([]);
  });
});

describe("the salons most about the query come first", () => {
  // A made-up word, so only these three salons have it.
  beforeAll(async () => {
    const common = { areaId: areaId("shinjuku"), genre: "hair" as const };
    await buildSalon(database.db, {
      ...common,
      slug: "in-menus",
      name: "Hair MENU",
      nameKana: "ヘアメニュー",
      ratingAverage: 4.8,
      reviewCount: 300,
      searchText: normalizeForSearch("Hair MENU ヘアメニュー 新宿 カット ルミナスグロス"),
    });
    await buildSalon(database.db, {
      ...common,
      slug: "in-name",
      name: "ルミナスグロス 新宿",
      nameKana: "ルミナスグロス シンジュク",
      ratingAverage: 3.2,
      reviewCount: 4,
      searchText: normalizeForSearch("ルミナスグロス 新宿 カット"),
    });
    await buildSalon(database.db, {
      ...common,
      slug: "near-miss",
      name: "Hair NEAR",
      nameKana: "ヘアニア",
      ratingAverage: 5,
      reviewCount: 900,
      searchText: normalizeForSearch("Hair NEAR ヘアニア 新宿 カット ルミナスグロズ"),
    });
  });

  it("a match in the name before one in the menus; near spellings only when nothing matches exactly", async () => {
    const slugs = (await search(q("ルミナスグロス"))).salons.map((salon) => salon.slug);
    expect(slugs).toEqual(["in-name", "in-menus"]);
  });

  it("a keyword with one wrong letter still finds the salons", async () => {
    const slugs = (await search(q("ルミナスグロヌ"))).salons.map((salon) => salon.slug);
    expect(slugs).toEqual(expect.arrayContaining(["in-name", "in-menus", "near-miss"]));
  });

  it("other orders the visitor chose are kept", async () => {
    const slugs = (await search(`${q("ルミナスグロス")}&sort=rating`)).salons.map(
      (salon) => salon.slug,
    );
    expect(slugs).toEqual(["in-menus", "in-name"]);
  });
});
