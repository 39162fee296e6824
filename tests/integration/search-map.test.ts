import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as searchRoute from "../../app/routes/salons.search";
import { formatMonthDayWeekday, formatYen } from "../../common/format";
import { calendarDay } from "../../common/local-time";
import { loadConfig } from "../../server/config";
import { salonFreeDays } from "../../server/db/schema";
import { createHttpApp } from "../../server/http/app";
import { createLogger } from "../../server/logger";
import type { SearchMap } from "../../server/salons/search-map-data";
import { ORIGIN } from "../support/accounts";
import { buildArea, buildMenu, buildReview, buildSalon, buildStation } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

// Issue 31, point 3: the results on a map (view=map), only with a tile server.
const database = withTestDatabase();
const TILES = "https://tiles.example.jp/osm/{z}/{x}/{y}.png";
const withTiles = { MAP_TILE_URL: TILES, MAP_TILE_ATTRIBUTION: "© 地図のテスト" };
let listOnly: ReturnType<typeof createRouteApp>;
let mapped: ReturnType<typeof createRouteApp>;
let full: Awaited<ReturnType<typeof createFullApp>>;

/*
 * 地図町 with two stations, 北駅 (35.70, 139.70) and 南駅 (35.68, 139.70):
 * its centre is 35.69. 北サロン stands 330 m south of 北駅, 南サロン at 南駅.
 */
beforeAll(async () => {
  const { db } = database;
  const area = await buildArea(db, { slug: "map-town", name: "地図町" });
  const northStation = await buildStation(db, area.id, {
    slug: "map-north",
    name: "北",
    latitude: 35.7,
    longitude: 139.7,
  });
  const southStation = await buildStation(db, area.id, {
    slug: "map-south",
    name: "南",
    latitude: 35.68,
    longitude: 139.7,
  });
  const north = await buildSalon(db, {
    slug: "map-north-salon",
    name: "北サロン",
    areaId: area.id,
    stationId: northStation.id,
    latitude: 35.697,
    longitude: 139.7,
  });
  const south = await buildSalon(db, {
    slug: "map-south-salon",
    name: "南サロン",
    areaId: area.id,
    stationId: southStation.id,
    latitude: 35.68,
    longitude: 139.7,
  });
  await buildMenu(db, north.id, { price: 4400 });
  await buildMenu(db, south.id, { price: 3000 });
  await buildReview(db, north.id, { rating: 4 });
  const tomorrow = calendarDay(new Date(Date.now() + 86_400_000), "Asia/Tokyo");
  await db.insert(salonFreeDays).values({
    salonId: north.id,
    date: tomorrow,
    freeMinutes: [600, 630, 660],
    firstFreeMinute: 600,
    lastFreeMinute: 660,
    freeSlotsCount: 3,
    updatedAt: new Date(),
  });
  const routes = [{ path: "/salons/search", module: searchRoute }];
  listOnly = createRouteApp(database, routes);
  mapped = createRouteApp(database, routes, withTiles);
  full = await createFullApp(database, { PUBLIC_URL: ORIGIN, ...withTiles });
});
afterAll(async () => {
  await full?.close();
});

type SearchData = { tiles: { url: string } | null; map: SearchMap | null };

