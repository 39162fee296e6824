import { and, asc, eq, gte, lte, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { addDays, type LocalDate, minutesOf, toLocal, weekdayOf } from "../../common/local-time";
import { SEARCH_PAGE_SIZE, type SearchQuery } from "../../common/search.schema";
import {
  FREE_DAYS_HORIZON,
  firstFreeDay,
  freeTimesOf,
  type NextFreeTimes,
} from "../bookings/free-times";
import type { Database } from "../db/client";
import { pgArray } from "../db/pg-array";
import { areas, prefectures, salons, stations } from "../db/schema";
import {
  hasTokens,
  hasTypoTolerance,
  keywordRelevance,
  loadLexicon,
  termCondition,
  termToken,
} from "../search/keyword";
import { featureToken, genreToken } from "../search/search-terms";
import { buildLexicon, type Term, understandQuery } from "../search/understand";
import { cardCover, type SalonCard, salonCardColumns } from "./salon-card";

export type SearchResult = {
  salons: SalonCard[];
  /**
   * By salon slug: the next free times (空席あり) from the free-time summary,
   * on the searched date and time range if any; salons without are absent.
   */
  freeTimes: Record<string, NextFreeTimes>;
  /** Exact, unless `totalIsLowerBound`: then at least this many (SEARCH_COUNT_CAP). */
  total: number;
  totalIsLowerBound: boolean;
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
 * inside the summary's horizon read only that table (a lookup per salon on
 * its partial (date, salon_id) index); a later date falls back to "open that
 * day" from the opening hours. A range (date to dateTo, 今週末: decision
 * 0059) matches on any of its days, each part of it read the same way. A
 * time range without a date asks for any day of the horizon.
 */
function freeTimeCondition(query: SearchQuery, now: Date): SQL | undefined {
  if (!query.date && !query.from && !query.to) return undefined;
  const nowLocal = toLocal(now, SEARCH_TIME_ZONE);
  const today = nowLocal.date;
  const lastSummarized = addDays(today, FREE_DAYS_HORIZON - 1);
  const low = query.from ? minutes(query.from) : 0;
  const high = query.to ? minutes(query.to) : 24 * 60;
  const first = query.date ?? today;
  const last = query.date ? (query.dateTo ?? query.date) : lastSummarized;
  const parts: SQL[] = [];
  const pastSummary = last > lastSummarized;
  if (first <= lastSummarized) {
    const until = pastSummary ? lastSummarized : last;
    parts.push(freeInSummary(first, until, today, nowLocal.time, low, high));
  }
  if (pastSummary) {
    const weekdays: number[] = [];
    for (let day = first > lastSummarized ? first : addDays(lastSummarized, 1); day <= last; ) {
      weekdays.push(weekdayOf(day));
      day = addDays(day, 1);
    }
    parts.push(openOnWeekdays(weekdays, low, high));
  }
  return parts.length === 1 ? parts[0] : or(...parts);
}

/** Beyond the summary: open, for part of [low, high), on one of these weekdays. */
function openOnWeekdays(weekdays: number[], low: number, high: number): SQL {
  const overlaps = sql`extract(hour from h.opens) * 60 + extract(minute from h.opens) < ${high}
        and extract(hour from h.closes) * 60 + extract(minute from h.closes) > ${low}`;
  const [weekday] = weekdays;
  if (weekdays.length === 1 && weekday !== undefined) {
    return and(
      sql`not (${weekday}::smallint = any(${salons.regularHolidays}))`,
      sql`exists (select 1 from salon_opening_hours h where h.salon_id = ${salons.id} and h.weekday = ${weekday}
        and ${overlaps})`,
    ) as SQL;
  }
  const list = sql.join(
    weekdays.map((day) => sql`${day}::smallint`),
    sql`, `,
  );
  return sql`exists (select 1 from salon_opening_hours h where h.salon_id = ${salons.id} and h.weekday in (${list})
        and not (h.weekday = any(${salons.regularHolidays})) and ${overlaps})`;
}

