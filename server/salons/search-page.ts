import { asc, eq, sql } from "drizzle-orm";
import type { SearchQuery } from "../../common/search.schema";
import { type Memo, memoize } from "../cache/memo";
import type { Database } from "../db/client";
import { areas, features, prefectures, stations } from "../db/schema";
import { inlineSiteImage } from "../photos/inline-image.server";
import { loadLexicon } from "../search/keyword";
import type { Lexicon } from "../search/understand";
import { SEARCH_COUNT_CAP, type SearchResult, searchSalons } from "./search";
import {
  correctSearch,
  respellsAtOnce,
  type SearchCorrection,
  type Spelling,
} from "./search-correction";
import { type SearchSuggestion, suggestSearches } from "./search-suggestions";

export type SearchOptions = {
  prefectures: { slug: string; name: string }[];
  /** With their prefecture, so the area list can narrow to the chosen one. */
  areas: { slug: string; name: string; prefectureSlug: string; prefectureName: string }[];
  /** Stations of the chosen area only; a country-wide list would be unusable. */
  stations: { slug: string; name: string }[];
  features: { slug: string; name: string }[];
};

type ReferenceOptions = Omit<SearchOptions, "stations">;

/**
 * Prefectures, areas and features change rarely but every search page shows
 * them, so they are read once a minute per database, not per request.
 */
const REFERENCE_TTL_MS = 60_000;
const referenceOptions = new WeakMap<Database, Memo<ReferenceOptions>>();

async function loadReferenceOptions(db: Database): Promise<ReferenceOptions> {
  const hasSalons = sql`exists (select 1 from salons s where s.area_id = ${areas.id} and s.status = 'published')`;
  const [prefectureRows, areaRows, featureRows] = await Promise.all([
    db
      .selectDistinct({ slug: prefectures.slug, name: prefectures.name, code: prefectures.code })
      .from(prefectures)
      .innerJoin(areas, eq(areas.prefectureCode, prefectures.code))
      .where(hasSalons)
      .orderBy(asc(prefectures.code)),
    db
      .select({
        slug: areas.slug,
        name: areas.name,
        prefectureSlug: prefectures.slug,
        prefectureName: prefectures.name,
      })
      .from(areas)
      .innerJoin(prefectures, eq(prefectures.code, areas.prefectureCode))
      .where(hasSalons)
      .orderBy(asc(areas.prefectureCode), asc(areas.sortOrder), asc(areas.slug)),
    db
      .select({ slug: features.slug, name: features.name })
      .from(features)
      .orderBy(asc(features.sortOrder), asc(features.slug)),
  ]);
  return {
    prefectures: prefectureRows.map(({ slug, name }) => ({ slug, name })),
    areas: areaRows,
    features: featureRows,
  };
}

function readReferenceOptions(db: Database): Promise<ReferenceOptions> {
  let reference = referenceOptions.get(db);
  if (!reference) {
    reference = memoize(() => loadReferenceOptions(db), { ttlMs: REFERENCE_TTL_MS });
    referenceOptions.set(db, reference);
  }
  return reference.get();
}

/** The choices the search form offers: only places that have published salons. */
export async function listSearchOptions(db: Database, query: SearchQuery): Promise<SearchOptions> {
  const [options, stationRows] = await Promise.all([
    readReferenceOptions(db),
    query.area
      ? db
          .select({ slug: stations.slug, name: stations.name })
          .from(stations)
          .innerJoin(areas, eq(areas.id, stations.areaId))
          .where(eq(areas.slug, query.area))
          .orderBy(asc(stations.slug))
      : [],
  ]);
  return { ...options, stations: stationRows };
}

/**
 * Everything /salons/search renders: one page of results, the form's
 * choices and, when nothing matched on page 1, searches that would find
 * salons: the keyword respelled (decision 0060) and the same search with
 * fewer conditions. A keyword that finds nothing while its respelling finds
 * salons comes back as `respell` (the route shows that search instead),
 * unless `spelling` says the visitor asked for the words as typed
 * (then 「表参道」で検索しますか？ over the empty result) or they were
 * respelled already.
 */
export async function loadSearchPage(
  db: Database,
  query: SearchQuery,
  now: Date,
  spelling: Spelling = { literal: false },
): Promise<{
  result: SearchResult;
  options: SearchOptions;
  suggestions: SearchSuggestion[];
  correction: SearchCorrection | null;
  respell: SearchCorrection | null;
}> {
  const [result, options] = await Promise.all([
    searchSalons(db, query, undefined, now, { countCap: SEARCH_COUNT_CAP }),
    listSearchOptions(db, query),
  ]);
  // The first card's photo is the page's LCP: inside the page when it is a small site image.
  const [first] = result.salons;
  if (first) first.photoInline = inlineSiteImage(first.photoUrl);
  const none = { suggestions: [], correction: null, respell: null };
  // Not for a later page: the route redirects it to page 1, which suggests.
  if (result.total > 0 || query.page > 1) return { result, options, ...none };
  const respelling = respellsAtOnce(spelling);
  if (respelling) {
    // Its count is not shown (the respelled page counts its own): whether there is one is enough.
    const respell = await correctSearch(db, query, now, 1);
    if (respell) return { result, options, ...none, respell };
  }
  const [suggestions, correction] = await Promise.all([
    suggestSearches(
      db,
      query,
      new Map(options.features.map((feature) => [feature.slug, feature.name])),
    ),
    // Asked already above, with no respelling that finds salons.
    respelling ? null : correctSearch(db, query, now),
  ]);
  return { result, options, suggestions, correction, respell: null };
}

const PLACE_PARAMS = { pref: "prefecture", area: "area", station: "station" } as const;

/** The slugs a URL's place parameters may name, per lexicon (rebuilt when the lexicon is). */
const placeSlugs = new WeakMap<Lexicon, Map<string, Set<string>>>();

function placeSlugsOf(lexicon: Lexicon): Map<string, Set<string>> {
  let slugs = placeSlugs.get(lexicon);
  if (!slugs) {
    slugs = new Map(
      Object.entries(PLACE_PARAMS).map(([name, kind]) => [
        name,
        new Set(lexicon.places.filter((place) => place.kind === kind).map((place) => place.slug)),
      ]),
    );
    placeSlugs.set(lexicon, slugs);
  }
  return slugs;
}

/**
 * A search URL without its place and feature values that name nothing (an
 * old or hand-edited link: area=foo, feature=late), or null when every one
 * is known. The page redirects there rather than search for no salon under
 * a chip that reads "foo". Places with no salon yet are known: they find
 * none, rightly.
 */
export async function withoutUnknownFilters(
  db: Database,
  params: URLSearchParams,
): Promise<URLSearchParams | null> {
  if (![...Object.keys(PLACE_PARAMS), "feature"].some((name) => params.has(name))) return null;
  const [lexicon, reference] = await Promise.all([loadLexicon(db), readReferenceOptions(db)]);
  const places = placeSlugsOf(lexicon);
  const features = new Set(reference.features.map((feature) => feature.slug));
  const known = (name: string) => (name === "feature" ? features : places.get(name));
  const kept = new URLSearchParams();
  let removed = false;
  for (const [name, value] of params) {
    if (known(name)?.has(value) === false) removed = true;
    else kept.append(name, value);
  }
  return removed ? kept : null;
}
