import { describe, expect, it } from "vitest";
import { PAST_DATE_MESSAGE, parseSearch, parseSearchQuery } from "./search.schema";
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
