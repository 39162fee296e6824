import { and, asc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { SEARCH_PAGE_SIZE, type SearchQuery } from "../../common/search.schema";
import { FREE_DAYS_HORIZON, type NextFreeTimes, nextFreeTimes } from "../bookings/free-times";
import { addDays, minutesOf, toLocal } from "../bookings/local-time";
import type { Database } from "../db/client";
import { areas, prefectures, salons, stations } from "../db/schema";
import { hasTypoTolerance, keywordRelevance, loadLexicon, termCondition } from "../search/keyword";
import { buildLexicon, type Term, understandQuery } from "../search/understand";
import { type SalonCard, salonCardColumns } from "./salon-card";

export type SearchResult = {
  salons: SalonCard[];
  /**
   * By salon slug: the next free times (空席あり) from the free-time summary,
   * on the searched date and time range if any; salons without are absent.
   */
  freeTimes: Record<string, NextFreeTimes>;
  total: number;
  page: number;
  pageSize: number;
};

/**
 * The recommended order (docs/decisions/0006-recommended-ranking.md): a
 * Bayesian average of the rating, so a salon with 4.9 from 2 reviews does
 * not outrank 4.6 from 200. Each salon's average is pulled towards
 * PRIOR_MEAN as if it had PRIOR_WEIGHT extra reviews of that value:
 *   score = (rating × reviews + PRIOR_MEAN × PRIOR_WEIGHT) / (reviews + PRIOR_WEIGHT)
 * Ties break on review count, then slug, so the order is total and stable
 * across pages and engines.
 */
export const PRIOR_MEAN = 3.5;
export const PRIOR_WEIGHT = 10;

/**
 * `desc` as the indexes are built (NULLS LAST), so PostgreSQL can read an
 * order off an index and stop at the page; the columns are never null.
 */
const descending = (column: AnyPgColumn) => sql`${column} desc nulls last`;

/** Above this many matches a keyword search keeps the index's recommended order. */
export const RELEVANCE_MAX_RESULTS = 300;

/** The score is a stored column (salons.recommended_score) computed from these constants. */
export const recommendedOrder = [
  descending(salons.recommendedScore),
  descending(salons.reviewCount),
  asc(salons.slug),
] as const;

/** Without the place names of the database, the keyword still knows the dictionary. */
const dictionaryOnly = buildLexicon([]);

/**
 * The keyword's words with their meanings (server/search/understand.ts):
 * places, genres and features become filters, the rest keywords.
 */
export async function understandKeyword(db: Database, q: string | undefined): Promise<Term[]> {
  return q ? understandQuery(q, await loadLexicon(db)) : [];
}

/** Search dates are the visitor's calendar days in Japan, where the salons are. */
const SEARCH_TIME_ZONE = "Asia/Tokyo";

const minutes = (time: string) => minutesOf(time);

/**
 * The date and time-of-day filter (docs/decisions/0014-search-by-free-time.md):
 * a salon matches when its salon_free_days row for the date has a free
 * start in [from, to) (and, today, after the current minute). Dates
 * inside the summary's horizon read only that table (a semi-join on its
 * partial (date, salon_id) index); a later date falls back to "open that
 * day" from the opening hours. A time range without a date asks for any
 * day of the horizon.
 */
function freeTimeCondition(query: SearchQuery, now: Date): SQL | undefined {
  if (!query.date && !query.from && !query.to) return undefined;
  const nowLocal = toLocal(now, SEARCH_TIME_ZONE);
  const today = nowLocal.date;
  const lastSummarized = addDays(today, FREE_DAYS_HORIZON - 1);
  const low = query.from ? minutes(query.from) : 0;
  const high = query.to ? minutes(query.to) : 24 * 60;
  if (query.date && query.date > lastSummarized) {
    const weekday = new Date(`${query.date}T12:00:00Z`).getUTCDay();
    return and(
      sql`not (${weekday}::smallint = any(${salons.regularHolidays}))`,
      sql`exists (select 1 from salon_opening_hours h where h.salon_id = ${salons.id} and h.weekday = ${weekday}
        and extract(hour from h.opens) * 60 + extract(minute from h.opens) < ${high}
        and extract(hour from h.closes) * 60 + extract(minute from h.closes) > ${low})`,
    );
  }
  const nowMinute = minutesOf(nowLocal.time);
  const dates = query.date
    ? sql`f.date = ${query.date}::date`
    : sql`f.date between ${today}::date and ${lastSummarized}::date`;
  // Today, a start before the current minute is gone even if the row is not refreshed yet.
  const earliest = sql`(case when f.date = ${today}::date then ${Math.max(low, nowMinute + 1)}::int else ${low}::int end)`;
  return sql`${salons.id} in (select f.salon_id from salon_free_days f where ${dates}
    and f.free_slots_count > 0 and f.last_free_minute >= ${earliest} and f.first_free_minute < ${high}::int
    and exists (select 1 from unnest(f.free_minutes) m where m >= ${earliest} and m < ${high}::int))`;
}

/**
 * The WHERE conditions of a search; every filter is AND-ed. `terms` is the
 * understood keyword (understandKeyword); without it the keyword is read
 * with the dictionary alone.
 */
export function searchConditions(
  query: SearchQuery,
  terms: readonly Term[] = query.q ? understandQuery(query.q, dictionaryOnly) : [],
  typoTolerant = false,
  now: Date = new Date(),
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(salons.status, "published")];
  if (query.pref) {
    conditions.push(
      sql`${salons.prefectureCode} = (select ${prefectures.code} from ${prefectures} where ${prefectures.slug} = ${query.pref})`,
    );
  }
  if (query.area) {
    // An area includes its sub-areas (表参道 inside 渋谷・原宿).
    conditions.push(
      sql`${salons.areaId} in (select a.id from areas a where a.slug = ${query.area} or a.parent_id = (select p.id from areas p where p.slug = ${query.area}))`,
    );
  }
  if (query.station) {
    conditions.push(
      sql`${salons.stationId} = (select ${stations.id} from ${stations} where ${stations.slug} = ${query.station})`,
    );
  }
  if (query.genre) conditions.push(eq(salons.genre, query.genre));
  for (const feature of query.feature) {
    conditions.push(
      sql`exists (select 1 from salon_features f where f.salon_id = ${salons.id} and f.feature_slug = ${feature})`,
    );
  }
  // The price range applies to a salon's starting price (its cheapest menu).
  if (query.priceMin !== undefined) conditions.push(gte(salons.priceMin, query.priceMin));
  if (query.priceMax !== undefined) conditions.push(lte(salons.priceMin, query.priceMax));
  const freeTime = freeTimeCondition(query, now);
  if (freeTime) conditions.push(freeTime);
  if (query.rating !== undefined) conditions.push(gte(salons.ratingAverage, query.rating));
  // Every word must hold: a place, genre or feature filter, or a keyword
  // somewhere in the normalized name, kana, area, station, genre and menu
  // names (salons.search_text, pg_trgm indexed). Keywords last on purpose:
  // PostgreSQL tests equally cheap-looking conditions in the order written,
  // and this scan of ~500 bytes per row is the costly one.
  const ordered = [...terms].sort(
    (a, b) => Number(a.kind === "keyword") - Number(b.kind === "keyword"),
  );
  for (const term of ordered) conditions.push(termCondition(term, typoTolerant));
  return and(...conditions);
}

