import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { SearchForm } from "../../app/components/salons/search-form";
import { activeConditions } from "../../app/components/salons/search-results";
import * as searchRoute from "../../app/routes/salons.search";
import * as countRoute from "../../app/routes/salons.search.count";
import { formatDate, formatMonthDayWeekday } from "../../common/format";
import { addDays, toLocal, weekdayOf } from "../../common/local-time";
import { parseSearchQuery, type SearchQuery } from "../../common/search.schema";
import { refreshSalonAvailability } from "../../server/bookings/free-days.server";
import { FREE_DAYS_HORIZON } from "../../server/bookings/free-times";
import { areas } from "../../server/db/schema";
import { seedDatabase } from "../../server/db/seed/seed";
import { countSalons, type SearchResult, searchSalons } from "../../server/salons/search";
import type { SearchOptions } from "../../server/salons/search-page";
import { suggestSearches } from "../../server/salons/search-suggestions";
import { withQueryWords } from "../../server/search/query-words";
import { browser } from "../support/accounts";
import { buildSalonWithStaff } from "../support/builders";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

/**
 * Dates, times and prices typed in the keyword box (decision 0059) against
 * the demo data, whose free-time summary is written from the real clock:
 * the pages read that clock too, so this file does as well (once).
 */
const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;
const NOW = new Date();
const today = toLocal(NOW, "Asia/Tokyo").date;
const tomorrow = addDays(today, 1);
// The coming weekend as the decision defines it, computed here on its own.
const weekday = weekdayOf(today);
const saturday = weekday === 6 ? today : addDays(today, (6 - weekday + 7) % 7);
const weekend = weekday === 0 ? { date: today } : { date: saturday, dateTo: addDays(saturday, 1) };
/** A salon of 新宿 working 10:00–20:00 every day, with a カット menu (buildSalonWithStaff). */
const LATE_SALON = "query-words-late";

beforeAll(async () => {
  await seedDatabase(database.db, { salonCount: 30, now: NOW });
  // One salon in 新宿 free tomorrow evening whatever the weekday (the demo salons close early some days).
  const [shinjuku] = await database.db
    .select({ id: areas.id })
    .from(areas)
    .where(eq(areas.slug, "shinjuku"));
  const { salon } = await buildSalonWithStaff(database.db, {
    salon: { slug: LATE_SALON, areaId: shinjuku?.id },
  });
  await refreshSalonAvailability(database.db, salon.id, [tomorrow], NOW);
  env = createRouteApp(database, [
    { path: "/salons/search", module: searchRoute },
    { path: "/salons/search/count", module: countRoute },
  ]);
}, 120_000);

const query = (params: string | URLSearchParams) => parseSearchQuery(new URLSearchParams(params));
const search = (q: SearchQuery) => searchSalons(database.db, q, 200, NOW);
const slugs = (result: SearchResult) => result.salons.map((salon) => salon.slug).sort();
/** The search URL the keyword's words turn into. */
const worded = (q: string) => withQueryWords(new URLSearchParams({ q }), NOW);

describe("typed words find what their filters find", () => {
  it("明日 19時以降 カット 新宿 = カット 新宿 with tomorrow from 19:00", async () => {
    const params = worded("明日 19時以降 カット 新宿");
    expect(Object.fromEntries(params ?? [])).toEqual({
      q: "カット 新宿",
      date: tomorrow,
      from: "19:00",
    });
    const typed = await search(query(params ?? ""));
    const chosen = await search(query(`q=カット 新宿&date=${tomorrow}&from=19:00`));
    expect(slugs(typed)).toContain(LATE_SALON);
    expect(slugs(typed)).toEqual(slugs(chosen));
    // Each card shows tomorrow's times from 19:00.
    for (const salon of typed.salons) {
      const free = typed.freeTimes[salon.slug];
      expect(free?.date).toBe(tomorrow);
      expect(free?.times.every((time) => time >= "19:00")).toBe(true);
    }
  });

  it("今週末 渋谷 = 渋谷 free on the coming Saturday or Sunday", async () => {
    const params = worded("今週末 渋谷");
    expect(Object.fromEntries(params ?? [])).toEqual({ q: "渋谷", ...weekend });
    const range = await search(query(params ?? ""));
    // On a Sunday the weekend is today alone, and by the evening the demo salons have nothing
    // left (they close at 20:00 at the latest): then the typed words must still find exactly
    // what the date filter finds, which is nothing. Any other day the range has a whole day.
    if (weekday !== 0) expect(range.total).toBeGreaterThan(0);
    // Any day of the range: exactly the salons of one day or the other.
    const days = [weekend.date, ...(weekend.dateTo ? [weekend.dateTo] : [])];
    const eachDay = await Promise.all(days.map((day) => search(query(`q=渋谷&date=${day}`))));
    expect(slugs(range)).toEqual([...new Set(eachDay.flatMap(slugs))].sort());
    for (const salon of range.salons) {
      const free = range.freeTimes[salon.slug];
      expect(days).toContain(free?.date);
      // The first free day of the range: a salon free on both shows the first.
      if (eachDay[0] && slugs(eachDay[0]).includes(salon.slug)) expect(free?.date).toBe(days[0]);
    }
  });

  it("3000円以下 ネイル = ネイル with the price at most 3,000 yen", async () => {
    const params = worded("3000円以下 ネイル");
    expect(Object.fromEntries(params ?? [])).toEqual({ q: "ネイル", priceMax: "3000" });
    const typed = await search(query(params ?? ""));
    expect(typed.total).toBeGreaterThan(0);
    expect(typed.total).toBeLessThan((await search(query("q=ネイル"))).total);
    expect(slugs(typed)).toEqual(slugs(await search(query("q=ネイル&priceMax=3000"))));
    expect(typed.salons.every((salon) => salon.priceMin <= 3000)).toBe(true);
  });

  it("a name with such a character stays a keyword", () => {
    expect(worded("夜桜サロン")).toBeNull();
    expect(worded("土日営業 ネイル")).toBeNull();
  });
});

