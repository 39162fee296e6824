import { beforeAll, describe, expect, it } from "vitest";
import * as searchRoute from "../../app/routes/salons.search";
import * as countRoute from "../../app/routes/salons.search.count";
import { parseSearchQuery, type SearchQuery } from "../../common/search.schema";
import { literalSearchHref, searchQueryToParams } from "../../common/search-query";
import { brandWords } from "../../server/db/seed/data/names";
import { seedDatabase } from "../../server/db/seed/seed";
import { countSalons, type SearchResult, searchSalons } from "../../server/salons/search";
import type { SearchCorrection, Spelling } from "../../server/salons/search-correction";
import { loadSearchPage } from "../../server/salons/search-page";
import { browser } from "../support/accounts";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * Typos against the demo data (decision 0060), on PGlite and PostgreSQL: a
 * misspelt place or menu word in a search that finds nothing gets the
 * respelled search shown at once; asked for the words as typed (literal=1),
 * the empty result offers 「もしかして」 with the respelled search's count,
 * and that link finds what that search finds. Seeded once for the file.
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
beforeAll(async () => {
  await seedDatabase(database.db, { salonCount: 40 });
  env = createRouteApp(database, [
    { path: "/salons/search", module: searchRoute },
    { path: "/salons/search/count", module: countRoute },
  ]);
}, 120_000);

const NOW = new Date("2026-12-01T09:00:00+09:00");
const queryOf = (params: string) => parseSearchQuery(new URLSearchParams(params));
const q = (keyword: string) => `q=${encodeURIComponent(keyword)}`;
const LITERAL: Spelling = { literal: true };
const page = (params: string, spelling?: Spelling) =>
  loadSearchPage(database.db, queryOf(params), NOW, spelling);
const slugs = async (params: string) =>
  (await searchSalons(database.db, queryOf(params), 200, NOW)).salons.map((salon) => salon.slug);

/**
 * The typed search finds nothing and is respelled at once to `respelled`;
 * asked as typed, its correction is `suggested`, counted as the respelled search.
 */
async function expectCorrection(typed: string, suggested: string, respelled: string) {
  const shown = await page(q(typed));
  expect(shown.result.total, typed).toBe(0);
  expect(shown.respell, typed).toMatchObject({ suggested, query: { q: respelled, page: 1 } });
  expect(shown.suggestions).toEqual([]);
  const { result, correction, respell } = await page(q(typed), LITERAL);
  expect(respell, typed).toBeNull();
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
    const { correction } = await page(`${q("表参堂")}&genre=nail&sort=rating`, LITERAL);
    expect(correction?.query).toMatchObject({ q: "表参道", genre: "nail", sort: "rating" });
    expect(correction?.total).toBe(
      await countSalons(database.db, queryOf(`${q("表参道")}&genre=nail`), NOW),
    );
  });
});

describe("no correction", () => {
  it("for searches spelt right, whether they find salons or not", async () => {
    for (const keyword of ["表参道 カット", "新宿", "しんじゅく ネイル", "パーマ"]) {
      const { result, correction, respell } = await page(q(keyword));
      expect(result.total, keyword).toBeGreaterThan(0);
      expect(correction, keyword).toBeNull();
      expect(respell, keyword).toBeNull();
    }
    // Every word understood, no salon has all of it: the other suggestions, no respelling.
    const nothing = await page(q("中目黒駅 ヘッドスパ 英語"));
    expect(nothing.result.total).toBe(0);
    expect(nothing.correction).toBeNull();
    expect(nothing.respell).toBeNull();
    expect(nothing.suggestions.length).toBeGreaterThan(0);
  });

  it("for a word near nothing known, or whose respelling finds nothing either", async () => {
    for (const keyword of ["ブライダル着付け", "中目里 ヘッドスパ 英語"]) {
      for (const spelling of [undefined, LITERAL]) {
        const { correction, respell } = await page(q(keyword), spelling);
        expect(correction, keyword).toBeNull();
        expect(respell, keyword).toBeNull();
      }
    }
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
    const { result, correction, respell } = await page(q(misspelt));
    expect(respell, misspelt).toBeNull();
    expect(result.total, misspelt).toBeGreaterThan(0);
    expect(
      result.salons.some((salon) => salon.name.includes(brand.latin)),
      misspelt,
    ).toBe(true);
    expect(correction, misspelt).toBeNull();
  });
});

