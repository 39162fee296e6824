import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// Issue 30, point 3: a salon's reviews, from its page to the whole list.

/** The best-rated hair salon's page, then 口コミをすべて見る. */
async function openReviews(page: Page) {
  await page.goto("/salons/search?genre=hair&sort=rating");
  await page.locator('main article a[href^="/salons/"]').first().click();
  const section = page.getByRole("region", { name: /口コミ（\d+件）/ });
  await expect(section.getByRole("list", { name: "評価ごとの件数" })).toBeVisible();
  await section.getByRole("link", { name: /口コミをすべて見る（\d+件）/ }).click();
  await expect(page).toHaveURL(/\/salons\/[a-z0-9-]+\/reviews$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/の口コミ$/);
}

test("a salon's reviews: the summary, then the list sorted by the form", async ({ page, axe }) => {
  await openReviews(page);
  await expect(page.getByText("来店済み").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^この口コミを通報する/ }).first()).toHaveAttribute(
    "href",
    /^\/reviews\/[0-9a-f-]+\/report$/,
  );
  await axe.check();
  const form = page.getByRole("form", { name: "口コミの並び替えと絞り込み" });
  await form.getByLabel("並び順").selectOption("rating_low");
  await form.getByRole("button", { name: "この条件で表示" }).click();
  await expect(page).toHaveURL(/\?sort=rating_low$/);
  await expect(page.getByText(/件中 1〜\d+件目（評価の低い順）/)).toBeVisible();
  await axe.check();
});

test("the review list's form works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await openReviews(page);
  await page.getByLabel("並び順").selectOption("rating_high");
  await page.getByRole("button", { name: "この条件で表示" }).click();
  await expect(page).toHaveURL(/\?sort=rating_high$/);
  await expect(page.getByText(/件中 1〜\d+件目（評価の高い順）/)).toBeVisible();
  await context.close();
});

test("the review list works at 320 px wide", async ({ page, axe }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await openReviews(page);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await axe.check();
});
