import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coupons, salonBookingSettings, salonPhotos } from "../../server/db/schema";
import { requirePublishedSalon } from "../../server/salons/salon-sections";
import { listSitemapEntries } from "../../server/seo/sitemap";
import { ORIGIN } from "../support/accounts";
import { buildArea, buildMenu, buildSalon, buildStaff, buildStation } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { withTestDatabase } from "../support/test-database";

/**
 * The salon's pages as tabs (issue 31, point 1; decision 0057): each its own
 * URL with the shared header and tab bar, the 予約する bar and what it books
 * with, the access tab's stations and map links, and the sitemap.
 */
const database = withTestDatabase();
const db = () => database.db;
let full: Awaited<ReturnType<typeof createFullApp>>;

const SLUG = "tab-salon";
// Far from every other test's places, so only this file's stations are near.
const HERE = { latitude: 43.0, longitude: 141.0 };
const tabs = [
  ["", "トップ"],
  ["/coupons", "クーポン・メニュー"],
  ["/styles", "スタイル"],
  ["/stylists", "スタッフ"],
  ["/reviews", "口コミ"],
  ["/access", "地図・アクセス"],
] as const;

let couponId = "";
let otherCouponId = "";
let menuId = "";
let expiredCouponId = "";

beforeAll(async () => {
  full = await createFullApp(database, { PUBLIC_URL: ORIGIN, RATE_LIMIT_PER_IP: "10000" });
  const area = await buildArea(db(), { name: "札幌" });
  const salon = await buildSalon(db(), {
    slug: SLUG,
    name: "タブ美容室",
    nameKana: "タブビヨウシツ",
    areaId: area.id,
    postalCode: "060-0001",
    address: "北海道札幌市中央区北1条西1-1",
    access: "大通駅から徒歩5分",
    catchCopy: "髪にやさしいサロン",
    ...HERE,
    regularHolidays: [2],
    holidayNote: "年末年始",
    openingHours: [
      { weekday: 1, opens: "10:00", closes: "19:00" },
      { weekday: 3, opens: "10:00", closes: "13:00" },
      { weekday: 3, opens: "14:00", closes: "20:00" },
    ],
  });
  await db()
    .insert(salonBookingSettings)
    .values({ salonId: salon.id, closedOnPublicHolidays: true });
  const other = await buildSalon(db(), { slug: "tab-other", areaId: area.id, ...HERE });
  await buildSalon(db(), { slug: "tab-draft", status: "draft" });
  const stylist = await buildStaff(db(), salon.id, {
    slug: "tab-stylist",
    name: "北村 さくら",
    nominationFee: 1100,
    yearsOfExperience: 7,
  });
  const menu = await buildMenu(db(), salon.id, { name: "透明感カラー", price: 7700 });
  menuId = menu.id;
  const [coupon, expired] = await db()
    .insert(coupons)
    .values([
      {
        salonId: salon.id,
        title: "初回カラー20%OFF",
        discountKind: "percent",
        discountValue: 20,
        validFrom: "2026-01-01",
      },
      {
        salonId: salon.id,
        title: "終わったクーポン",
        discountKind: "percent",
        discountValue: 20,
        validFrom: "2025-01-01",
        validUntil: "2025-12-31",
      },
    ])
    .returning({ id: coupons.id });
  couponId = coupon?.id ?? "";
  expiredCouponId = expired?.id ?? "";
  const [otherCoupon] = await db()
    .insert(coupons)
    .values({
      salonId: other.id,
      title: "よそのクーポン",
      discountKind: "amount",
      discountValue: 500,
      validFrom: "2026-01-01",
    })
    .returning({ id: coupons.id });
  otherCouponId = otherCoupon?.id ?? "";
  await db()
    .insert(salonPhotos)
    .values([
      {
        salonId: salon.id,
        url: "/images/salons/hair-1.svg",
        alt: "透明感カラーのスタイル",
        width: 800,
        height: 600,
        sortOrder: 0,
        staffId: stylist.id,
        menuId: menu.id,
      },
      {
        salonId: salon.id,
        url: "/images/salons/hair-2.svg",
        alt: "店内の様子",
        width: 800,
        height: 600,
        sortOrder: 1,
      },
    ]);
  // 0.003° north: 333.6 m straight, × 1.3 ÷ 80 = 5.4 → 徒歩6分.
  await buildStation(db(), area.id, {
    slug: "tab-odori",
    name: "大通",
    lines: ["南北線", "東西線"],
    latitude: HERE.latitude + 0.003,
    longitude: HERE.longitude,
  });
  // 0.01° south: 1,112 m → 徒歩19分.
  await buildStation(db(), area.id, {
    slug: "tab-susukino",
    name: "すすきの",
    latitude: HERE.latitude - 0.01,
    longitude: HERE.longitude,
  });
  // 0.019° north: 2,113 m, beyond 2 km.
  await buildStation(db(), area.id, {
    slug: "tab-far",
    name: "遠い",
    latitude: HERE.latitude + 0.019,
    longitude: HERE.longitude,
  });
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

/** The page's visible words: no scripts, no tags, no React's text markers. */
function visibleText(html: string) {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, " ")
    .replace(/<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ");
}

/** The tab bar's markup. */
function tabBar(html: string) {
  return html.match(/<nav aria-label="サロン内のページ"[\s\S]*?<\/nav>/)?.[0] ?? "";
}

const decode = (html: string) => html.replaceAll("&amp;", "&");

describe("the tabs", () => {
  it("answers each tab with the header, the tab bar and aria-current on itself", async () => {
    for (const [path, label] of tabs) {
      const html = await page(`/salons/${SLUG}${path}`);
      const bar = tabBar(html);
      expect(bar, path).not.toBe("");
      const current = [...bar.matchAll(/<a [^>]*aria-current="page"[^>]*>([^<]*)<\/a>/g)];
      expect(
        current.map((match) => match[1]),
        path,
      ).toEqual([label]);
      for (const [other] of tabs) expect(bar).toContain(`href="/salons/${SLUG}${other}"`);
      expect(html.match(/<h1[\s>]/g), path).toHaveLength(1);
      expect(visibleText(html)).toContain("タブ美容室");
      expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/salons/${SLUG}${path}"/>`);
      // The 予約する bar (phones) and the header's button (wide screens).
      expect(html).toContain(`href="/salons/${SLUG}/confirm"`);
      // The bar is fixed on phones, and the document ends with room for it.
      expect(html).toMatch(/class="salon-booking-bar fixed inset-x-0 bottom-0[^"]* sm:hidden"/);
      expect(html).toContain("body:has(.salon-booking-bar){padding-bottom:");
    }
  });

  it("titles each tab after the salon and the tab, and shows each tab's own part", async () => {
    const coupons = await page(`/salons/${SLUG}/coupons`);
    expect(coupons).toContain("<title>タブ美容室のクーポン・メニュー | ");
    expect(visibleText(coupons)).toContain("初回カラー20%OFF");
    expect(visibleText(coupons)).toContain("透明感カラー");
    expect(visibleText(coupons)).not.toContain("終わったクーポン");
    expect(decode(coupons)).toContain(`href="/salons/${SLUG}/confirm?menu=${menuId}"`);

    const stylists = visibleText(await page(`/salons/${SLUG}/stylists`));
    expect(stylists).toContain("北村 さくら");
    expect(stylists).toContain("指名料 ￥1,100");
    expect(stylists).toContain("歴7年");

    const top = await page(`/salons/${SLUG}`);
    const topText = visibleText(top);
    expect(topText).toContain("髪にやさしいサロン");
    expect(topText).toContain("クーポン・メニューをすべて見る");
    expect(topText).toContain("スタッフをすべて見る（1人）");
    expect(topText).toContain("〒060-0001 北海道札幌市中央区北1条西1-1");
    expect(top).toContain('"@type":"HairSalon"');
  });

  it("answers 404 on every tab for an unknown, malformed or unpublished salon", async () => {
    for (const slug of ["no-such-salon", "tab-draft", "Bad%20Slug"]) {
      for (const [path] of tabs) {
        expect((await get(`/salons/${slug}${path}`)).status, `${slug}${path}`).toBe(404);
      }
    }
  });
});

describe("the layout route of the tabs", () => {
  it("shares every tab's page and a move between tabs (the tab's data alone) for a few seconds", async () => {
    for (const [path] of tabs) {
      expect((await get(`/salons/${SLUG}${path}`)).status, path).toBe(200);
      expect((await get(`/salons/${SLUG}${path}`)).headers.get("x-cache"), path).toBe("HIT");
    }
    const move = `/salons/${SLUG}/coupons.data?_routes=${encodeURIComponent("routes/salons.$id.coupons")}`;
    expect((await get(move)).status).toBe(200);
    expect((await get(move)).headers.get("x-cache")).toBe("HIT");
  });

  it("lets each tab guard itself when its data is asked alone", async () => {
    for (const [path, id] of [
      ["", "routes/salons.$id"],
      ["/coupons", "routes/salons.$id.coupons"],
      ["/reviews", "routes/salons.$id.reviews"],
      ["/access", "routes/salons.$id.access"],
    ] as const) {
      const response = await get(
        `/salons/no-such-salon${path}.data?_routes=${encodeURIComponent(id)}`,
      );
      expect(response.status, path).toBe(404);
    }
  });

  it("reads the salon once for the layout and its tab in one request", async () => {
    const request = new Request(`${ORIGIN}/salons/${SLUG}/coupons`);
    const [layout, tab] = await Promise.all([
      requirePublishedSalon(request, db(), SLUG),
      requirePublishedSalon(request, db(), SLUG),
    ]);
    expect(tab).toBe(layout);
    expect(await requirePublishedSalon(new Request(request.url), db(), SLUG)).not.toBe(layout);
  });
});

describe("the access tab", () => {
  it("lists the stations within 2 km, nearest first, with the walk at 80 m a minute", async () => {
    const text = visibleText(await page(`/salons/${SLUG}/access`));
    expect(text).toContain("大通駅（南北線・東西線） 徒歩6分（約330m）");
    expect(text).toContain("すすきの駅 徒歩19分（約1,110m）");
    expect(text.indexOf("大通駅")).toBeLessThan(text.indexOf("すすきの駅"));
    expect(text).not.toContain("遠い駅");
  });

  it("shows the hours Monday first, the regular holiday, 祝日 and the note", async () => {
    const text = visibleText(await page(`/salons/${SLUG}/access`));
    expect(text).toContain(
      "月曜日10:00〜19:00火曜日定休日水曜日10:00〜13:00、14:00〜20:00木曜日休み金曜日休み土曜日休み日曜日休み",
    );
    expect(text).toContain("定休日：火曜日・祝日（年末年始）");
    expect(text).toContain("〒060-0001 北海道札幌市中央区北1条西1-1");
    expect(text).toContain("大通駅から徒歩5分");
  });

  it("opens the place in map applications by its coordinates", async () => {
    const html = decode(await page(`/salons/${SLUG}/access`));
    const name = encodeURIComponent("タブ美容室");
    expect(html).toContain('href="https://www.google.com/maps/search/?api=1&query=43,141"');
    expect(html).toContain(`href="https://maps.apple.com/?ll=43,141&q=${name}"`);
    expect(html).toContain(`href="geo:43,141?q=43,141(${name})"`);
  });
});

describe("the 予約する bar with a coupon or a menu", () => {
  it("books with this salon's coupon and keeps it on every tab's link", async () => {
    for (const [path] of tabs) {
      const html = decode(await page(`/salons/${SLUG}${path}?coupon=${couponId}`));
      expect(html, path).toContain(`href="/salons/${SLUG}/confirm?coupon=${couponId}"`);
      expect(visibleText(html), path).toContain("このクーポンで予約する");
      for (const [other] of tabs) {
        expect(tabBar(html)).toContain(`href="/salons/${SLUG}${other}?coupon=${couponId}"`);
      }
    }
  });

  it("books with this salon's menu", async () => {
    const html = decode(await page(`/salons/${SLUG}/stylists?menu=${menuId}`));
    expect(html).toContain(`href="/salons/${SLUG}/confirm?menu=${menuId}"`);
    expect(visibleText(html)).toContain("このメニューで予約する");
    expect(tabBar(html)).toContain(`href="/salons/${SLUG}/access?menu=${menuId}"`);
  });

  it("ignores another salon's coupon, an expired one and garbage, without an error", async () => {
    for (const query of [
      `coupon=${otherCouponId}`,
      `coupon=${expiredCouponId}`,
      "coupon=not-a-uuid",
      "menu=%27%22%3Cx",
      `menu=${couponId}`,
    ]) {
      for (const path of ["", "/coupons", "/reviews"]) {
        const html = await page(`/salons/${SLUG}${path}?${query}`);
        expect(tabBar(html), query).toContain(`href="/salons/${SLUG}/access"`);
        expect(html, query).toContain(`href="/salons/${SLUG}/confirm"`);
        expect(visibleText(html), query).not.toContain("このクーポンで予約する");
      }
    }
  });
});

describe("the styles tab", () => {
  it("shows a tagged photo's stylist and menu with the way to book it", async () => {
    const html = decode(await page(`/salons/${SLUG}/styles`));
    const text = visibleText(html);
    expect(text).toContain("スタイル（2枚）");
    expect(html).toContain('alt="透明感カラーのスタイル"');
    expect(html).toContain('href="/salons/staffs/tab-stylist"');
    expect(text).toContain("北村 さくら");
    expect(text).toContain("透明感カラー ￥7,700");
    expect(html).toContain(`href="/salons/${SLUG}/confirm?menu=${menuId}"`);
  });

  it("says so when the salon has no photos", async () => {
    const text = visibleText(await page("/salons/tab-other/styles"));
    expect(text).toContain("このサロンのスタイル写真はまだありません。");
  });
});

describe("the sitemap", () => {
  it("lists each published salon's tabs, スタイル once it has a photo", async () => {
    const paths = (await listSitemapEntries(db(), new Date())).map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining(
        ["", "/coupons", "/styles", "/stylists", "/access"].map((tab) => `/salons/${SLUG}${tab}`),
      ),
    );
    expect(paths).toEqual(
      expect.arrayContaining(
        ["", "/coupons", "/stylists", "/access"].map((tab) => `/salons/tab-other${tab}`),
      ),
    );
    expect(paths).not.toContain("/salons/tab-other/styles");
    expect(paths.filter((path) => path.startsWith("/salons/tab-draft"))).toEqual([]);
  });
});
