import { createServer, type Server } from "node:http";
import type { Page } from "@playwright/test";
import { MAP_TILE_PORT } from "../../playwright.config";
import { expect, test } from "./fixtures";

/*
 * Issue 31, point 3: the search's map view against a stub tile server
 * (MAP_TILE_URL in playwright.config.ts points here), so no test reaches a
 * real map service. Every /tiles/{z}/{x}/{y}.png is one 1×1 PNG, counted.
 */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
let tileRequests = 0;
let tileServer: Server;

test.beforeAll(async () => {
  tileServer = createServer((request, response) => {
    if (/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(request.url ?? "")) {
      tileRequests += 1;
      response.writeHead(200, { "content-type": "image/png", "cache-control": "no-store" });
      response.end(PNG);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => tileServer.listen(MAP_TILE_PORT, "127.0.0.1", resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => tileServer.close(resolve));
});

/** The map's drawing chunk, which carries Leaflet, and its CSS (named after search-map-leaflet.ts). */
const isLeaflet = (url: string) => /\/assets\/(?:search-map-)?leaflet[^/]*\.(?:js|css)$/.test(url);

function leafletRequests(page: Page) {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (isLeaflet(request.url())) seen.push(request.url());
  });
  return seen;
}

const mapList = (page: Page) => page.getByRole("main").locator("ol > li");

/** The distance of each listed salon in metres, in the list's order. */
async function listedDistances(page: Page, from: string) {
  const texts = await mapList(page).allTextContents();
  return texts.map((text) => {
    const match = new RegExp(`${from}から約([\\d.,]+)(k?m)`).exec(text);
    expect(match, text).not.toBeNull();
    const value = Number(match?.[1]?.replaceAll(",", ""));
    return match?.[2] === "km" ? value * 1000 : value;
  });
}

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px the map view draws the results from the tile server beside the list with distances`, async ({
    page,
    axe,
  }) => {
    await page.setViewportSize(viewport);
    const before = tileRequests;
    await page.goto("/salons/search?area=shinjuku&view=map");
    const switcher = page.getByRole("navigation", { name: "表示の切り替え" });
    await expect(switcher.getByRole("link", { name: "地図" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const count = await mapList(page).count();
    expect(count).toBeGreaterThan(1);
    await expect(page.getByText("距離は新宿の中心からの直線距離です。")).toBeVisible();
    await listedDistances(page, "新宿の中心");

    // One numbered marker per listed salon, named by it; tiles came from the stub.
    const map = page.getByRole("region", { name: /検索結果の地図/ });
    const markers = map.locator(".leaflet-marker-icon");
    await expect(markers).toHaveCount(count);
    const firstName = (await mapList(page).first().getByRole("heading").textContent()) ?? "";
    await expect(map.getByRole("button", { name: `1. ${firstName}` })).toBeVisible();
    await expect(map.locator("img.leaflet-tile-loaded").first()).toBeVisible();
    expect(tileRequests).toBeGreaterThan(before);
    await axe.check();

    // A marker opens a popup that leads to its salon, from the keyboard too.
    await map.getByRole("button", { name: `1. ${firstName}` }).focus();
    await page.keyboard.press("Enter");
    const popupLink = map.locator(".leaflet-popup").getByRole("link", { name: firstName });
    await expect(popupLink).toBeVisible();
    await axe.check();
    await popupLink.click();
    await expect(page.getByRole("heading", { level: 1, name: firstName })).toBeVisible();
  });
}

test("現在地から近い順 on the map lists the nearest first, and the list view never loads Leaflet", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 667 });
  const leaflet = leafletRequests(page);
  // 新宿駅's coordinates: the visitor stands there.
  await page.goto("/salons/search?area=shinjuku&sort=distance&lat=35.6896&lng=139.7006");
  await expect(page.locator("main article").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(leaflet).toEqual([]);
  await expect(page.locator(".leaflet-container")).toHaveCount(0);

  // The switch keeps the order and the position; the map's code loads now, on demand.
  await page
    .getByRole("navigation", { name: "表示の切り替え" })
    .getByRole("link", { name: "地図" })
    .click();
  await expect(page).toHaveURL(/view=map/);
  await expect(page).toHaveURL(/sort=distance&lat=35\.6896&lng=139\.7006/);
  await expect(page.locator(".leaflet-marker-icon").first()).toBeVisible();
  expect(leaflet.length).toBeGreaterThan(0);
  const distances = await listedDistances(page, "現在地");
  expect(distances).toEqual([...distances].sort((a, b) => a - b));

  // Back to the list: the cards again, and the position is still there.
  await page
    .getByRole("navigation", { name: "表示の切り替え" })
    .getByRole("link", { name: "リスト" })
    .click();
  await expect(page).not.toHaveURL(/view=map/);
  await expect(page.locator("main article").first()).toBeVisible();
});

test("the map view works without JavaScript: the list with distances, and paging", async ({
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 375, height: 667 },
  });
  const page = await context.newPage();
  await page.goto("/salons/search?view=map");
  await expect(page.getByText(/地図はJavaScriptで表示されます/)).toBeVisible();
  await listedDistances(page, "検索結果の中心");
  await page.getByRole("link", { name: /次/ }).first().click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/view=map/);
  await listedDistances(page, "検索結果の中心");
  await context.close();
});
