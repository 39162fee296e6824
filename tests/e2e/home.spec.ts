import { expect, test } from "./fixtures";

test("home renders demo salons from the database", async ({ page, axe }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const salonLinks = page
    .getByRole("region", { name: "おすすめのサロン" })
    .locator('article a[href^="/salons/"]');
  await expect(salonLinks).toHaveCount(8);
  await expect(salonLinks.first()).not.toBeEmpty();
  await expect(
    page.getByRole("region", { name: "人気のエリアから探す" }).locator('a[href^="/area/"]'),
  ).not.toHaveCount(0);
  await expect(page.getByRole("search")).toBeVisible();
  await axe.check();
});

test("home works at 320 px wide without horizontal scrolling", async ({ page, axe }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/");
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await axe.check();
});
