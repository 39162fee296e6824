import { type ReactNode, useEffect, useRef } from "react";
import { Link, useLocation, useNavigate, useNavigation, useNavigationType } from "react-router";
import {
  formatDate,
  formatMonthDayWeekday,
  formatResultCount,
  formatYen,
} from "../../../common/format";
import { genreLabels } from "../../../common/genres";
import type { SearchQuery } from "../../../common/search.schema";
import {
  literalSearchHref,
  searchQueryToParams,
  withTypedKeyword,
} from "../../../common/search-query";
import type { SearchResult } from "../../../server/salons/search";
import type { SearchOptions } from "../../../server/salons/search-page";
import type { SearchSuggestion } from "../../../server/salons/search-suggestions";
import { favoriteState } from "../favorites/favorite-toggle";
import { Pagination } from "../pagination";
import { SalonCardItem } from "./salon-card-item";

const href = (query: Partial<SearchQuery>) => {
  const params = searchQueryToParams(query).toString();
  return params ? `/salons/search?${params}` : "/salons/search";
};

/** The active conditions as removable chips, used to widen an empty search. */
export function activeConditions(query: SearchQuery, options: SearchOptions) {
  const name = <T extends { slug: string; name: string }>(list: T[], slug?: string) =>
    list.find((item) => item.slug === slug)?.name ?? slug;
  const base = { ...query, page: 1 };
  const out: { label: string; href: string }[] = [];
  if (query.q) out.push({ label: `「${query.q}」`, href: href({ ...base, q: undefined }) });
  if (query.pref)
    out.push({
      label: name(options.prefectures, query.pref) ?? "",
      href: href({ ...base, pref: undefined }),
    });
  if (query.area)
    out.push({
      label: name(options.areas, query.area) ?? "",
      href: href({ ...base, area: undefined, station: undefined }),
    });
  if (query.station)
    out.push({
      label: `${name(options.stations, query.station)}駅`,
      href: href({ ...base, station: undefined }),
    });
  if (query.genre)
    out.push({ label: genreLabels[query.genre], href: href({ ...base, genre: undefined }) });
  for (const feature of query.feature) {
    out.push({
      label: name(options.features, feature) ?? feature,
      href: href({ ...base, feature: query.feature.filter((f) => f !== feature) }),
    });
  }
  if (query.priceMin !== undefined)
    out.push({
      label: `${formatYen(query.priceMin)}以上`,
      href: href({ ...base, priceMin: undefined }),
    });
  if (query.priceMax !== undefined)
    out.push({
      label: `${formatYen(query.priceMax)}以下`,
      href: href({ ...base, priceMax: undefined }),
    });
  // A range (今週末) is one condition: one chip removes both its days.
  if (query.date)
    out.push({
      label: query.dateTo
        ? `${formatMonthDayWeekday(query.date)}〜${formatMonthDayWeekday(query.dateTo)}に空席あり`
        : `${formatDate(query.date)}に空席あり`,
      href: href({ ...base, date: undefined, dateTo: undefined }),
    });
  if (query.from || query.to)
    out.push({
      label: `${query.from ?? ""}〜${query.to ?? ""}に開始`,
      href: href({ ...base, from: undefined, to: undefined }),
    });
  if (query.rating !== undefined)
    out.push({
      label: `★${query.rating.toFixed(1)}以上`,
      href: href({ ...base, rating: undefined }),
    });
  return out;
}

