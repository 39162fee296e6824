import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEWS_PER_PAGE } from "../../common/reviews";
import type { Database } from "../../server/db/client";
import { bookingMenus, reviews } from "../../server/db/schema";
import {
  listReviews,
  reviewFilterChoices,
  reviewSummary,
} from "../../server/reviews/review-list.server";
import { recomputeSalonDerived } from "../../server/salons/derived.server";
import { getSalonDetail } from "../../server/salons/salon-detail";
import { ORIGIN } from "../support/accounts";
import { apiClient } from "../support/api-client";
import { buildMenu, buildReview, buildSalon, buildStaff } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { withTestDatabase } from "../support/test-database";

// Issue 30, point 3: a salon's shown reviews on its page, its review list, JSON-LD and the API.
const database = withTestDatabase();
const db = () => database.db;
let full: Awaited<ReturnType<typeof createFullApp>>;
const NOW = new Date("2026-11-23T03:00:00Z");

const HOSTILE = "</script><script>alert('口コミ')</script>\n2行目 https://evil.example/phish";

type Menu = { id: string; name: string; category: string };
let salonId = "";
let manyId = "";
let sato = "";
let suzuki = "";
let tanaka = "";
let cut: Menu;
let color: Menu;
let spa: Menu;

/** A shown review on a completed visit with these menus, written at `day` 12:00 Tokyo. */
async function review(
  onSalon: string,
  values: {
    rating: number;
    staffId: string;
    menus: Menu[];
    day: number;
    title?: string;
    body?: string;
    aspects?: Partial<
      Record<"ratingAtmosphere" | "ratingService" | "ratingTechnique" | "ratingFinish", number>
    >;
    reply?: string;
  },
) {
  const written = new Date(`2026-10-${String(values.day).padStart(2, "0")}T12:00:00+09:00`);
  const row = await buildReview(db(), onSalon, {
    rating: values.rating,
    staffId: values.staffId,
    title: values.title ?? `感想${values.day}`,
    body: values.body ?? `${values.day}日の口コミです。とても良かったです。`,
    visitedOn: `2026-10-${String(values.day).padStart(2, "0")}`,
    createdAt: written,
    ...values.aspects,
    ...(values.reply
      ? { replyBody: values.reply, repliedAt: new Date(written.getTime() + 86_400_000) }
      : {}),
  });
  await db()
    .insert(bookingMenus)
    .values(
      values.menus.map((menu, position) => ({
        salonId: onSalon,
        bookingId: row.bookingId,
        position,
        menuId: menu.id,
        name: menu.name,
        price: 5000,
        durationMinutes: 30,
      })),
    );
  return row;
}

/** As the administrator's hiding does it: the flag, and the derived rating in the same step. */
async function hide(db: Database, reviewId: string, onSalon: string) {
  await db.transaction(async (tx) => {
    await tx.update(reviews).set({ hiddenAt: NOW }).where(eq(reviews.id, reviewId));
    await recomputeSalonDerived(tx, onSalon);
  });
}

let hiddenId = "";
let hostileId = "";

