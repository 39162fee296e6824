import type { Page } from "@playwright/test";
import { pickDay } from "./booking-helpers";
import { expect, test } from "./fixtures";

/*
 * Issue 31, the visitor's side, at a phone's and a desktop's width: the
 * salon page's sections (own URLs, the back button), the phone's 予約する bar
 * booking with the coupon the visitor came from, three results on a phone's
 * first screen, a typo's respelled results and the words as typed, and dates, times and places
 * typed in the search box turned into removable chips and free results.
 */

const PHONE = { width: 375, height: 667 };
const DESKTOP = { width: 1280, height: 800 };

/** The first salon of a hair search, by its path (/salons/:slug). */
async function firstSalonPath(page: Page) {
  await page.goto("/salons/search?genre=hair");
  const href = await page
    .locator('main article h3 a[href^="/salons/"]')
    .first()
    .getAttribute("href");
  expect(href).toMatch(/^\/salons\/[a-z0-9-]+$/);
  return href ?? "";
}

/** YYYY-MM-DD and 「11月27日(金)」 of the day `days` after today in Japan. */
function tokyoDay(days: number) {
  const date = new Date(Date.now() + days * 86_400_000);
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Tokyo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(date);
  const [, month, day] = parts.split("-").map(Number);
  const weekday = new Intl.DateTimeFormat("ja-JP", { timeZone: "Asia/Tokyo", weekday: "short" })
    .format(date)
    .replace("曜日", "");
  return { iso: parts, label: `${month}月${day}日(${weekday})` };
}

