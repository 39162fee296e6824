import { and, count, inArray } from "drizzle-orm";
import type { SearchQuery } from "../../common/search.schema";
import type { Database } from "../db/client";
import { salons } from "../db/schema";
import { loadLexicon } from "../search/keyword";
import { type PlaceRow, type Term, understandQuery, withoutTerms } from "../search/understand";
import { countSalons, searchConditions, understandKeyword } from "./search";

/** A search that would find salons where the visitor's found none. */
export type SearchSuggestion = {
  label: string;
  query: SearchQuery;
  total: number;
  /** Past SUGGESTION_COUNT_CAP the count stops: "100件以上". */
  totalIsLowerBound?: boolean;
};

const MAX_NEARBY_STATIONS = 3;
/** Stations tried for "nearby": the closest ones, counted in one query. */
const NEARBY_CANDIDATES = 20;
const MAX_SUGGESTIONS = 6;
/**
 * A suggestion says "100件以上" past this: it only has to show that the
 * broader search finds salons, and each count reads up to cap + 1 rows, for
 * up to six suggestions on every search that found nothing (decision 0021).
 */
export const SUGGESTION_COUNT_CAP = 100;

/**
 * For a search that found nothing: the same words without the place, the
 * nearest stations that have such salons, and the search without one of its
 * conditions, each with how many salons it finds (only those that find
 * some). Runs a few count queries, and only for an empty result.
 */
export async function suggestSearches(
  db: Database,
  query: SearchQuery,
  featureNames: ReadonlyMap<string, string> = new Map(),
  countCap: number = SUGGESTION_COUNT_CAP,
): Promise<SearchSuggestion[]> {
  const lexicon = await loadLexicon(db);
  const terms = query.q ? understandQuery(query.q, lexicon) : [];
  const base: SearchQuery = { ...query, page: 1 };
  const isPlace = (term: Term) => term.kind === "place";
  const hasPlace = terms.some(isPlace) || Boolean(query.pref || query.area || query.station);
  const withoutPlace: SearchQuery = {
    ...base,
    q: withoutTerms(terms, isPlace) || undefined,
    pref: undefined,
    area: undefined,
    station: undefined,
  };

  const candidates: { label: string; query: SearchQuery }[] = [];
  if (hasPlace && hasAnyCondition(withoutPlace)) {
    candidates.push({ label: "エリアを指定せずに探す", query: withoutPlace });
  }
  const found = hasPlace
    ? await nearbyWithSalons(db, lexicon.places, terms, query, withoutPlace)
    : [];

  // Fewer conditions: each word of the keyword that is not the place, and each filter.
  const keywordTerms = terms.filter((term) => !isPlace(term));
  if (terms.length > 1) {
    for (const term of keywordTerms) {
      candidates.push({
        label: `「${term.typed}」を外す`,
        query: { ...base, q: withoutTerms(terms, (t) => t === term) || undefined },
      });
    }
  }
  if (query.genre)
    candidates.push({ label: "ジャンルの指定を外す", query: { ...base, genre: undefined } });
  for (const feature of query.feature) {
    candidates.push({
      label: `「${featureNames.get(feature) ?? feature}」を外す`,
      query: { ...base, feature: query.feature.filter((f) => f !== feature) },
    });
  }
  if (query.priceMin !== undefined || query.priceMax !== undefined) {
    candidates.push({
      label: "価格の指定を外す",
      query: { ...base, priceMin: undefined, priceMax: undefined },
    });
  }
  if (query.date)
    candidates.push({
      label: "日付の指定を外す",
      query: { ...base, date: undefined, dateTo: undefined },
    });
  if (query.rating !== undefined) {
    candidates.push({ label: "評価の指定を外す", query: { ...base, rating: undefined } });
  }
  const keywordOnly: SearchQuery = { ...emptyFilters, q: query.q, sort: query.sort, page: 1 };
  if (query.q && filterCount(query) >= 2) {
    candidates.push({ label: "キーワードだけで探す", query: keywordOnly });
  }

  const counted = await Promise.all(
    candidates.map(async (candidate) => {
      // Bounded: dropping a filter often leaves a broad word, whose exact count reads every match.
      const total = await countSalons(db, candidate.query, undefined, countCap);
      return total > countCap
        ? { ...candidate, total: countCap, totalIsLowerBound: true }
        : { ...candidate, total };
    }),
  );
  const positive = counted.filter((s) => s.total > 0);
  return [
    ...positive.filter((s) => s.query === withoutPlace),
    ...found,
    ...positive.filter((s) => s.query !== withoutPlace),
  ]
    .filter(uniqueLabels())
    .slice(0, MAX_SUGGESTIONS);
}

