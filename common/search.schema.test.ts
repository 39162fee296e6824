import { describe, expect, it } from "vitest";
import {
  KEYWORD_TOO_LONG_MESSAGE,
  PAST_DATE_MESSAGE,
  parseSearch,
  parseSearchQuery,
} from "./search.schema";
import { searchQueryToParams, withoutEmptyParams } from "./search-query";

const parse = (query: string) => parseSearchQuery(new URLSearchParams(query));

describe("parseSearchQuery", () => {
  it("reads every filter, with repeated features as a list", () => {
    expect(
      parse(
        "q=+渋谷+&area=shibuya&genre=nail&feature=a&feature=b&feature=a&priceMin=3000&priceMax=8000&date=2026-11-24&rating=4&sort=rating&page=2",
      ),
    ).toEqual({
      q: "渋谷",
      area: "shibuya",
      genre: "nail",
      feature: ["a", "b"],
      priceMin: 3000,
      priceMax: 8000,
      date: "2026-11-24",
      rating: 4,
      sort: "rating",
      page: 2,
    });
  });

  it("drops malformed values instead of failing the whole search", () => {
    expect(
      parse(
        "genre=barber&area=../x&feature=BAD!&priceMin=-1&date=2026-13-45&rating=9&sort=x&page=0",
      ),
    ).toEqual({ feature: [], sort: "recommended", page: 1 });
  });

  it("falls back from distance to recommended without a position", () => {
    expect(parse("sort=distance").sort).toBe("recommended");
    expect(parse("sort=distance&lat=35.6&lng=139.7")).toMatchObject({
      sort: "distance",
      lat: 35.6,
    });
  });

  it("writes a query back to a short URL and reads it the same", () => {
    const query = parse("q=カット&feature=a&feature=b&sort=price-asc&page=3");
    const params = searchQueryToParams(query);
    expect(params.toString()).toBe(
      "q=%E3%82%AB%E3%83%83%E3%83%88&sort=price-asc&feature=a&feature=b&page=3",
    );
    expect(parseSearchQuery(params)).toEqual(query);
  });

  it("reads a time-of-day range, dropping malformed or reversed ones", () => {
    expect(parse("date=2026-12-03&from=09:00&to=24:00")).toMatchObject({
      date: "2026-12-03",
      from: "09:00",
      to: "24:00",
    });
    expect(parse("from=9:00&to=25:00")).toMatchObject({ from: undefined, to: undefined });
    expect(parse("from=18:00&to=10:00")).toMatchObject({ from: undefined, to: undefined });
    expect(searchQueryToParams(parse("from=10:00&to=12:00")).toString()).toBe(
      "from=10%3A00&to=12%3A00",
    );
  });

  it("swaps a price range given the wrong way round, and keeps one bound alone", () => {
    expect(parse("priceMin=8000&priceMax=3000")).toMatchObject({ priceMin: 3000, priceMax: 8000 });
    expect(parse("priceMin=5000&priceMax=5000")).toMatchObject({ priceMin: 5000, priceMax: 5000 });
    expect(parse("priceMin=8000").priceMax).toBeUndefined();
    expect(searchQueryToParams(parse("priceMin=8000&priceMax=3000")).toString()).toBe(
      "priceMin=3000&priceMax=8000",
    );
  });
});

describe("parseSearch", () => {
  const today = "2026-11-23";
  it("refuses a past day with a message and keeps it as typed, searching without it", () => {
    const { query, errors, typed } = parseSearch(
      new URLSearchParams("date=2026-11-22&genre=nail"),
      today,
    );
    expect(query.date).toBeUndefined();
    expect(query.genre).toBe("nail");
    expect(errors).toEqual({ date: PAST_DATE_MESSAGE });
    expect(typed).toEqual({ date: "2026-11-22" });
  });

  it("accepts today and later days", () => {
    for (const date of ["2026-11-23", "2027-01-01"]) {
      const { query, errors } = parseSearch(new URLSearchParams({ date }), today);
      expect(query.date).toBe(date);
      expect(errors).toEqual({});
    }
  });
});

describe("withoutEmptyParams", () => {
  it("drops the empty fields a GET form sends, keeping the order of the others", () => {
    expect(
      withoutEmptyParams(
        new URLSearchParams("q=&pref=tokyo&area=&feature=a&feature=&sort=rating"),
      )?.toString(),
    ).toBe("pref=tokyo&feature=a&sort=rating");
  });

  it("drops the default order too", () => {
    expect(withoutEmptyParams(new URLSearchParams("genre=nail&sort=recommended"))?.toString()).toBe(
      "genre=nail",
    );
  });

  it("is null when nothing is empty", () => {
    expect(withoutEmptyParams(new URLSearchParams("pref=tokyo&page=2"))).toBeNull();
    expect(withoutEmptyParams(new URLSearchParams())).toBeNull();
  });
});

describe("a keyword longer than 100 characters", () => {
  it("is searched by its first 100 characters, said so, and kept for the form", () => {
    const long = `渋谷 ${"ネイル ".repeat(35)}`.trim();
    const { query, errors, typed } = parseSearch(new URLSearchParams({ q: long }), "2026-11-24");
    expect([...(query.q ?? "")]).toHaveLength(100);
    expect(long.startsWith(query.q ?? "-")).toBe(true);
    expect(errors.q).toBe(KEYWORD_TOO_LONG_MESSAGE);
    expect(typed.q).toBe(long);
  });

  it("leaves a keyword of 100 characters alone", () => {
    const q = "あ".repeat(100);
    const { query, errors, typed } = parseSearch(new URLSearchParams({ q }), "2026-11-24");
    expect(query.q).toBe(q);
    expect(errors.q).toBeUndefined();
    expect(typed.q).toBeUndefined();
  });
});
