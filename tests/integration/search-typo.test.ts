import { beforeAll, describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../common/search.schema";
import { searchQueryToParams } from "../../common/search-query";
import { brandWords } from "../../server/db/seed/data/names";
import { seedDatabase } from "../../server/db/seed/seed";
import { countSalons, searchSalons } from "../../server/salons/search";
import { loadSearchPage } from "../../server/salons/search-page";
import { withTestDatabase } from "../support/test-database";

/**
 * 「もしかして」 against the demo data (decision 0060), on PGlite and
 * PostgreSQL: a misspelt place or menu word in a search that finds nothing
 * is offered the search with the word respelled, counted, and the link finds
 * what that search finds. Seeded once for the file.
 */
const database = withTestDatabase();
beforeAll(async () => {
  await seedDatabase(database.db, { salonCount: 40 });
}, 120_000);

const NOW = new Date("2026-12-01T09:00:00+09:00");
const queryOf = (params: string) => parseSearchQuery(new URLSearchParams(params));
const q = (keyword: string) => `q=${encodeURIComponent(keyword)}`;
const page = (params: string) => loadSearchPage(database.db, queryOf(params), NOW);
const slugs = async (params: string) =>
  (await searchSalons(database.db, queryOf(params), 200, NOW)).salons.map((salon) => salon.slug);

/** The typed search finds nothing; its correction is `suggested`, counted as the respelled search. */
async function expectCorrection(typed: string, suggested: string, respelled: string) {
  const { result, correction } = await page(q(typed));
  expect(result.total, typed).toBe(0);
  expect(correction, typed).toMatchObject({ suggested, query: { q: respelled, page: 1 } });
  const expected = await countSalons(database.db, queryOf(q(respelled)), NOW);
  expect(expected, respelled).toBeGreaterThan(0);
  expect(correction?.total).toBe(Math.min(expected, 100));
  expect(correction?.totalIsLowerBound).toBe(expected > 100);
  // The link is the respelled search's own URL, which finds those salons.
  const link = searchQueryToParams(correction?.query ?? {}).toString();
  expect(await slugs(link)).toEqual(await slugs(q(respelled)));
  return correction;
}

describe("a misspelt word gets the search with its known spelling", () => {
  it("表参堂 カット → 「表参道」で検索しますか？, as many salons as 表参道 カット finds", async () => {
    const correction = await expectCorrection("表参堂 カット", "表参道", "表参道 カット");
    expect(correction?.typed).toBe("表参堂");
  });

  it("a station's name: 中目里 → 中目黒, 吉祥時 ネイル → 吉祥寺 ネイル", async () => {
    await expectCorrection("中目里", "中目黒", "中目黒");
    await expectCorrection("吉祥時 ネイル", "吉祥寺", "吉祥寺 ネイル");
  });

  it("an area's kana: ぎんさ カラー → 銀座 カラー", async () => {
    await expectCorrection("ぎんさ カラー", "銀座", "銀座 カラー");
  });

  it("a menu word: 新宿 カッド → 新宿 カット, ばーま → パーマ", async () => {
    await expectCorrection("新宿 カッド", "カット", "新宿 カット");
    await expectCorrection("ばーま", "パーマ", "パーマ");
  });

  it("words typed together: 表参堂カット → 表参道カット", async () => {
    await expectCorrection("表参堂カット", "表参道カット", "表参道カット");
  });

  it("keeps the search's other conditions in the link", async () => {
    const { correction } = await page(`${q("表参堂")}&genre=nail&sort=rating`);
    expect(correction?.query).toMatchObject({ q: "表参道", genre: "nail", sort: "rating" });
    expect(correction?.total).toBe(
      await countSalons(database.db, queryOf(`${q("表参道")}&genre=nail`), NOW),
    );
  });
});

describe("no correction", () => {
  it("for searches spelt right, whether they find salons or not", async () => {
    for (const keyword of ["表参道 カット", "新宿", "しんじゅく ネイル", "パーマ"]) {
      const { result, correction } = await page(q(keyword));
      expect(result.total, keyword).toBeGreaterThan(0);
      expect(correction, keyword).toBeNull();
    }
    // Every word understood, no salon has all of it: the other suggestions, no respelling.
    const nothing = await page(q("中目黒駅 ヘッドスパ 英語"));
    expect(nothing.result.total).toBe(0);
    expect(nothing.correction).toBeNull();
  });

  it("for a word near nothing known, or whose respelling finds nothing either", async () => {
    expect((await page(q("ブライダル着付け"))).correction).toBeNull();
    // 中目里 is 中目黒, where no salon has ヘッドスパ and 英語 (the test above).
    expect((await page(q("中目里 ヘッドスパ 英語"))).correction).toBeNull();
  });

  it("for a salon's name misspelt: the typo-tolerant search finds the salon, and no place is offered", async () => {
    const salons = (await searchSalons(database.db, queryOf(""), 200, NOW)).salons;
    const brand = brandWords.find(
      (word) =>
        [...word.kana].length >= 5 && salons.some((salon) => salon.name.includes(word.latin)),
    );
    if (!brand) throw new Error("the seed has no salon with a long brand name");
    // One letter dropped from the middle: ルミエール → ルミエル.
    const chars = [...brand.kana];
    const misspelt = [...chars.slice(0, 3), ...chars.slice(4)].join("");
    const { result, correction } = await page(q(misspelt));
    expect(result.total, misspelt).toBeGreaterThan(0);
    expect(
      result.salons.some((salon) => salon.name.includes(brand.latin)),
      misspelt,
    ).toBe(true);
    expect(correction, misspelt).toBeNull();
  });
});
