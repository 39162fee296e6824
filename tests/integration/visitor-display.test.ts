import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatYen } from "../../common/format";
import { couponMenus, coupons } from "../../server/db/schema";
import { ORIGIN } from "../support/accounts";
import { buildMenu, buildReview, buildSalon, buildSalonWithStaff } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { withTestDatabase } from "../support/test-database";

// Issue 27, point 10: what a new visitor read on the rendered pages.
const database = withTestDatabase();
let full: Awaited<ReturnType<typeof createFullApp>>;

beforeAll(async () => {
  full = await createFullApp(database, { PUBLIC_URL: ORIGIN, RATE_LIMIT_PER_IP: "10000" });
});
afterAll(async () => {
  await full?.close();
});

async function page(path: string) {
  const response = await full.app.request(`${ORIGIN}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The page's visible words: no scripts, no styles, no tags. */
function visibleText(html: string) {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ");
}

function jsonLd(html: string) {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? "null") as Record<string, unknown>,
  );
}

describe("a salon's rating", () => {
  it("reads 口コミなし without reviews on its card and page, and its JSON-LD claims no rating", async () => {
    const salon = await buildSalon(database.db, { slug: "no-reviews", name: "口コミゼロ美容室" });
    await buildMenu(database.db, salon.id);
    const detail = await page("/salons/no-reviews");
    const text = visibleText(detail);
    expect(text).toContain("口コミなし");
    expect(text).not.toMatch(/評価\s*0\.0|口コミ0件/);
    expect(detail).toMatch(/<meta name="description" content="[^"]*口コミなし/);
    const business = jsonLd(detail).find((item) => item["@type"] !== "BreadcrumbList");
    expect(business?.name).toBe("口コミゼロ美容室");
    expect(business).not.toHaveProperty("aggregateRating");

    const search = visibleText(
      await page("/salons/search?q=%E5%8F%A3%E3%82%B3%E3%83%9F%E3%82%BC%E3%83%AD"),
    );
    expect(search).toContain("口コミゼロ美容室");
    expect(search).toContain("口コミなし");
    expect(search).not.toMatch(/評価\s*0\.0/);
  });

  it("reads ★ and the count once there is a review", async () => {
    const salon = await buildSalon(database.db, { slug: "one-review", name: "口コミイチ美容室" });
    await buildMenu(database.db, salon.id);
    await buildReview(database.db, salon.id, { rating: 4 });
    const detail = await page("/salons/one-review");
    expect(visibleText(detail)).toMatch(/評価\s*4\.0\s*口コミ1件/);
    const business = jsonLd(detail).find((item) => item["@type"] !== "BreadcrumbList");
    expect(business?.aggregateRating).toMatchObject({ ratingValue: 4, reviewCount: 1 });
  });
});

describe("dates a visitor reads", () => {
  it("are in Japanese form on a salon's page: a coupon's last day, a review's visit", async () => {
    const salon = await buildSalon(database.db, { slug: "dated", name: "日付美容室" });
    await buildMenu(database.db, salon.id);
    await buildReview(database.db, salon.id, { visitedOn: "2026-10-01" });
    await database.db.insert(coupons).values({
      salonId: salon.id,
      title: "期限つきクーポン",
      discountKind: "amount",
      discountValue: 500,
      validFrom: "2026-01-01",
      validUntil: "2099-03-31",
    });
    const text = visibleText(await page("/salons/dated"));
    expect(text).toContain("有効期限：2099年3月31日(火)まで");
    expect(text).toContain("2026年10月1日(木)来店");
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});

describe("a coupon's price", () => {
  async function salonWithCoupons() {
    const { salon, menu } = await buildSalonWithStaff(database.db, {
      salon: { slug: "couponed", name: "クーポン美容室" },
    });
    const [special, anyMenu] = await database.db
      .insert(coupons)
      .values([
        {
          salonId: salon.id,
          title: "カット特別価格",
          discountKind: "fixed_price",
          discountValue: 4400,
          validFrom: "2026-01-01",
        },
        {
          salonId: salon.id,
          title: "全メニュー10%OFF",
          discountKind: "percent",
          discountValue: 10,
          validFrom: "2026-01-01",
        },
      ])
      .returning();
    if (!special || !anyMenu) throw new Error("coupons not inserted");
    await database.db.insert(couponMenus).values({ couponId: special.id, menuId: menu.id });
    return { salon, menu, special, anyMenu };
  }

  it("shows on the salon page's coupon list, from the first step of booking on", async () => {
    const { menu, special, anyMenu } = await salonWithCoupons();
    expect(menu.price).toBe(5500);
    const detail = visibleText(await page("/salons/couponed"));
    expect(detail).toContain(`カット：通常${formatYen(5500)} → クーポン適用で${formatYen(4400)}`);
    expect(detail).toContain("対象：全メニュー");

    // The coupon link of the salon page: its menu is chosen, the first step shows the price.
    const first = visibleText(await page(`/salons/couponed/confirm?coupon=${special.id}`));
    expect(first).toContain(`通常${formatYen(5500)} → クーポン適用 ${formatYen(4400)}`);
    expect(first).toContain(`合計 ${formatYen(5500)} → ${formatYen(4400)}`);

    // A coupon for any menu: each menu shows its price with it before one is chosen.
    const any = visibleText(await page(`/salons/couponed/confirm?coupon=${anyMenu.id}`));
    expect(any).toContain(`通常${formatYen(5500)} → クーポン適用 ${formatYen(4950)}`);
    const chosen = visibleText(
      await page(`/salons/couponed/confirm?coupon=${anyMenu.id}&menu=${menu.id}`),
    );
    expect(chosen).toContain(`合計 ${formatYen(5500)} → ${formatYen(4950)}`);
  });
});
