import { expect, test } from "./fixtures";

// Every admin page fits a 320 px screen: wide tables scroll inside their own box.
test("admin pages fit a 320 px screen without horizontal scrolling", async ({ page, login }) => {
  await login({ role: "admin" });
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto("/admin/salons");
  const editor = await page.locator('a[href^="/admin/salons/edit/"]').first().getAttribute("href");
  expect(editor).toBeTruthy();
  const paths = [
    "/admin",
    "/admin/owners",
    "/admin/owners/add",
    "/admin/salons",
    "/admin/salons/add",
    "/admin/redirects",
    `${editor}`,
    `${editor}/staff`,
    `${editor}/menus`,
    `${editor}/coupons`,
    `${editor}/photos`,
  ];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, path).toBeLessThanOrEqual(320);
  }
});