describe("the search page shows the respelled search, at its own URL", () => {
  type Page = {
    loaderData: {
      query: SearchQuery;
      result: SearchResult;
      correction: SearchCorrection | null;
      spelling: Spelling;
    };
  };
  const open = async (path: string) => {
    const response = await browser(env.app).request(path);
    const page = response.status === 200 ? ((await response.json()) as Page) : undefined;
    return { status: response.status, location: response.headers.get("location"), page };
  };
  const typed = "表参堂 カット";
  const respelled = `/salons/search?${new URLSearchParams({ q: "表参道 カット", typed })}`;
  /** The page's canonical URL and robots tag, from the route's meta. */
  const head = (page: Page | undefined) => {
    const tags = searchRoute.meta({ loaderData: page?.loaderData, matches: [] } as never) as {
      rel?: string;
      href?: string;
      name?: string;
      content?: string;
    }[];
    return {
      canonical: tags.find((tag) => tag.rel === "canonical")?.href,
      robots: tags.find((tag) => tag.name === "robots")?.content,
    };
  };

  it("表参堂 カット: redirected to 表参道 カット with typed=表参堂 カット, counted, canonical without typed", async () => {
    const first = await open(`/salons/search?${q(typed)}`);
    expect(first.status).toBe(302);
    expect(first.location).toBe(respelled);
    const { status, page } = await open(respelled);
    expect(status).toBe(200);
    expect(page?.loaderData.query.q).toBe("表参道 カット");
    expect(page?.loaderData.spelling.typed).toBe(typed);
    const total = await countSalons(database.db, queryOf(q("表参道 カット")), NOW);
    expect(total).toBeGreaterThan(0);
    expect(page?.loaderData.result.total).toBe(total);
    expect(head(page)).toEqual({
      canonical: `http://localhost:3000/salons/search?${new URLSearchParams({ q: "表参道 カット" })}`,
      robots: undefined,
    });
    // The phone dialog's count is the page's, for the typed words as for the respelled ones.
    const count = await browser(env.app).request(`/salons/search/count?${q(typed)}`);
    expect(await count.json()).toEqual({ total });
  });

  it("keeps the other conditions and starts on page 1", async () => {
    const { status, location } = await open(`/salons/search?${q("表参堂")}&genre=nail&sort=rating`);
    expect(status).toBe(302);
    expect(location).toBe(
      `/salons/search?${new URLSearchParams({ q: "表参道", genre: "nail", sort: "rating", typed: "表参堂" })}`,
    );
  });

  it("「表参堂 カット」で検索する (literal=1): the empty result with the suggestion, which leads to the results, never back", async () => {
    const literal = literalSearchHref(queryOf(q("表参道 カット")), typed);
    expect(literal).toBe(`/salons/search?${new URLSearchParams({ q: typed, literal: "1" })}`);
    const { status, page } = await open(literal);
    expect(status).toBe(200);
    expect(page?.loaderData.result.total).toBe(0);
    expect(page?.loaderData.correction?.query.q).toBe("表参道 カット");
    expect(head(page)).toEqual({
      canonical: `http://localhost:3000${literal}`,
      robots: "noindex",
    });
    const count = await browser(env.app).request(`/salons/search/count?${q(typed)}&literal=1`);
    expect(await count.json()).toEqual({ total: 0 });
    // Its 「表参道」で検索しますか？ is the plain respelled search: results, no redirect, no notice.
    const suggestion = `/salons/search?${searchQueryToParams(page?.loaderData.correction?.query ?? {})}`;
    const followed = await open(suggestion);
    expect(followed.status).toBe(200);
    expect(followed.page?.loaderData.result.total).toBe(page?.loaderData.correction?.total);
    expect(followed.page?.loaderData.spelling).toEqual({ literal: false });
  });

  it("drops a typed= the keyword is not the respelling of, and typed= beside literal=1", async () => {
    const forged = await open(
      `/salons/search?${new URLSearchParams({ q: "表参道", typed: "なんでも" })}`,
    );
    expect(forged.status).toBe(302);
    expect(forged.location).toBe(`/salons/search?${q("表参道")}`);
    const both = await open(
      `/salons/search?${new URLSearchParams({ q: typed, typed, literal: "1" })}`,
    );
    expect(both.location).toBe(`/salons/search?${new URLSearchParams({ q: typed, literal: "1" })}`);
    const bare = await open("/salons/search?literal=1&genre=nail");
    expect(bare.location).toBe("/salons/search?genre=nail");
  });
});
