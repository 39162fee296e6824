import { useState } from "react";
import { redirect, useLocation } from "react-router";
import { formatResultCount, SITE_TIME_ZONE } from "../../common/format";
import { calendarDay } from "../../common/local-time";
import { publicPageHeaders } from "../../common/page-cache";
import { parseSearch } from "../../common/search.schema";
import {
  SEARCH_LITERAL_PARAM,
  searchQueryToParams,
  withoutEmptyParams,
} from "../../common/search-query";
import { appContext } from "../../server/context";
import { favoritesAmong } from "../../server/favorites/favorites.server";
import {
  readSpelling,
  respelledSearchParams,
  withoutUnknownSpelling,
} from "../../server/salons/search-correction";
import { loadSearchMap, mapTilesOf } from "../../server/salons/search-map-data";
import { loadSearchPage, withoutUnknownFilters } from "../../server/salons/search-page";
import { wordedSearchParams } from "../../server/salons/search-words";
import { SearchCorrectionNotice } from "../components/salons/search-correction";
import { SEARCH_FILTERS_ID, SearchFilterBar } from "../components/salons/search-filter-bar";
import { SearchForm } from "../components/salons/search-form";
import { SearchMapView } from "../components/salons/search-map-view";
import { activeConditions, SearchResults } from "../components/salons/search-results";
import { SearchViewSwitch } from "../components/salons/search-view-switch";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/salons.search";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { query, result, options, spelling } = loaderData;
  const conditions = activeConditions(query, options).map((condition) => condition.label);
  const subject = conditions.length > 0 ? conditions.join("・") : "すべてのサロン";
  // The map view is the same results: the list is the canonical page. A
  // respelled search (typed=…) is the plain search's page.
  const params = searchQueryToParams({
    ...query,
    lat: undefined,
    lng: undefined,
    view: undefined,
  });
  // The words as typed on request (literal=1): without it this URL would be
  // respelled, so it is its own canonical page, kept out of the index (decision 0060).
  if (spelling.literal) params.set(SEARCH_LITERAL_PARAM, "1");
  const tags = pageMeta({
    title: `${subject}の検索結果${query.page > 1 ? `（${query.page}ページ目）` : ""}`,
    description: `${subject}の条件に合うサロン${formatResultCount(result.total, result.totalIsLowerBound)}。口コミ評価・価格・エリアから比較して、そのままネット予約できます。`,
    path: params.size > 0 ? `/salons/search?${params}` : "/salons/search",
    origin: originFromMatches(matches),
  });
  return spelling.literal ? [...tags, { name: "robots", content: "noindex" }] : tags;
};

