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
    "/admin/payments",
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

// 決済の照合 (decision 0081): at 320 px, with nothing found, and run from its button.
test("the payments' reconciliation page: empty state, run now, accessible at 320 px", async ({
  page,
  login,
  axe,
}) => {
  await login({ role: "admin" });
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto("/admin/payments");
  await expect(page.getByRole("heading", { level: 1, name: "決済の照合" })).toBeVisible();
  await expect(page.getByText("差異はありません。")).toBeVisible();
  await axe.check();
  await page.getByRole("button", { name: "今日の分を今すぐ照合する" }).click();
  // The page's loading overlay is a status too while it is still up: the notice is the one focused.
  const notice = page.getByRole("status").filter({ hasText: "照合しました。" });
  await expect(notice).toHaveText("照合しました。");
  await expect(notice).toBeFocused();
  await expect(page.getByText(/最後の照合：/)).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(320);
  await axe.check();
});