describe("a range beyond the free-time summary", () => {
  const lastSummarized = addDays(today, FREE_DAYS_HORIZON - 1);
  const union = async (days: string[]) => {
    const found = await Promise.all(days.map((day) => search(query(`date=${day}&from=10:00`))));
    return [...new Set(found.flatMap(slugs))].sort();
  };

  it("is any day of it open, as the one-day fallback reads each", async () => {
    const days = [0, 1, 2].map((n) => addDays(lastSummarized, 20 + n));
    const range = await search(query(`date=${days[0]}&dateTo=${days[2]}&from=10:00`));
    expect(range.total).toBeGreaterThan(0);
    expect(slugs(range)).toEqual(await union(days));
  });

  it("across the horizon's end, reads the summary inside and the opening hours after", async () => {
    const days = [-1, 0, 1, 2].map((n) => addDays(lastSummarized, n));
    const range = await search(query(`date=${days[0]}&dateTo=${days[3]}&from=10:00`));
    expect(range.total).toBeGreaterThan(0);
    expect(slugs(range)).toEqual(await union(days));
  });
});

it("「日付の指定を外す」 drops a range whole", async () => {
  const range = `date=${addDays(today, 3)}&dateTo=${addDays(today, 4)}`;
  const q = `q=${encodeURIComponent("Hair Salon TEST")}`;
  expect((await search(query(`${q}&${range}`))).total).toBe(0);
  const suggestions = await suggestSearches(database.db, query(`${q}&${range}`));
  const withoutDate = suggestions.find((s) => s.label === "日付の指定を外す");
  expect(withoutDate).toMatchObject({ total: 1, query: { date: undefined, dateTo: undefined } });
});

describe("the search page and the phone dialog's count", () => {
  type Page = { loaderData: { query: SearchQuery; options: SearchOptions; result: SearchResult } };
  const open = async (path: string) => {
    const response = await browser(env.app).request(path);
    return { response, page: response.ok ? ((await response.json()) as Page) : undefined };
  };
  const chips = (page: Page | undefined) =>
    page
      ? activeConditions(page.loaderData.query, page.loaderData.options).map((c) => c.label)
      : [];

  it("redirects the words to filters, shown as chips, and counts the same", async () => {
    const typed = encodeURIComponent("明日 19時以降 カット 新宿");
    const { response } = await open(`/salons/search?q=${typed}&page=2`);
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    expect(location).toBe(
      `/salons/search?q=%E3%82%AB%E3%83%83%E3%83%88+%E6%96%B0%E5%AE%BF&date=${tomorrow}&from=19%3A00`,
    );
    const { page } = await open(location);
    expect(chips(page)).toEqual([
      "「カット 新宿」",
      `${formatDate(tomorrow)}に空席あり`,
      "19:00〜に開始",
    ]);
    const total = page?.loaderData.result.total;
    expect(total).toBeGreaterThan(0);
    const count = await browser(env.app).request(`/salons/search/count?q=${typed}`);
    expect(await count.json()).toEqual({ total });
    expect(total).toBe(await countSalons(database.db, query(location.split("?")[1] ?? ""), NOW));
  });

  it("shows a range as one chip that removes both days", async () => {
    const { response } = await open(`/salons/search?q=${encodeURIComponent("今週末 渋谷")}`);
    expect(response.status).toBe(302);
    const { page } = await open(response.headers.get("location") ?? "");
    const conditions = page ? activeConditions(page.loaderData.query, page.loaderData.options) : [];
    const label = weekend.dateTo
      ? `${formatMonthDayWeekday(weekend.date)}〜${formatMonthDayWeekday(weekend.dateTo)}に空席あり`
      : `${formatDate(weekend.date)}に空席あり`;
    const chip = conditions.find((condition) => condition.label === label);
    expect(chip?.href).toBe(`/salons/search?q=${encodeURIComponent("渋谷")}`);
    // The form shows the range's last day in its own field, kept by a new search.
    if (!page) throw new Error("no page");
    const form = renderToString(
      createElement(RouterProvider, {
        router: createMemoryRouter([
          {
            path: "/",
            element: createElement(SearchForm, {
              query: page.loaderData.query,
              errors: {},
              typed: {},
              today,
              options: page.loaderData.options,
            }),
          },
        ]),
      }),
    );
    expect(form).toContain(`name="date" value="${weekend.date}"`);
    expect(form).toContain(
      weekend.dateTo ? `name="dateTo" value="${weekend.dateTo}"` : `name="dateTo" value=""`,
    );
  });

  it("lets the typed date win over the form's range", async () => {
    const { response } = await open(
      `/salons/search?q=${encodeURIComponent("明日")}&date=${addDays(today, 3)}&dateTo=${addDays(today, 5)}&genre=nail`,
    );
    expect(response.headers.get("location")).toBe(`/salons/search?date=${tomorrow}&genre=nail`);
  });
});