/** Inside the summary: a free start in [low, high) on a day from `first` to `last`. */
function freeInSummary(
  first: LocalDate,
  last: LocalDate,
  today: LocalDate,
  time: string,
  low: number,
  high: number,
): SQL {
  const nowMinute = minutesOf(time);
  // One day is an equality, a range a `between` on the same (date, salon_id) index.
  const dates =
    first === last
      ? sql`f.date = ${first}::date`
      : sql`f.date between ${first}::date and ${last}::date`;
  // Today, a start before the current minute is gone even if the row is not refreshed yet.
  const earliest = sql`(case when f.date = ${today}::date then ${Math.max(low, nowMinute + 1)}::int else ${low}::int end)`;
  // A lookup per candidate salon (the summary's index on date and salon),
  // not a join: `offset 0` keeps PostgreSQL from turning the EXISTS into a
  // semi-join, which read every free row of the date (all salons) before the
  // first result; as a per-row test the ordered, capped read of the search
  // stops at its limit (docs/decisions/0021-search-at-national-scale.md).
  // With the first and last free minute inside the range, the day's first (or
  // last) start is the one wanted; only a day that starts before the range and
  // ends after it needs its starts read (unnest is most of the cost per salon).
  return sql`exists (select 1 from salon_free_days f where f.salon_id = ${salons.id} and ${dates}
    and f.free_slots_count > 0 and f.last_free_minute >= ${earliest} and f.first_free_minute < ${high}::int
    and (f.first_free_minute >= ${earliest} or f.last_free_minute < ${high}::int
      or exists (select 1 from unnest(f.free_minutes) m where m >= ${earliest} and m < ${high}::int)) offset 0)`;
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
  // The genre, the features and the keyword's genre, feature and dictionary
  // words are tokens of salons.search_terms, all tested at once with one
  // `@>` (docs/decisions/0023-search-terms.md): the GIN index finds them,
  // and the ordered read of the recommended and rating orders tests them on
  // the index's own copy, without visiting the table.
  const tokens = new Set<string>();
  if (query.genre) tokens.add(genreToken(query.genre));
  for (const feature of query.feature) tokens.add(featureToken(feature));
  for (const term of terms) {
    const token = termToken(term);
    if (token) tokens.add(token);
  }
  if (tokens.size > 0) conditions.push(hasTokens([...tokens]));
  // The price range applies to a salon's starting price (its cheapest menu).
  if (query.priceMin !== undefined) conditions.push(gte(salons.priceMin, query.priceMin));
  if (query.priceMax !== undefined) conditions.push(lte(salons.priceMin, query.priceMax));
  const freeTime = freeTimeCondition(query, now);
  if (freeTime) conditions.push(freeTime);
  if (query.rating !== undefined) conditions.push(gte(salons.ratingAverage, query.rating));
  // Every other word must hold too: a place filter, or a word the dictionary
  // does not know somewhere in the normalized name, kana, area, station,
  // genre and menu names (salons.search_text, pg_trgm indexed). Those last
  // on purpose: PostgreSQL tests equally cheap-looking conditions in the
  // order written, and this scan of ~500 bytes per row is the costly one.
  const rest = terms.filter((term) => termToken(term) === undefined);
  // Two areas or stations mean either (渋谷 新宿, 梅田 難波): a salon is in one
  // place. A prefecture narrows them instead (東京 渋谷, 大阪 梅田 難波), also
  // when its name is a station's too (大阪).
  const localities = rest.filter(
    (term) => term.kind === "place" && term.prefectureCodes.length === 0,
  );
  const either = localities.length > 1 ? localities : [];
  if (either.length > 0) {
    conditions.push(or(...either.map((term) => termCondition(term, typoTolerant))));
  }
  const ordered = rest
    .filter((term) => !either.includes(term))
    .sort((a, b) => Number(a.kind === "keyword") - Number(b.kind === "keyword"));
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
      // Plain `desc` (nulls first): the price index is ascending, and only its
      // backward scan (desc nulls first) gives this order without sorting every
      // match; the column is never null, so the two orders are the same.
      return [sql`${salons.priceMin} desc`, ...recommendedOrder];
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

/**
 * How many published salons a search finds (the empty state's suggestions).
 * With `cap`, counting stops past it: the answer is then cap + 1, meaning
 * "more than cap" (a bounded count reads at most cap + 1 matching rows).
 */
export async function countSalons(
  db: Database,
  query: SearchQuery,
  now: Date = new Date(),
  cap?: number,
): Promise<number> {
  const terms = await understandKeyword(db, query.q);
  const total = await boundedCount(db, searchConditions(query, terms, false, now), cap);
  if (total > 0 || !hasTypoTolerance(terms)) return total;
  return boundedCount(db, searchConditions(query, terms, true, now), cap);
}

async function boundedCount(db: Database, where: SQL | undefined, cap: number | undefined) {
  if (cap === undefined) return Number(await db.$count(salons, where));
  const matches = db
    .select({ one: sql`1`.as("one") })
    .from(salons)
    .where(where)
    .limit(cap + 1)
    .as("matches");
  const [row] = await db.select({ total: sql<number>`count(*)` }).from(matches);
  return Number(row?.total ?? 0);
}

/**
 * Above this many matches the search page says "1,000件以上" instead of
 * counting them all (docs/decisions/0021-search-at-national-scale.md): an
 * exact count of a broad keyword reads every matching row, so it grows with
 * the country, while the page itself stops at the index.
 */
export const SEARCH_COUNT_CAP = 1000;

export type SearchOptions = {
  /**
   * Count at most about this many matches (SEARCH_COUNT_CAP on the search
   * page); past it `total` is a lower bound and `totalIsLowerBound` is set.
   * Without it the count is exact (area, feature and ranking pages).
   */
  countCap?: number;
};

/**
 * One page of published salons matching the query, with the total count.
 * The page of ids is chosen on `salons` alone (filter, order, limit: for the
 * recommended, rating and price orders an index gives the order, so the scan
 * stops at the page); only those rows then get the joins and photo
 * subqueries of a card. With a count cap, the ids, the relevance ranking and
 * the bounded count come from one read of at most cap + 1 rows in order.
 * When the keyword's words as typed find nothing, the search runs once more
 * forgiving a typing error in its longer unknown words.
 */
export async function searchSalons(
  db: Database,
  query: SearchQuery,
  pageSize = SEARCH_PAGE_SIZE,
  // The route's clock; a default so lists without a date filter need not pass it.
  now: Date = new Date(),
  options: SearchOptions = {},
): Promise<SearchResult> {
  const terms = await understandKeyword(db, query.q);
  const exact = await searchPage(db, query, terms, pageSize, false, now, options.countCap);
  // Typing errors are forgiven only when the words as typed found nothing.
  if (exact.total > 0 || !hasTypoTolerance(terms)) return exact;
  return searchPage(db, query, terms, pageSize, true, now, options.countCap);
}

type Probe = {
  /** How many of the first `limit` matches there are. */
  count: number;
  /** The ids of the page (`offset`, `size`) of them, in order. */
  page: string[];
  /** All of them in order, when there are at most `allUpTo`; else null. */
  all: string[] | null;
};

/**
 * The first `limit` matches in the query's order, answered as their count,
 * the page's ids and (when few enough to rank) all their ids. Read in the
 * index's order where the order has one, so a broad word stops at the limit
 * instead of reading every match; only ids, so with the search terms on the
 * index (decision 0023) the read need not visit the table. Counted in
 * PostgreSQL: sending the 1,001 ids of a broad word to be counted here cost
 * the server ~0.5 ms of CPU a search (bench/README.md, issue 42).
 */
async function probeMatches(
  db: Database,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  { offset, size, allUpTo }: { offset: number; size: number; allUpTo: number },
): Promise<Probe> {
  // The position comes from the same order, not from the rows' arrival, which SQL does not promise.
  const ranked = db
    .select({
      id: salons.id,
      position: sql<number>`row_number() over (order by ${sql.join(order, sql`, `)})`.as(
        "position",
      ),
    })
    .from(salons)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .as("ranked");
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      page: sql<string[] | null>`array_agg(${ranked.id} order by ${ranked.position})
        filter (where ${ranked.position} > ${offset} and ${ranked.position} <= ${offset + size})`,
      // Only asked for a ranking: otherwise it would sort the 1,001 ids of a broad word for nothing.
      all:
        allUpTo > 0
          ? sql<string[] | null>`case when count(*) <= ${allUpTo}
        then array_agg(${ranked.id} order by ${ranked.position}) end`
          : sql<null>`null`,
    })
    .from(ranked);
  return { count: Number(row?.count ?? 0), page: row?.page ?? [], all: row?.all ?? null };
}