// Anonymous visitors share this page for a few seconds (decision 0007).
export const headers = publicPageHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  // May lag a moment: the replica, when there is one (decision 0074).
  const { readDb: db } = ctx;
  const { searchParams } = new URL(request.url);
  // A GET form sends its empty fields too: one canonical, shareable URL without them.
  const canonical = withoutEmptyParams(searchParams);
  if (canonical) throw redirect(searchHref(canonical));
  const known = await withoutUnknownFilters(db, searchParams);
  if (known) throw redirect(searchHref(known));
  const spelled = await withoutUnknownSpelling(db, searchParams);
  if (spelled) throw redirect(searchHref(spelled));
  const now = new Date();
  // 明日 19時以降 typed in the keyword box: the same search with those words as filters (decision 0059).
  const worded = await wordedSearchParams(db, searchParams, now);
  if (worded) throw redirect(searchHref(worded));
  const today = calendarDay(now, SITE_TIME_ZONE);
  const { query, errors, typed } = parseSearch(searchParams, today);
  // No tiles (MAP_TILE_URL unset) or an unknown view: the same search as the list, at its URL.
  const tiles = mapTilesOf(ctx.config);
  if (searchParams.has("view") && (!tiles || !query.view)) {
    const params = new URLSearchParams(searchParams);
    params.delete("view");
    throw redirect(searchHref(params));
  }
  const spelling = readSpelling(searchParams);
  const { result, options, suggestions, correction, respell } = await loadSearchPage(
    db,
    query,
    now,
    spelling,
  );
  // 表参堂 found nothing, 表参道 finds salons: that search, at its own URL, saying so (decision 0060).
  if (respell && query.q) {
    throw redirect(searchHref(respelledSearchParams(searchParams, query.q, respell)));
  }
  // Past the last page: the last page itself, at its own URL (no results: page 1, the empty state).
  const lastPage = Math.max(1, Math.ceil(result.total / result.pageSize));
  if (query.page > lastPage) {
    const params = new URLSearchParams(searchParams);
    if (lastPage > 1) params.set("page", String(lastPage));
    else params.delete("page");
    throw redirect(searchHref(params));
  }
  // A guest's hearts are sign-in links, so the shared (cached) page holds nothing personal.
  const favorites = await favoritesAmong(
    request,
    ctx,
    result.salons.map((salon) => salon.slug),
  );
  // Positions only for the map view: the list's cards stay as they are.
  const map =
    query.view === "map"
      ? await loadSearchMap(
          db,
          query,
          result.salons.map((salon) => salon.slug),
        )
      : null;
  return {
    query,
    errors,
    typed,
    today,
    result,
    options,
    favorites,
    suggestions,
    correction,
    spelling,
    tiles,
    map,
  };
}

const searchHref = (params: URLSearchParams) =>
  params.size > 0 ? `/salons/search?${params}` : "/salons/search";

export default function SalonSearch({ loaderData }: Route.ComponentProps) {
  const {
    query,
    errors,
    typed,
    today,
    result,
    options,
    favorites,
    suggestions,
    correction,
    spelling,
    tiles,
    map,
  } = loaderData;
  const { search } = useLocation();
  // One search form at a time: the page's own, or the phone dialog's while it
  // is open. Open for the search it was opened on: any new search closes it.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const dialogOpen = openedOn === search;
  const formProps = { query, errors, typed, today, options };
  return (
    <div className="mx-auto max-w-6xl px-4 py-4 sm:py-8">
      {/* Tight on a phone, so three results fit the first screen (issue 31). */}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-bold sm:text-2xl">サロンを探す</h1>
        {tiles ? <SearchViewSwitch query={query} /> : null}
      </div>
      {/* Results first (issue 17): on a phone they lead and the form follows them;
          on the two-column layout the form is placed in the left column. */}
      <div className="mt-3 grid grid-cols-1 gap-8 sm:mt-6 lg:grid-cols-[18rem_1fr]">
        <div className="min-w-0 lg:col-start-2 lg:row-start-1">
          <SearchFilterBar
            {...formProps}
            total={result.total}
            chosen={activeConditions(query, options).length}
            open={dialogOpen}
            onOpenChange={(open) => setOpenedOn(open ? search : null)}
          />
          {/* On a phone the form is below the results: say it where the results start too. */}
          {errors.q ? (
            <p className="mb-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
              {errors.q}
            </p>
          ) : null}
          <SearchCorrectionNotice correction={correction} />
          <SearchResults
            query={query}
            result={result}
            options={options}
            favorites={favorites}
            suggestions={suggestions}
            respelledFrom={spelling.typed}
            list={
              map && tiles ? (
                <SearchMapView salons={result.salons} map={map} tiles={tiles} />
              ) : undefined
            }
          />
        </div>
        <section
          id={SEARCH_FILTERS_ID}
          aria-labelledby="search-filters-heading"
          className="scroll-mt-4 lg:col-start-1 lg:row-start-1"
        >
          <h2 id="search-filters-heading" className="mb-3 text-lg font-bold lg:sr-only">
            絞り込み条件
          </h2>
          {/* Keyed by the URL so the controls show the conditions after back/forward. */}
          {dialogOpen ? null : <SearchForm key={search} {...formProps} />}
        </section>
      </div>
    </div>
  );
}