for (const [name, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test.describe(`at ${viewport.width} px (${name})`, () => {
    test.use({ viewport });

    test("the salon's sections each have their own URL, stay in reach, and the back button walks them", async ({
      page,
      axe,
    }) => {
      test.setTimeout(90_000);
      const top = await firstSalonPath(page);
      await page.goto(top);
      const sections = page.getByRole("navigation", { name: "サロン内のページ" });
      await expect(sections.getByRole("link", { name: "トップ" })).toHaveAttribute(
        "aria-current",
        "page",
      );
      await axe.check();

      await sections.getByRole("link", { name: "クーポン・メニュー" }).click();
      await expect(page).toHaveURL(new RegExp(`${top}/coupons$`));
      await expect(sections.getByRole("link", { name: "クーポン・メニュー" })).toHaveAttribute(
        "aria-current",
        "page",
      );
      // Scrolled far down, the section links are still on screen, the current one too.
      await page.mouse.wheel(0, 4000);
      await expect(sections).toBeInViewport();
      await expect(sections.getByRole("link", { name: "クーポン・メニュー" })).toBeInViewport();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      await axe.check();

      for (const [label, path] of [
        ["スタイル", "styles"],
        ["スタッフ", "stylists"],
        ["口コミ", "reviews"],
      ] as const) {
        await sections.getByRole("link", { name: label, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`${top}/${path}$`));
        await expect(sections.getByRole("link", { name: label, exact: true })).toHaveAttribute(
          "aria-current",
          "page",
        );
        await axe.check();
      }

      await sections.getByRole("link", { name: "地図・アクセス" }).click();
      await expect(page).toHaveURL(new RegExp(`${top}/access$`));
      await expect(page.getByText(/徒歩約?\d+分/).first()).toBeVisible();
      // The map application opens by the salon's coordinates.
      const googleMaps = page.getByRole("link", { name: /Google マップ|Googleマップ/ }).first();
      await expect(googleMaps).toHaveAttribute("href", /query=-?\d+\.\d+,-?\d+\.\d+/);
      await axe.check();

      // Back walks the sections the visitor opened, and forward again.
      await page.goBack();
      await expect(page).toHaveURL(new RegExp(`${top}/reviews$`));
      await page.goBack();
      await expect(page).toHaveURL(new RegExp(`${top}/stylists$`));
      await page.goForward();
      await expect(page).toHaveURL(new RegExp(`${top}/reviews$`));
      await expect(sections.getByRole("link", { name: "口コミ" })).toHaveAttribute(
        "aria-current",
        "page",
      );
    });

    test("a typo shows the respelled search's results at once, and the words as typed on request", async ({
      page,
      axe,
    }) => {
      await page.goto(`/salons/search?${new URLSearchParams({ q: "表参堂 カット" })}`);
      // The respelled search is what the URL says is shown, with the typed words beside it.
      await expect(page).toHaveURL(/q=%E8%A1%A8%E5%8F%82%E9%81%93\+/); // 表参道
      const heading = page.locator("#search-results-heading");
      await expect(heading).toContainText("「表参道 カット」の検索結果を表示しています");
      const count = Number(/(\d+)件中/.exec((await heading.textContent()) ?? "")?.[1]);
      expect(count).toBeGreaterThan(0);
      await expect(page.locator("main article").first()).toBeVisible();
      await axe.check();

      // The words as typed: nothing, and the suggestion, with the same count.
      await page.getByRole("link", { name: "「表参堂 カット」で検索する" }).click();
      await expect(page).toHaveURL(/literal=1/);
      await expect(heading).toHaveText("条件に合うサロンは見つかりませんでした");
      await expect(heading).toBeFocused();
      const suggestion = page.getByRole("link", { name: /「表参道」で検索しますか？/ });
      await expect(suggestion).toContainText(`（${count}件）`);
      await axe.check();

      // Following it shows the results again, without saying they were respelled.
      await suggestion.click();
      await expect(page).toHaveURL(/q=%E8%A1%A8%E5%8F%82%E9%81%93/);
      await expect(page).not.toHaveURL(/typed=|literal=/);
      await expect(heading).toHaveText(new RegExp(`^${count}件中`));
      await expect(heading).toBeFocused();
      await expect(page.locator("main article").first()).toBeVisible();
    });

    test("明日 19時以降 カット 新宿 becomes chips a visitor can remove, and every result is free then", async ({
      page,
      axe,
    }) => {
      const tomorrow = tokyoDay(1);
      await page.goto("/");
      await page.locator("#header-search").fill("明日 19時以降 カット 新宿");
      await page.locator("#header-search").press("Enter");
      await expect(page).toHaveURL(new RegExp(`date=${tomorrow.iso}`));
      await expect(page).toHaveURL(/from=19%3A00/);
      const chips = page.getByRole("link", { name: /の条件を外す/ });
      await expect(chips.filter({ hasText: `${tomorrow.label}` })).toHaveCount(1);
      await expect(chips.filter({ hasText: "19:00" })).toHaveCount(1);
      await expect(chips.filter({ hasText: "カット 新宿" })).toHaveCount(1);

      // Each result's free times are tomorrow, from 19:00.
      const cards = page.locator("main article");
      await expect(cards.first()).toBeVisible();
      const times = page.getByRole("link", { name: /から予約する$/ });
      const labels = await times.evaluateAll((links) =>
        links.map((link) => link.getAttribute("aria-label") ?? ""),
      );
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) {
        expect(label).toContain(tomorrow.label);
        const hour = Number(/(\d{1,2}):\d{2}から予約する$/.exec(label)?.[1]);
        expect(hour, label).toBeGreaterThanOrEqual(19);
      }
      await axe.check();

      // Removing the time chip keeps the date and the words.
      await chips.filter({ hasText: "19:00" }).click();
      await expect(page).not.toHaveURL(/from=/);
      await expect(page).toHaveURL(new RegExp(`date=${tomorrow.iso}`));
      await expect(
        page.getByRole("link", { name: /の条件を外す/ }).filter({ hasText: "19:00" }),
      ).toHaveCount(0);
    });
  });
}

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("three results fit the first screen of a search", async ({ page, axe }) => {
    await page.goto("/salons/search");
    const cards = page.locator("main article");
    await expect(cards.nth(2)).toBeVisible();
    const third = await cards.nth(2).boundingBox();
    expect(third).not.toBeNull();
    expect((third?.y ?? 0) + (third?.height ?? 0)).toBeLessThanOrEqual(PHONE.height);
    // The compact card still names the salon and its price.
    await expect(cards.first().getByRole("heading")).toBeVisible();
    await expect(cards.first().getByText(/[¥￥][\d,]+〜/)).toBeVisible();
    await axe.check();
  });

  test("the fixed 予約する bar books with the coupon the visitor came from", async ({
    page,
    login,
    axe,
  }) => {
    test.setTimeout(120_000);
    await login();
    const top = await firstSalonPath(page);
    await page.goto(`${top}/coupons`);
    const couponLink = page.locator('a[href*="/confirm?"][href*="coupon="]').first();
    const couponId = new URL(
      (await couponLink.getAttribute("href")) ?? "",
      "http://x",
    ).searchParams.get("coupon");
    expect(couponId).toBeTruthy();

    // Came from the coupon: the salon's page books with it from the bar at the bottom.
    await page.goto(`${top}?coupon=${couponId}`);
    const bar = page.getByRole("link", { name: "このクーポンで予約する" });
    await expect(bar).toBeInViewport();
    const box = await bar.boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeGreaterThan(PHONE.height - 80);
    await page.mouse.wheel(0, 3000);
    await expect(bar).toBeInViewport();
    await axe.check();
    await bar.click();
    await expect(page).toHaveURL(new RegExp(`/confirm\\?.*coupon=${couponId}`));
    await expect(page.getByRole("heading", { name: /ご予約/ })).toBeVisible();

    // The coupon's prices show on the menus; a coupon for one menu comes with it chosen.
    await expect(page.getByText(/クーポン適用/).first()).toBeVisible();
    const chosen = page.getByRole("checkbox").and(page.locator(":checked"));
    if ((await chosen.count()) === 0) await page.getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "このメニューで空き状況を見る" }).click();
    await pickDay(page, 2);
    const times = page.getByRole("button", { name: /から予約する$/ });
    await times.first().click();
    await expect(page).toHaveURL(/hold=/);
    await page.getByRole("button", { name: "予約を確定する" }).click();
    await expect(page.getByRole("heading", { name: "ご予約が確定しました" })).toBeVisible();
  });
});

test.describe("on a desktop", () => {
  test.use({ viewport: DESKTOP });

  test("the phone bar gives way to the header's 予約する button", async ({ page }) => {
    const top = await firstSalonPath(page);
    await page.goto(top);
    // The bar is on the page (one markup) but hidden from sm up; the header's button books.
    await expect(page.locator(".salon-booking-bar")).toHaveCount(1);
    await expect(page.locator(".salon-booking-bar")).toBeHidden();
    const book = page.getByRole("link", { name: "予約する", exact: true });
    await expect(book).toHaveCount(1);
    await expect(book).toBeVisible();
    await expect(book).toHaveAttribute("href", new RegExp(`^${top}/confirm`));
  });
});