const emptyFilters: SearchQuery = { feature: [], sort: "recommended", page: 1 };

/** The conditions chosen in the form besides the keyword. */
function filterCount(query: SearchQuery): number {
  return (
    [query.pref, query.area, query.station, query.genre, query.date].filter(Boolean).length +
    query.feature.length +
    (query.priceMin !== undefined || query.priceMax !== undefined ? 1 : 0) +
    (query.rating !== undefined ? 1 : 0)
  );
}

function hasAnyCondition(query: SearchQuery): boolean {
  return Boolean(
    query.q ||
      query.genre ||
      query.feature.length > 0 ||
      query.priceMin !== undefined ||
      query.priceMax !== undefined ||
      query.date ||
      query.rating !== undefined,
  );
}

function uniqueLabels() {
  const seen = new Set<string>();
  return (suggestion: SearchSuggestion) => {
    if (seen.has(suggestion.label)) return false;
    seen.add(suggestion.label);
    return true;
  };
}

/**
 * The closest stations that have salons for the same search without its
 * place: one grouped count over the nearest candidates.
 */
async function nearbyWithSalons(
  db: Database,
  places: readonly PlaceRow[],
  terms: readonly Term[],
  query: SearchQuery,
  withoutPlace: SearchQuery,
): Promise<SearchSuggestion[]> {
  const nearby = nearbyStations(places, terms, query);
  if (nearby.length === 0) return [];
  const rows = await db
    .select({ stationId: salons.stationId, total: count() })
    .from(salons)
    .where(
      and(
        searchConditions(withoutPlace, await understandKeyword(db, withoutPlace.q)),
        inArray(
          salons.stationId,
          nearby.map((station) => station.id),
        ),
      ),
    )
    .groupBy(salons.stationId);
  const totals = new Map(rows.map((row) => [row.stationId, Number(row.total)]));
  return nearby
    .filter((station) => (totals.get(station.id) ?? 0) > 0)
    .slice(0, MAX_NEARBY_STATIONS)
    .map((station) => ({
      label: `${station.name}駅で探す`,
      query: { ...withoutPlace, station: station.slug },
      total: totals.get(station.id) ?? 0,
    }));
}

/**
 * The stations closest to the place searched (a station, or the middle of
 * an area's stations), not counting the place's own stations.
 */
function nearbyStations(places: readonly PlaceRow[], terms: readonly Term[], query: SearchQuery) {
  const stations = places.filter(
    (p): p is PlaceRow & { latitude: number; longitude: number } =>
      p.kind === "station" && p.latitude !== undefined && p.longitude !== undefined,
  );
  const areaIds = new Set<string>();
  const stationIds = new Set<string>();
  for (const term of terms) {
    if (term.kind !== "place") continue;
    for (const id of term.areaIds) areaIds.add(id);
    for (const id of term.stationIds) stationIds.add(id);
  }
  for (const place of places) {
    if (place.kind === "area" && place.slug === query.area) areaIds.add(place.id);
    if (place.kind === "station" && place.slug === query.station) stationIds.add(place.id);
  }
  const origin = stations.filter(
    (s) => stationIds.has(s.id) || (s.parentId !== null && areaIds.has(s.parentId)),
  );
  if (origin.length === 0) return [];
  const lat = origin.reduce((sum, s) => sum + s.latitude, 0) / origin.length;
  const lng = origin.reduce((sum, s) => sum + s.longitude, 0) / origin.length;
  const cosLat = Math.cos((lat * Math.PI) / 180);
  const distance = (s: { latitude: number; longitude: number }) =>
    (s.latitude - lat) ** 2 + ((s.longitude - lng) * cosLat) ** 2;
  const own = new Set(origin.map((s) => s.id));
  return stations
    .filter((s) => !own.has(s.id))
    .sort((a, b) => distance(a) - distance(b))
    .slice(0, NEARBY_CANDIDATES);
}