async function searchData(app: ReturnType<typeof createRouteApp>, query: string) {
  const response = await app.app.request(`${ORIGIN}/salons/search?${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()).loaderData as SearchData;
}

const distances = (map: SearchMap | null) =>
  Object.fromEntries((map?.points ?? []).map((point) => [point.slug, point.distance]));

describe("without a tile server (MAP_TILE_URL unset)", () => {
  it("is a list, and view=map redirects to the same search without it", async () => {
    const list = await searchData(listOnly, "area=map-town");
    expect(list).toMatchObject({ tiles: null, map: null });
    const response = await listOnly.app.request(
      `${ORIGIN}/salons/search?area=map-town&view=map&sort=rating`,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/salons/search?area=map-town&sort=rating");
  });
});

describe("with a tile server", () => {
  it("keeps the list the default: no positions are read for it", async () => {
    const list = await searchData(mapped, "area=map-town");
    expect(list.tiles?.url).toBe(TILES);
    expect(list.map).toBeNull();
  });

  it("sends an unknown view to the list", async () => {
    const response = await mapped.app.request(`${ORIGIN}/salons/search?area=map-town&view=globe`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/salons/search?area=map-town");
  });

  it("counts distances from the searched station, the area's centre or the results' middle", async () => {
    const station = await searchData(mapped, "area=map-town&station=map-north&view=map");
    expect(station.map?.origin).toMatchObject({ kind: "station", label: "北駅" });
    // The station narrows the search to its salons.
    expect(distances(station.map)).toEqual({ "map-north-salon": "北駅から約330m" });
    const area = await searchData(mapped, "area=map-town&view=map");
    expect(area.map?.origin).toMatchObject({ kind: "area", label: "地図町の中心" });
    expect(distances(area.map)["map-south-salon"]).toBe("地図町の中心から約1.1km");
    // The keyword names no place: the middle of the results, said as such.
    const middle = await searchData(mapped, "q=%E3%82%B5%E3%83%AD%E3%83%B3&view=map");
    expect(middle.map?.origin?.kind).toBe("results");
    expect(Object.values(distances(middle.map))).toContain("検索結果の中心から約950m");
  });

  it("counts from the visitor's position and keeps 現在地から近い順 on the map", async () => {
    const near = await searchData(
      mapped,
      "area=map-town&sort=distance&lat=35.68&lng=139.7&view=map",
    );
    expect(near.map?.origin).toMatchObject({ kind: "position", label: "現在地" });
    expect(near.map?.points.map((point) => [point.slug, point.distance])).toEqual([
      ["map-south-salon", "現在地から約10m"],
      ["map-north-salon", "現在地から約1.9km"],
    ]);
  });
});

/** The page's visible words: no scripts, no styles, no tags. */
const visibleText = (html: string) =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ");

/** The リスト / 地図 links: each one's href and whether it is the current view. */
function switchLinks(html: string) {
  const nav = /<nav aria-label="表示の切り替え">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  const links: Record<string, { href: string; current: boolean }> = {};
  for (const [, attributes = "", label = ""] of nav.matchAll(/<a ([^>]*)>([^<]*)<\/a>/g)) {
    links[label] = {
      href: /href="([^"]*)"/.exec(attributes)?.[1] ?? "",
      current: attributes.includes('aria-current="page"'),
    };
  }
  return links;
}

async function page(pathAndQuery: string) {
  const response = await full.app.request(`${ORIGIN}${pathAndQuery}`);
  expect(response.status, pathAndQuery).toBe(200);
  return response.text();
}

describe("the rendered search page", () => {
  it("offers リスト / 地図, the current one marked, carrying the search", async () => {
    const list = switchLinks(await page("/salons/search?area=map-town&sort=rating"));
    expect(list).toEqual({
      リスト: { href: "/salons/search?area=map-town&amp;sort=rating", current: true },
      地図: { href: "/salons/search?area=map-town&amp;sort=rating&amp;view=map", current: false },
    });
    const map = switchLinks(await page("/salons/search?area=map-town&sort=rating&view=map"));
    expect(map.リスト?.current).toBe(false);
    expect(map.地図?.current).toBe(true);
  });

  it("keeps each list card's name, place, rating, price and next free times", async () => {
    const html = await page("/salons/search?area=map-town");
    const card = html.split("<article").find((part) => part.includes(">北サロン<"));
    const text = visibleText(`<article${card?.split("</article>")[0]}`);
    expect(text).toContain("北サロン");
    expect(text).toContain("地図町・北駅");
    expect(text).toMatch(/★\s*評価\s*4\.0/);
    expect(text).toContain(`${formatYen(4400)}〜`);
    const tomorrow = calendarDay(new Date(Date.now() + 86_400_000), "Asia/Tokyo");
    expect(text).toContain("空席あり");
    expect(text).toContain(formatMonthDayWeekday(tomorrow));
    expect(text).toMatch(/10:00\s*10:30\s*11:00/);
    // One card per salon: the phone's compact card is the same markup, restyled.
    expect(html.match(/>北サロン<\/a>/g)).toHaveLength(1);
  });

  it("shows the map view's results as a numbered list with distances, and no cards", async () => {
    const html = await page("/salons/search?area=map-town&station=map-north&view=map");
    const text = visibleText(html);
    expect(text).toContain("距離は北駅からの直線距離です。");
    expect(text).toMatch(
      new RegExp(`1北サロン地図町・北駅★評価4\\.0（口コミ1件）${formatYen(4400)}〜北駅から約330m`),
    );
    expect(html).toContain('aria-label="検索結果の地図（番号は一覧の番号です）"');
    expect(html).not.toContain("<article");
    // The list is the canonical page of the same results.
    expect(html).toMatch(
      /<link rel="canonical" href="[^"]*\/salons\/search\?area=map-town&amp;station=map-north"/,
    );
  });
});

describe("the Content-Security-Policy", () => {
  const clientDir = mkdtempSync(path.join(tmpdir(), "search-map-client-"));
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
  const policy = async (env: Record<string, string>) => {
    const app = createHttpApp({
      config: loadConfig(env),
      database,
      log: createLogger("silent"),
      handleRequest: async () => new Response("<p>ok</p>"),
      clientDir,
    });
    const response = await app.request("/salons/search?view=map");
    return response.headers.get("content-security-policy") ?? "";
  };

  it("lets the page draw images from the tile server's origin only when one is set", async () => {
    const imgSrc = (csp: string) => /img-src ([^;]*)/.exec(csp)?.[1]?.split(" ") ?? [];
    expect(imgSrc(await policy(withTiles))).toContain("https://tiles.example.jp");
    expect(imgSrc(await policy({}))).toEqual(["'self'", "data:", "blob:"]);
  });

  it("refuses a tile URL without {z}/{x}/{y} or with subdomains at start", () => {
    expect(() => loadConfig({ MAP_TILE_URL: "https://tiles.example.jp/tile.png" })).toThrow(
      /MAP_TILE_URL/,
    );
    expect(() =>
      loadConfig({ MAP_TILE_URL: "https://{s}.tiles.example.jp/{z}/{x}/{y}.png" }),
    ).toThrow(/MAP_TILE_URL/);
  });
});