beforeAll(async () => {
  full = await createFullApp(database, { PUBLIC_URL: ORIGIN, RATE_LIMIT_PER_IP: "10000" });
  const salon = await buildSalon(db(), { slug: "review-salon", name: "口コミ美容室" });
  salonId = salon.id;
  sato = (await buildStaff(db(), salonId, { slug: "rv-sato", name: "佐藤 愛", sortOrder: 1 })).id;
  suzuki = (await buildStaff(db(), salonId, { slug: "rv-suzuki", name: "鈴木 舞", sortOrder: 2 }))
    .id;
  tanaka = (await buildStaff(db(), salonId, { slug: "rv-tanaka", name: "田中 翼", sortOrder: 3 }))
    .id;
  cut = await buildMenu(db(), salonId, { name: "カット", category: "カット", sortOrder: 1 });
  color = await buildMenu(db(), salonId, {
    name: "ダブルカラー",
    category: "カラー",
    sortOrder: 2,
  });
  spa = await buildMenu(db(), salonId, { name: "炭酸スパ", category: "スパ", sortOrder: 3 });
  // Shown: ratings 5, 4, 4, 2 → 15 / 4 = 3.75 → 3.8; the hidden 1 is left out everywhere.
  await review(salonId, {
    rating: 5,
    staffId: sato,
    menus: [cut],
    day: 1,
    aspects: { ratingAtmosphere: 5, ratingService: 4 },
    reply: "ご来店ありがとうございました。\nまたのお越しをお待ちしております。",
  });
  await review(salonId, {
    rating: 4,
    staffId: suzuki,
    menus: [cut, color],
    day: 2,
    aspects: { ratingAtmosphere: 4, ratingService: 4, ratingTechnique: 3 },
  });
  hostileId = (
    await review(salonId, {
      rating: 4,
      staffId: sato,
      menus: [color],
      day: 3,
      title: "<b>太字</b>",
      body: HOSTILE,
    })
  ).id;
  await review(salonId, {
    rating: 2,
    staffId: suzuki,
    menus: [cut],
    day: 4,
    reply: "ご期待に沿えず申し訳ございません。鈴木にも共有いたしました。",
  });
  // Only a hidden review stands behind 田中 and スパ: neither is a filter choice.
  const hidden = await review(salonId, {
    rating: 1,
    staffId: tanaka,
    menus: [spa],
    day: 5,
    title: "非表示の口コミ",
    body: "この口コミは管理者が非表示にしました。",
  });
  hiddenId = hidden.id;
  await hide(db(), hiddenId, salonId);

  const many = await buildSalon(db(), { slug: "many-reviews", name: "口コミ多数サロン" });
  manyId = many.id;
  const stylist = await buildStaff(db(), manyId, { slug: "rv-many" });
  const menu = await buildMenu(db(), manyId, { name: "カット", category: "カット" });
  for (let day = 1; day <= REVIEWS_PER_PAGE + 2; day++) {
    await review(manyId, { rating: (day % 5) + 1, staffId: stylist.id, menus: [menu], day });
  }
});

afterAll(async () => {
  await full?.close();
});

async function get(path: string) {
  return full.app.request(`${ORIGIN}${path}`, { redirect: "manual" });
}

async function page(path: string) {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

function jsonLd(html: string) {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? "null") as Record<string, unknown>,
  );
}

/** The page's visible words: no scripts, no tags, no React's text markers. */
function visibleText(html: string) {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, " ")
    .replace(/<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ");
}

const titles = (items: { title: string }[]) => items.map((item) => item.title);

describe("the summary", () => {
  it("averages shown reviews to one decimal, counts them by star and averages each aspect", async () => {
    const summary = await reviewSummary(db(), salonId);
    expect(summary.average).toBe(3.8);
    expect(summary.count).toBe(4);
    expect(summary.distribution).toEqual([
      { rating: 5, count: 1 },
      { rating: 4, count: 2 },
      { rating: 3, count: 0 },
      { rating: 2, count: 1 },
      { rating: 1, count: 0 },
    ]);
    expect(summary.aspects).toEqual([
      { key: "ratingAtmosphere", label: "雰囲気", average: 4.5, count: 2 },
      { key: "ratingService", label: "接客", average: 4, count: 2 },
      { key: "ratingTechnique", label: "技術", average: 3, count: 1 },
      { key: "ratingFinish", label: "仕上がり", average: null, count: 0 },
    ]);
  });

  it("agrees with the salon's derived rating, which search sorts by", async () => {
    const detail = await getSalonDetail(db(), "review-salon", NOW);
    expect(detail?.salon.ratingAverage).toBe(3.8);
    expect(detail?.salon.reviewCount).toBe(4);
  });

  it("is empty for a salon nobody reviewed", async () => {
    const salon = await buildSalon(db());
    const summary = await reviewSummary(db(), salon.id);
    expect(summary.average).toBe(0);
    expect(summary.count).toBe(0);
    expect(summary.distribution.every((star) => star.count === 0)).toBe(true);
  });
});