function searchOrder(query: SearchQuery) {
  switch (query.sort) {
    case "rating":
      return [descending(salons.ratingAverage), descending(salons.reviewCount), asc(salons.slug)];
    case "price-asc":
      return [asc(salons.priceMin), ...recommendedOrder];
    case "price-desc":
      return [descending(salons.priceMin), ...recommendedOrder];
    case "distance":
      if (query.lat !== undefined && query.lng !== undefined) {
        // Equirectangular distance: exact enough to order salons within a country.
        const cosLat = Math.cos((query.lat * Math.PI) / 180);
        return [
          asc(
            sql`power(${salons.latitude} - ${query.lat}, 2) + power((${salons.longitude} - ${query.lng}) * ${cosLat}, 2)`,
          ),
          asc(salons.slug),
        ];
      }
      return [...recommendedOrder];
    default:
      return [...recommendedOrder];
  }
}

/** How many published salons a search finds (the empty state's suggestions). */
export async function countSalons(
  db: Database,
  query: SearchQuery,
  now: Date = new Date(),
): Promise<number> {
  const terms = await understandKeyword(db, query.q);
  const total = Number(await db.$count(salons, searchConditions(query, terms, false, now)));
  if (total > 0 || !hasTypoTolerance(terms)) return total;
  return Number(await db.$count(salons, searchConditions(query, terms, true, now)));
}

/**
 * One page of published salons matching the query, with the total count.
 * The page of ids is chosen on `salons` alone (filter, order, limit: for the
 * recommended, rating and price orders an index gives the order, so the scan
 * stops at the page); only those rows then get the joins and photo
 * subqueries of a card. The count is a query of its own, run alongside.
 * When the keyword's words as typed find nothing, the search runs once more
 * forgiving a typing error in its longer unknown words.
 */
