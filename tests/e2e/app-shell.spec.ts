import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "./fixtures";

test("the loading overlay is server-rendered, leaves 3 s after mount and never returns", async ({
  page,
  axe,
}) => {
  await page.goto("/");
  const overlay = page.locator("#loading-overlay");
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveAttribute("role", "status");
  await page.waitForTimeout(2000);
  await expect(overlay).toBeVisible();
  await expect(overlay).toBeHidden({ timeout: 3000 });
  await expect(overlay).toHaveCount(0);
  await axe.check();
  await page.getByRole("contentinfo").getByRole("link", { name: "運営会社" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("運営会社");
  await expect(overlay).toHaveCount(0);
});

test("without JavaScript the overlay does not cover the page", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/about");
  await expect(page.locator("#loading-overlay")).toBeHidden();
  await context.close();
});

for (const [width, expected] of [
  [375, "mobileMedium"],
  [1280, "desktopMedium"],
] as const) {
  test(`at ${width} px the viewport cookie is ${expected} and the server honours it`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto("/");
    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === "viewport"))
      .toMatchObject({ value: expected });
    const cookie = (await context.cookies()).find((c) => c.name === "viewport");
    expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 364 * 24 * 3600);
    const html = await (await page.request.get("/about")).text();
    expect(html).toContain(`data-viewport="${expected}"`);
    await context.close();
  });
}

test("the chosen theme is rendered by the server and survives a reload", async ({ page, axe }) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/about");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await background()).toBe("rgb(255, 255, 255)");
  await page.getByRole("button", { name: "ダーク" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("button", { name: "ダーク" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  const response = await page.reload();
  expect(await response?.text()).toContain('data-theme="dark"');
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background()).toBe("rgb(22, 22, 26)");
  await axe.check();
  await page.getByRole("button", { name: "端末の設定" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
  // "System" follows the device.
  expect(await background()).toBe("rgb(22, 22, 26)");
  await page.emulateMedia({ colorScheme: "light" });
  expect(await background()).toBe("rgb(255, 255, 255)");
});

test("dataLayer gets one page_view per navigation with url and title", async ({ page }) => {
  await page.goto("/");
  const pageViews = () =>
    page.evaluate(() => (window.dataLayer ?? []).filter((event) => event.event === "page_view"));
  await expect.poll(pageViews).toHaveLength(1);
  expect((await pageViews())[0]).toMatchObject({
    page_location: expect.stringMatching(/\/$/),
    page_title: "Salon Navi",
  });
  await page.getByRole("contentinfo").getByRole("link", { name: "利用規約" }).click();
  await expect(page).toHaveURL(/\/user-policy$/);
  await expect.poll(pageViews).toHaveLength(2);
  expect((await pageViews())[1]).toMatchObject({
    page_location: expect.stringMatching(/\/user-policy$/),
    page_title: "利用規約 | Salon Navi",
  });
  // No tag manager container without GTM_ID.
  await expect(page.locator('script[src*="googletagmanager"]')).toHaveCount(0);
});

test("root data is kept on the client: a navigation fetches no loader data it does not need", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.locator("#loading-overlay")).toHaveCount(0, { timeout: 5000 });
  const dataRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes(".data")) dataRequests.push(request.url());
  });
  await page.getByRole("contentinfo").getByRole("link", { name: "運営会社" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("運営会社");
  await page.getByRole("contentinfo").getByRole("link", { name: "利用規約" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("利用規約");
  expect(dataRequests).toEqual([]);
});

// The app's effects (page views, build checks) run once it has mounted.
const mounted = (page: import("@playwright/test").Page) =>
  page.waitForFunction(() => (window.dataLayer ?? []).some((event) => event.event === "page_view"));

test("a changed build id reloads the page", async ({ page }) => {
  const manifest = "build/client/builds/latest.json";
  const original = readFileSync(manifest, "utf8");
  await page.goto("/about");
  await mounted(page);
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
  // Same id: a check leaves the page alone.
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
  try {
    writeFileSync(manifest, JSON.stringify({ buildId: "a-newer-build" }));
    const reloaded = page.waitForEvent("load");
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await reloaded;
    expect(
      await page.evaluate(() => (window as unknown as { marker?: boolean }).marker),
    ).toBeUndefined();
  } finally {
    writeFileSync(manifest, original);
  }
});

test("a chunk load error reloads once, not again within 10 s", async ({ page }) => {
  await page.goto("/about");
  await mounted(page);
  const chunkError = () =>
    page.evaluate(() => {
      const event = new Event("vite:preloadError", { cancelable: true }) as Event & {
        payload?: unknown;
      };
      event.payload = new TypeError("Failed to fetch dynamically imported module: /assets/gone.js");
      window.dispatchEvent(event);
    });
  const reloaded = page.waitForEvent("load");
  await chunkError();
  await reloaded;
  await mounted(page);
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
  await chunkError();
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
});

test("an error while mounting is logged and shows the generic error screen", async ({ page }) => {
  const messages: string[] = [];
  page.on("console", (message) => messages.push(message.text()));
  // Hide React Router's hydration data so the router cannot mount.
  await page.addInitScript(() => {
    Object.defineProperty(window, "__reactRouterContext", { get: () => undefined, set: () => {} });
  });
  await page.goto("/about");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("問題が発生しました");
  expect(messages.some((text) => text.startsWith("Error while mounting app:"))).toBe(true);
});