describe("the list", () => {
  it("sorts newest first, by rating high and low (newest first among equals)", async () => {
    const list = (sort: "newest" | "rating_high" | "rating_low") =>
      listReviews(db(), salonId, { sort, page: 1 }).then((result) => titles(result.items));
    expect(await list("newest")).toEqual(["感想4", "<b>太字</b>", "感想2", "感想1"]);
    expect(await list("rating_high")).toEqual(["感想1", "<b>太字</b>", "感想2", "感想4"]);
    expect(await list("rating_low")).toEqual(["感想4", "<b>太字</b>", "感想2", "感想1"]);
  });

  it("gives each review its visit: stylist, menus with their genre, 来店済み, the reply", async () => {
    const { items } = await listReviews(db(), salonId, { sort: "newest", page: 1 });
    const second = items.find((item) => item.title === "感想2");
    expect(second).toMatchObject({
      rating: 4,
      stylist: { slug: "rv-suzuki", name: "鈴木 舞" },
      menus: [
        { name: "カット", genre: "カット" },
        { name: "ダブルカラー", genre: "カラー" },
      ],
      verified: true,
      ratingTechnique: 3,
      ratingFinish: null,
      reply: null,
    });
    const first = items.find((item) => item.title === "感想1");
    expect(first?.reply?.body).toBe(
      "ご来店ありがとうございました。\nまたのお越しをお待ちしております。",
    );
  });

  it("filters by stylist and by menu genre, offering only choices with shown reviews", async () => {
    expect(await reviewFilterChoices(db(), salonId)).toEqual({
      stylists: [
        { id: sato, slug: "rv-sato", name: "佐藤 愛" },
        { id: suzuki, slug: "rv-suzuki", name: "鈴木 舞" },
      ],
      genres: ["カット", "カラー"],
    });
    const bySato = await listReviews(db(), salonId, { sort: "newest", staffId: sato, page: 1 });
    expect(titles(bySato.items)).toEqual(["<b>太字</b>", "感想1"]);
    const color = await listReviews(db(), salonId, { sort: "newest", genre: "カラー", page: 1 });
    expect(titles(color.items)).toEqual(["<b>太字</b>", "感想2"]);
    const both = await listReviews(db(), salonId, {
      sort: "newest",
      staffId: suzuki,
      genre: "カラー",
      page: 1,
    });
    expect(titles(both.items)).toEqual(["感想2"]);
    expect(both.total).toBe(1);
  });

  it("leaves hidden reviews out of every list, filter and page", async () => {
    const all = await listReviews(db(), salonId, { sort: "rating_low", page: 1 });
    expect(all.items.map((item) => item.id)).not.toContain(hiddenId);
    const byTanaka = await listReviews(db(), salonId, {
      sort: "newest",
      staffId: tanaka,
      page: 1,
    });
    expect(byTanaka.total).toBe(0);
  });

  it("pages ten at a time with the total and the number of pages", async () => {
    const first = await listReviews(db(), manyId, { sort: "newest", page: 1 });
    const second = await listReviews(db(), manyId, { sort: "newest", page: 2 });
    expect(first).toMatchObject({ total: REVIEWS_PER_PAGE + 2, pages: 2, page: 1 });
    expect(first.items).toHaveLength(REVIEWS_PER_PAGE);
    expect(titles(second.items)).toEqual(["感想2", "感想1"]);
  });
});

describe("the salon page", () => {
  it("shows the summary, the stars as text, the latest three with replies and the way to all", async () => {
    const html = await page("/salons/review-salon");
    const text = visibleText(html);
    expect(text).toContain("口コミ（4件）");
    expect(html).toMatch(/<ul aria-label="評価ごとの件数"/);
    // Each star's line reads as words (the bar between is decoration).
    expect(text).toContain("★5星5つ：1件★4星4つ：2件★3星3つ：0件★2星2つ：1件★1星1つ：0件");
    expect(text).toContain("雰囲気4.5接客4.0技術3.0");
    expect(html).toContain('href="/salons/review-salon/reviews"');
    expect(text).toContain("口コミをすべて見る（4件）");
    // The latest three: 感想4, 太字, 感想2; 感想1 (with the reply) is on the list page.
    expect(text).toContain("感想4");
    expect(text).not.toContain("感想1");
    expect(text).toContain("サロンからの返信ご期待に沿えず申し訳ございません。");
    expect(text).not.toContain("非表示の口コミ");
  });

  it("sends old ?reviews=N links to the review list", async () => {
    const response = await get("/salons/review-salon?reviews=2");
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/salons/review-salon/reviews?page=2");
  });

  it("gives crawlers AggregateRating and the shown reviews, whose text cannot end the script", async () => {
    const html = await page("/salons/review-salon");
    const business = jsonLd(html).find((data) => data["@type"] === "HairSalon");
    expect(business?.aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: 3.8,
      reviewCount: 4,
      bestRating: 5,
      worstRating: 1,
    });
    const items = business?.review as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    expect(items[1]).toEqual({
      "@type": "Review",
      author: { "@type": "Person", name: "20代後半・女性" },
      datePublished: "2026-10-03",
      name: "<b>太字</b>",
      reviewBody: HOSTILE,
      reviewRating: { "@type": "Rating", ratingValue: 4, bestRating: 5, worstRating: 1 },
    });
    // The body's </script> is escaped inside the data block: no second script starts.
    expect(html).not.toContain("<script>alert(");
    expect(JSON.stringify(jsonLd(html))).not.toContain("この口コミは管理者が非表示にしました");
  });
});

