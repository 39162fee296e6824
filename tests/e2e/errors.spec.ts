import { expect, test } from "./fixtures";

test("an unknown URL shows the 404 screen and its button leads home", async ({ page, axe }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
  await expect(page.getByText("指定されたページ（URL）は見つかりませんでした。")).toBeVisible();
  await expect(page.locator('img[src="/images/not-found.svg"]')).toBeVisible();
  await axe.check();
  const button = page.getByRole("link", { name: "トップへ" });
  await button.click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("region", { name: "おすすめのサロン" })).toBeVisible();
});

test("a malformed article slug is a 404 too", async ({ page }) => {
  const response = await page.goto("/articles/NOT_A_SLUG!");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ページが見つかりません");
});

test("crawlers get the status code but no error page", async ({ request }) => {
  for (const userAgent of [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "facebookexternalhit/1.1",
    "Mozilla/5.0 Chrome-Lighthouse",
  ]) {
    const response = await request.get("/no/such/page", { headers: { "user-agent": userAgent } });
    expect(response.status()).toBe(404);
    expect(await response.text()).toBe("");
  }
});

test("an unreadable cookie is replaced, not a dead end", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "theme", value: "%E0", url: baseURL ?? "" }]);
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("region", { name: "おすすめのサロン" })).toBeVisible();
  const theme = (await context.cookies()).find((cookie) => cookie.name === "theme");
  expect(theme?.value).toBe("light");
});

test("a refused request shows what was wrong, in Japanese, with a way home", async ({ page }) => {
  const response = await page.goto("/salons/search?q=%00");
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "リクエストを受け付けられませんでした",
  );
  await expect(page.getByText("URLに使用できない文字が含まれています")).toBeVisible();
  await page.getByRole("link", { name: "トップへ" }).click();
  await expect(page).toHaveURL("/");
});
