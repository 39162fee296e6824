import type { SearchQuery } from "./search.schema";

/*
 * The parts of the search query the browser needs to build links and the
 * sort menu, kept apart from the Zod schema (search.schema.ts) so the search
 * page's client bundle does not carry the Zod runtime for a list and a
 * URL writer.
 */

export const searchSorts = [
  "recommended",
  "rating",
  "price-asc",
  "price-desc",
  "distance",
] as const;
export type SearchSort = (typeof searchSorts)[number];

/** `view=map`: the results on a map (issue 31). The list has no value: it is the default. */
export const searchViews = ["map"] as const;

/** A date range (`date` to `dateTo`) spans at most this many days, both ends counted. */
export const SEARCH_DATE_RANGE_DAYS = 7;

/** The URL of a search, omitting defaults so links stay short and canonical. */
export function searchQueryToParams(query: Partial<SearchQuery>): URLSearchParams {
  const params = new URLSearchParams();
  const entries: [string, unknown][] = [
    ["q", query.q],
    ["pref", query.pref],
    ["area", query.area],
    ["station", query.station],
    ["genre", query.genre],
    ["priceMin", query.priceMin],
    ["priceMax", query.priceMax],
    ["date", query.date],
    ["dateTo", query.dateTo],
    ["from", query.from],
    ["to", query.to],
    ["rating", query.rating],
    ["sort", query.sort === "recommended" ? undefined : query.sort],
    ["lat", query.lat],
    ["lng", query.lng],
  ];
  for (const [key, value] of entries) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  for (const feature of query.feature ?? []) params.append("feature", feature);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  if (query.view) params.set("view", query.view);
  return params;
}

/**
 * The same query without its empty values (a GET form sends every field,
 * `?q=&pref=&…`) and without the default order, or null when there were
 * none: shared links stay short, one URL per search.
 */
export function withoutEmptyParams(params: URLSearchParams): URLSearchParams | null {
  const entries = [...params];
  const kept = entries.filter(
    ([key, value]) => value !== "" && !(key === "sort" && value === "recommended"),
  );
  return kept.length === entries.length ? null : new URLSearchParams(kept);
}

/**
 * `typed`: the keyword as the visitor typed it, on the search it was
 * respelled to (q=表参道&typed=表参堂: decision 0060), so the page can say
 * 「表参道」の検索結果を表示しています and offer the words as typed. Only a
 * keyword that respells to `q` is kept (the page drops any other).
 */
export const SEARCH_TYPED_PARAM = "typed";
/** `literal=1`: search the words as typed, even when nothing matches them (no respelling). */
export const SEARCH_LITERAL_PARAM = "literal";

/** 「表参堂」で検索する: the same search with the words as typed, never respelled. */
export function literalSearchHref(query: Partial<SearchQuery>, typed: string): string {
  const params = searchQueryToParams({ ...query, q: typed, page: 1 });
  params.set(SEARCH_LITERAL_PARAM, "1");
  return `/salons/search?${params}`;
}

/** A search link that keeps saying which words the respelled search came from (a later page). */
export function withTypedKeyword(href: string, typed: string | undefined): string {
  if (!typed) return href;
  return `${href}${href.includes("?") ? "&" : "?"}${new URLSearchParams({ [SEARCH_TYPED_PARAM]: typed })}`;
}