describe("/salons/:id/reviews", () => {
  it("lists every shown review with its visit, the reply, and a report link each", async () => {
    const html = await page("/salons/review-salon/reviews");
    expect(visibleText(html)).toContain("口コミ美容室の口コミ");
    expect(html).toContain("4件中 1〜4件目（新着順）");
    expect(html).toContain("来店済み");
    expect(html).toContain("担当 鈴木 舞");
    expect(html).toContain("カット（カット）、ダブルカラー（カラー）");
    expect(html).toContain("サロンからの返信");
    expect(html).toContain(`href="/reviews/${hostileId}/report"`);
    expect(html.match(/この口コミを通報する/g)).toHaveLength(4);
    expect(html).not.toContain("非表示の口コミ");
    // The filters offer what has reviews: not 田中, not スパ.
    expect(html).toContain('<option value="rv-sato">佐藤 愛</option>');
    expect(html).not.toContain("田中 翼");
    expect(html).toContain('<option value="カラー">カラー</option>');
    expect(html).not.toContain('<option value="スパ">');
  });

  it("shows review text as text: escaped, line breaks kept, URLs not linked", async () => {
    const html = await page("/salons/review-salon/reviews");
    expect(html).toContain("&lt;b&gt;太字&lt;/b&gt;");
    expect(html).not.toContain("<b>太字</b>");
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(");
    expect(html).toMatch(/whitespace-pre-line[^"]*">&lt;\/script&gt;/);
    expect(html).toContain("https://evil.example/phish");
    expect(html).not.toMatch(/<a[^>]+href="https:\/\/evil\.example/);
  });

  it("sorts and filters by the GET form's values, and pages", async () => {
    const sorted = await page(
      "/salons/review-salon/reviews?sort=rating_high&genre=%E3%82%AB%E3%83%A9%E3%83%BC",
    );
    expect(sorted).toContain("2件中 1〜2件目（評価の高い順）");
    expect(sorted.indexOf("太字")).toBeLessThan(sorted.indexOf("感想2"));
    const byStylist = await page("/salons/review-salon/reviews?staff=rv-suzuki");
    expect(byStylist).toContain("2件中 1〜2件目");
    expect(byStylist).toContain('<option value="rv-suzuki" selected="">');
    const second = await page("/salons/many-reviews/reviews?page=2");
    expect(second).toContain("12件中 11〜12件目");
    expect(second).toContain('aria-label="口コミのページ送り"');
  });

  it("redirects a malformed, default or unknown value to the list without it", async () => {
    const cases: [string, string][] = [
      ["?sort=bogus", "/salons/review-salon/reviews"],
      ["?sort=newest&staff=&genre=", "/salons/review-salon/reviews"],
      ["?page=0", "/salons/review-salon/reviews"],
      ["?page=abc&sort=rating_low", "/salons/review-salon/reviews?sort=rating_low"],
      ["?staff=Bad%20Slug!", "/salons/review-salon/reviews"],
      ["?staff=rv-tanaka&sort=rating_low", "/salons/review-salon/reviews?sort=rating_low"],
      ["?genre=%E3%82%B9%E3%83%91", "/salons/review-salon/reviews"],
      [`?genre=${"長".repeat(51)}`, "/salons/review-salon/reviews"],
      ["?page=9", "/salons/review-salon/reviews"],
      // A client-side GET form's data request: React Router's parameter stays out of the address.
      [
        "?sort=rating_low&staff=&_routes=routes%2Fx",
        "/salons/review-salon/reviews?sort=rating_low",
      ],
    ];
    for (const [query, location] of cases) {
      const response = await get(`/salons/review-salon/reviews${query}`);
      expect(response.status, query).toBe(302);
      expect(response.headers.get("location"), query).toBe(location);
    }
    const many = await get("/salons/many-reviews/reviews?page=7");
    expect(many.headers.get("location")).toBe("/salons/many-reviews/reviews?page=2");
  });

  it("is the 404 screen for an unknown or unpublished salon", async () => {
    expect((await get("/salons/no-such-salon/reviews")).status).toBe(404);
    const draft = await buildSalon(db(), { slug: "draft-reviews", status: "draft" });
    await buildReview(db(), draft.id);
    expect((await get("/salons/draft-reviews/reviews")).status).toBe(404);
  });

  it("reads 口コミなし plainly for a salon without reviews", async () => {
    await buildSalon(db(), { slug: "quiet-salon" });
    const html = await page("/salons/quiet-salon/reviews");
    expect(html).toContain("まだ口コミはありません。");
    expect(jsonLd(html)[0]).not.toHaveProperty("aggregateRating");
  });
});

describe("GET /api/salons/{id}/reviews", () => {
  const client = () => apiClient(full.app);

  it("answers the summary, the filters and one page, by slug or UUID", async () => {
    const response = await client().request("/api/salons/review-salon/reviews");
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data.summary).toMatchObject({ average: 3.8, count: 4 });
    expect(data.filters).toEqual({
      sort: "newest",
      staff: null,
      genre: null,
      stylists: [
        { slug: "rv-sato", name: "佐藤 愛" },
        { slug: "rv-suzuki", name: "鈴木 舞" },
      ],
      genres: ["カット", "カラー"],
    });
    expect(data).toMatchObject({ total: 4, page: 1, pages: 1, pageSize: REVIEWS_PER_PAGE });
    expect(data.reviews.map((item: { title: string }) => item.title)).toEqual([
      "感想4",
      "<b>太字</b>",
      "感想2",
      "感想1",
    ]);
    const replied = data.reviews[3];
    expect(replied.reply).toEqual({
      body: "ご来店ありがとうございました。\nまたのお越しをお待ちしております。",
      repliedAt: "2026-10-02T03:00:00.000Z",
      updatedAt: null,
    });
    expect(replied.verified).toBe(true);
    const byId = await client().request(`/api/salons/${salonId}/reviews?staff=${sato}`);
    expect((await byId.json()).data.total).toBe(2);
  });

  it("sorts, filters and pages as the page does", async () => {
    const response = await client().request(
      `/api/salons/review-salon/reviews?sort=rating_low&staff=rv-suzuki&genre=${encodeURIComponent("カット")}`,
    );
    const { data } = await response.json();
    expect(data.reviews.map((item: { title: string }) => item.title)).toEqual(["感想4", "感想2"]);
    expect(data.filters).toMatchObject({ sort: "rating_low", staff: "rv-suzuki", genre: "カット" });
    const second = await client().request("/api/salons/many-reviews/reviews?page=2");
    expect((await second.json()).data).toMatchObject({ page: 2, pages: 2, total: 12 });
  });

  it("refuses bad parameters with a Japanese 400, an unknown salon with 404", async () => {
    const bad: [string, RegExp][] = [
      ["sort=bogus", /sort は newest/],
      ["page=0", /page は1以上/],
      ["page=abc", /page は1以上/],
      ["page=501", /page は1以上500以下/],
      ["staff=Bad%20Slug!", /staff の形式が正しくありません/],
      ["staff=rv-tanaka", /指定したスタイリストの口コミはありません/],
      [`genre=${encodeURIComponent("スパ")}`, /指定したメニュージャンルの口コミはありません/],
      [`genre=${"長".repeat(51)}`, /genre は50文字以内/],
    ];
    for (const [query, message] of bad) {
      const response = await client().request(`/api/salons/review-salon/reviews?${query}`);
      expect(response.status, query).toBe(400);
      const body = await response.json();
      expect(body.error.message, query).toMatch(message);
    }
    const missing = await client().request("/api/salons/no-such-salon/reviews");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("salon_not_found");
  });

  it("never answers a hidden review", async () => {
    const response = await client().request("/api/salons/review-salon/reviews?sort=rating_low");
    const text = await response.text();
    expect(text).not.toContain(hiddenId);
    expect(text).not.toContain("非表示の口コミ");
  });
});