export async function searchSalons(
  db: Database,
  query: SearchQuery,
  pageSize = SEARCH_PAGE_SIZE,
  // The route's clock; a default so lists without a date filter need not pass it.
  now: Date = new Date(),
): Promise<SearchResult> {
  const terms = await understandKeyword(db, query.q);
  const exact = await searchPage(db, query, terms, pageSize, false, now);
  // Typing errors are forgiven only when the words as typed found nothing.
  if (exact.total > 0 || !hasTypoTolerance(terms)) return exact;
  return searchPage(db, query, terms, pageSize, true, now);
}

/**
 * The ids of the matches, most about the keywords first, then in the
 * recommended order; at most RELEVANCE_MAX_RESULTS + 1 of them, read in
 * the index's order, so a broad word stops early.
 */
async function rankByRelevance(db: Database, where: SQL | undefined, relevance: SQL) {
  const probe = db
    .select({
      id: salons.id,
      relevance: sql<number>`${relevance}`.as("relevance"),
      score: sql<number>`${salons.recommendedScore}`.as("score"),
      reviews: sql<number>`${salons.reviewCount}`.as("reviews"),
      slug: sql<string>`${salons.slug}`.as("probe_slug"),
    })
    .from(salons)
    .where(where)
    .orderBy(...recommendedOrder)
    .limit(RELEVANCE_MAX_RESULTS + 1)
    .as("probe");
  const rows = await db
    .select({ id: probe.id })
    .from(probe)
    .orderBy(
      sql`${probe.relevance} desc`,
      sql`${probe.score} desc nulls last`,
      sql`${probe.reviews} desc nulls last`,
      sql`${probe.slug} asc`,
    );
  return rows.map((row) => row.id);
}

async function searchPage(
  db: Database,
  query: SearchQuery,
  terms: readonly Term[],
  pageSize: number,
  typoTolerant: boolean,
  now: Date,
): Promise<SearchResult> {
  const where = searchConditions(query, terms, typoTolerant, now);
  const pageRows = (order: SQL[]) => {
    const page = db
      .select({
        id: salons.id,
        position: sql<number>`row_number() over (order by ${sql.join(order, sql`, `)})`.as(
          "position",
        ),
      })
      .from(salons)
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((query.page - 1) * pageSize)
      .as("page");
    return db
      .select({ ...salonCardColumns, id: page.id })
      .from(page)
      .innerJoin(salons, eq(salons.id, page.id))
      .innerJoin(areas, eq(areas.id, salons.areaId))
      .leftJoin(stations, eq(stations.id, salons.stationId))
      .orderBy(asc(page.position));
  };
  const relevance = query.sort === "recommended" ? keywordRelevance(terms) : undefined;
  if (relevance) {
    const ranked = await rankByRelevance(db, where, relevance);
    // A focused result (the probe stopped before the limit) is ordered by
    // relevance, from one scan; a broad word (カット), where nearly every
    // match is equally about it, keeps the index's order below.
    if (ranked.length <= RELEVANCE_MAX_RESULTS) {
      const offset = (query.page - 1) * pageSize;
      const ids = ranked.slice(offset, offset + pageSize);
      const cards =
        ids.length === 0
          ? []
          : await db
              .select({ id: salons.id, card: salonCardColumns })
              .from(salons)
              .innerJoin(areas, eq(areas.id, salons.areaId))
              .leftJoin(stations, eq(stations.id, salons.stationId))
              .where(inArray(salons.id, ids));
      const byId = new Map(cards.map((row) => [row.id, row.card]));
      const found = ids.flatMap((id) => {
        const card = byId.get(id);
        return card ? [{ ...card, id }] : [];
      });
      return withFreeTimes(db, query, now, found, ranked.length, pageSize);
    }
  }
  const [rows, total] = await Promise.all([pageRows(searchOrder(query)), db.$count(salons, where)]);
  return withFreeTimes(db, query, now, rows, Number(total), pageSize);
}

/** A page of cards with the next free times (空席あり) of each salon on it. */
async function withFreeTimes(
  db: Database,
  query: SearchQuery,
  now: Date,
  rows: (SalonCard & { id: string })[],
  total: number,
  pageSize: number,
): Promise<SearchResult> {
  const next = await nextFreeTimes(
    db,
    rows.map((row) => row.id),
    now,
    {
      date: query.date,
      fromMinute: query.from ? minutes(query.from) : undefined,
      toMinute: query.to ? minutes(query.to) : undefined,
    },
  );
  const freeTimes: Record<string, NextFreeTimes> = {};
  for (const row of rows) {
    const found = next.get(row.id);
    if (found) freeTimes[row.slug] = found;
  }
  return {
    salons: rows.map(({ id: _id, ...card }) => card),
    freeTimes,
    total,
    page: query.page,
    pageSize,
  };
}