/** The relevance of each of these salons (at most RELEVANCE_MAX_RESULTS). */
async function relevanceOf(
  db: Database,
  ids: string[],
  relevance: SQL,
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: salons.id, relevance: sql<number>`${relevance}` })
    .from(salons)
    .where(sql`${salons.id} = any(${pgArray(ids)}::uuid[])`);
  return new Map(rows.map((row) => [row.id, Number(row.relevance)]));
}

type CardRow = SalonCard & { id: string; freeTimes: NextFreeTimes | null };

/** The cards of these salons, in this order, with their next free times. */
async function cardsOf(
  db: Database,
  ids: string[],
  free: ReturnType<typeof firstFreeDay>,
): Promise<CardRow[]> {
  if (ids.length === 0) return [];
  const cards = await db
    .select({
      id: salons.id,
      card: salonCardColumns,
      freeDate: free.date,
      freeMinutes: free.minutes,
    })
    .from(salons)
    .innerJoin(areas, eq(areas.id, salons.areaId))
    .leftJoin(stations, eq(stations.id, salons.stationId))
    .leftJoinLateral(cardCover, sql`true`)
    .leftJoinLateral(free, sql`true`)
    .where(sql`${salons.id} = any(${pgArray(ids)}::uuid[])`);
  const byId = new Map(
    cards.map((row) => [
      row.id,
      { ...row.card, freeTimes: freeTimesOf({ date: row.freeDate, minutes: row.freeMinutes }) },
    ]),
  );
  return ids.flatMap((id) => {
    const card = byId.get(id);
    return card ? [{ ...card, id }] : [];
  });
}