export function SearchResults({
  query,
  result,
  options,
  favorites,
  suggestions = [],
  respelledFrom,
  list,
}: {
  query: SearchQuery;
  result: SearchResult;
  options: SearchOptions;
  /** Slugs of the signed-in visitor's favorites (`favoritesAmong`); null for a guest. */
  favorites: string[] | null;
  /** Searches that would find salons, when this one found none. */
  suggestions?: SearchSuggestion[];
  /** The keyword as typed, when this search is its respelling (decision 0060). */
  respelledFrom?: string;
  /** The results shown otherwise than as cards (the map view), between the count and the pages. */
  list?: ReactNode;
}) {
  const loading = useNavigation().state === "loading";
  const conditions = activeConditions(query, options);
  const first = (result.page - 1) * result.pageSize + 1;
  const last = Math.min(result.total, result.page * result.pageSize);
  const heading = useResultsFocus();
  return (
    <section aria-labelledby="search-results-heading" aria-busy={loading}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2
          id="search-results-heading"
          ref={heading}
          tabIndex={-1}
          className="font-bold focus:outline-none"
        >
          {/* In the heading, which takes focus after each search, so a screen
              reader hears that the words were respelled before the count. */}
          {respelledFrom && query.q ? (
            <span className="block">「{query.q}」の検索結果を表示しています</span>
          ) : null}
          {result.total > 0 && result.salons.length > 0
            ? `${formatResultCount(result.total, result.totalIsLowerBound)}中 ${first}〜${last}件を表示`
            : "条件に合うサロンは見つかりませんでした"}
        </h2>
        <NearMeButton query={query} />
      </div>
      {respelledFrom ? (
        <p className="mt-1 text-sm">
          <Link to={literalSearchHref(query, respelledFrom)} className="text-brand-700 underline">
            「{respelledFrom}」で検索する
          </Link>
        </p>
      ) : null}
      {conditions.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label="指定中の条件（選ぶと外れます）">
          {conditions.map((condition) => (
            <li key={condition.href}>
              <Link
                to={condition.href}
                className="inline-block rounded-full border border-neutral-400 px-3 py-1 text-sm hover:bg-neutral-50"
              >
                {condition.label}
                <span aria-hidden="true"> ×</span>
                <span className="sr-only">の条件を外す</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {result.salons.length === 0 ? (
        <div className="mt-6 rounded-lg bg-brand-50 p-6">
          {suggestions.length > 0 ? (
            <>
              <h3 className="font-bold" id="search-suggestions-heading">
                こちらの条件なら見つかります
              </h3>
              <ul
                className="mt-2 mb-4 flex flex-wrap gap-2"
                aria-labelledby="search-suggestions-heading"
              >
                {suggestions.map((suggestion) => (
                  <li key={suggestion.label}>
                    <Link
                      to={href(suggestion.query)}
                      className="inline-block rounded-full border border-brand-700 bg-white px-3 py-1 text-sm text-brand-700 hover:bg-brand-50"
                    >
                      {suggestion.label}（
                      {formatResultCount(suggestion.total, suggestion.totalIsLowerBound)}）
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <p className="font-bold">条件をゆるめて探してみましょう。</p>
          <ul className="mt-2 list-disc pl-6">
            <li>キーワードを短くするか、ひらがな・カタカナを変えてお試しください。</li>
            <li>上の条件を選ぶと、その条件を外して検索し直せます。</li>
            {result.total > 0 ? (
              <li>
                <Link to={href({ ...query, page: 1 })} className="underline">
                  1ページ目に戻る
                </Link>
              </li>
            ) : null}
            <li>
              <Link to="/salons/search" className="underline">
                すべての条件を外して探す
              </Link>
            </li>
          </ul>
        </div>
      ) : list ? (
        list
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-2 sm:mt-4 sm:grid-cols-2 sm:gap-4 xl:grid-cols-3">
          {result.salons.map((salon, index) => (
            <li key={salon.slug}>
              <SalonCardItem
                salon={salon}
                priority={index === 0}
                headingLevel={3}
                freeTimes={result.freeTimes[salon.slug]}
                favorite={favoriteState(favorites, salon.slug)}
              />
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={result.page}
        total={result.total}
        pageSize={result.pageSize}
        hrefFor={(page) => withTypedKeyword(href({ ...query, page }), respelledFrom)}
      />
    </section>
  );
}

/**
 * After each search the app ran (form, chip, page link, back and forward),
 * focus moves to the results heading, so a screen reader reads the count
 * and the keyboard continues from the results. Not on the page's own load:
 * there the browser starts from the top as usual.
 */
function useResultsFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  const { search } = useLocation();
  const navigationType = useNavigationType();
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per search (the URL's query)
  useEffect(() => {
    const firstRender = !mounted.current;
    mounted.current = true;
    // A first render after PUSH/REPLACE is a search from another page (the header's box).
    if (firstRender && navigationType === "POP") return;
    heading.current?.focus();
  }, [search]);
  return heading;
}

/** Distance order needs the visitor's position, which only the browser can ask for. */
function NearMeButton({ query }: { query: SearchQuery }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="rounded border border-brand-700 px-3 py-1 text-sm text-brand-700 hover:bg-brand-50"
      onClick={() => {
        if (!("geolocation" in navigator)) return;
        navigator.geolocation.getCurrentPosition((position) => {
          const lat = Math.round(position.coords.latitude * 1e4) / 1e4;
          const lng = Math.round(position.coords.longitude * 1e4) / 1e4;
          navigate(href({ ...query, lat, lng, sort: "distance", page: 1 }));
        });
      }}
    >
      {/* Shorter on a phone, so the count and the button share one line above the results. */}
      現在地から近い順<span className="max-sm:hidden">に並べる</span>
    </button>
  );
}