async function searchPage(
  db: Database,
  query: SearchQuery,
  terms: readonly Term[],
  pageSize: number,
  typoTolerant: boolean,
  now: Date,
  countCap: number | undefined,
): Promise<SearchResult> {
  const where = searchConditions(query, terms, typoTolerant, now);
  const order = searchOrder(query);
  // Each card's next free times (空席あり), read with the cards.
  const free = firstFreeDay(salons.id, now, {
    date: query.date,
    dateTo: query.dateTo,
    fromMinute: query.from ? minutes(query.from) : undefined,
    toMinute: query.to ? minutes(query.to) : undefined,
  });
  const offset = (query.page - 1) * pageSize;
  // Ordering by relevance means reading every match, so the ranking reads at
  // most RELEVANCE_MAX_RESULTS + 1 of them in the index's order: a focused
  // result is ranked from that one read; a broad word (カット), where nearly
  // every match is equally about it, keeps the index's order.
  const relevance = query.sort === "recommended" ? keywordRelevance(terms) : undefined;
  if (relevance || countCap !== undefined) {
    // The bound leaves room past the page, so a capped result always has a next page.
    const limit = Math.max(
      relevance ? RELEVANCE_MAX_RESULTS + 1 : 0,
      countCap !== undefined ? Math.max(countCap, offset + 2 * pageSize) + 1 : 0,
    );
    const probe = await probeMatches(db, where, order, limit, {
      offset,
      size: pageSize,
      allUpTo: relevance ? RELEVANCE_MAX_RESULTS : 0,
    });
    if (relevance && probe.count <= RELEVANCE_MAX_RESULTS) {
      const matches = probe.all ?? [];
      // Most about the keywords first, computed for these few only; the sort
      // is stable, so ties keep the recommended order.
      const scores = await relevanceOf(db, matches, relevance);
      const score = (id: string) => scores.get(id) ?? 0;
      const byRelevance = [...matches].sort((a, b) => score(b) - score(a));
      const ids = byRelevance.slice(offset, offset + pageSize);
      return resultOf(query, await cardsOf(db, ids, free), matches.length, pageSize);
    }
    const complete = probe.count < limit;
    if (complete || countCap !== undefined || offset + pageSize <= probe.count) {
      const ids = probe.page;
      const total = complete
        ? probe.count
        : countCap !== undefined
          ? limit - 1
          : Number(await db.$count(salons, where));
      const rows = await cardsOf(db, ids, free);
      return resultOf(query, rows, total, pageSize, !complete && countCap !== undefined);
    }
  }
  const [rows, total] = await Promise.all([
    pageRows(db, where, order, query.page, pageSize, free),
    db.$count(salons, where),
  ]);
  return resultOf(query, rows, Number(total), pageSize);
}

/** One page in `order` with its cards, in one statement (the exact-count path). */
async function pageRows(
  db: Database,
  where: SQL | undefined,
  order: SQL[],
  page: number,
  pageSize: number,
  free: ReturnType<typeof firstFreeDay>,
): Promise<CardRow[]> {
  const ids = db
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
    .offset((page - 1) * pageSize)
    .as("page");
  const rows = await db
    .select({ ...salonCardColumns, id: ids.id, freeDate: free.date, freeMinutes: free.minutes })
    .from(ids)
    .innerJoin(salons, eq(salons.id, ids.id))
    .innerJoin(areas, eq(areas.id, salons.areaId))
    .leftJoin(stations, eq(stations.id, salons.stationId))
    .leftJoinLateral(cardCover, sql`true`)
    .leftJoinLateral(free, sql`true`)
    .orderBy(asc(ids.position));
  return rows.map(({ freeDate, freeMinutes, ...card }) => ({
    ...card,
    freeTimes: freeTimesOf({ date: freeDate, minutes: freeMinutes }),
  }));
}

/** A page of cards with the next free times (空席あり) of each salon on it, by slug. */
function resultOf(
  query: SearchQuery,
  rows: CardRow[],
  total: number,
  pageSize: number,
  totalIsLowerBound = false,
): SearchResult {
  const freeTimes: Record<string, NextFreeTimes> = {};
  for (const row of rows) if (row.freeTimes) freeTimes[row.slug] = row.freeTimes;
  return {
    salons: rows.map(({ id: _id, freeTimes: _free, ...card }) => card),
    freeTimes,
    total,
    totalIsLowerBound,
    page: query.page,
    pageSize,
  };
}
