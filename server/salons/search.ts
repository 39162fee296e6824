import { and, asc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { SEARCH_PAGE_SIZE, type SearchQuery } from "../../common/search.schema";
import type { Database } from "../db/client";
import { areas, prefectures, salons, stations } from "../db/schema";
import { hasTypoTolerance, keywordRelevance, loadLexicon, termCondition } from "../search/keyword";
import { buildLexicon, type Term, understandQuery } from "../search/understand";
import { type SalonCard, salonCardColumns } from "./salon-card";

export type SearchResult = {
  salons: SalonCard[];
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

/**
 * The WHERE conditions of a search; every filter is AND-ed. `terms` is the
 * understood keyword (understandKeyword); without it the keyword is read
 * with the dictionary alone.
 */
export function searchConditions(
  query: SearchQuery,
  terms: readonly Term[] = query.q ? understandQuery(query.q, dictionaryOnly) : [],
  typoTolerant = false,
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
  if (query.date) {
    const weekday = new Date(`${query.date}T12:00:00Z`).getUTCDay();
    conditions.push(
      sql`not (${weekday}::smallint = any(${salons.regularHolidays}))`,
      sql`exists (select 1 from salon_opening_hours h where h.salon_id = ${salons.id} and h.weekday = ${weekday})`,
    );
  }
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
export async function countSalons(db: Database, query: SearchQuery): Promise<number> {
  const terms = await understandKeyword(db, query.q);
  const total = Number(await db.$count(salons, searchConditions(query, terms)));
  if (total > 0 || !hasTypoTolerance(terms)) return total;
  return Number(await db.$count(salons, searchConditions(query, terms, true)));
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
): Promise<SearchResult> {
  const terms = await understandKeyword(db, query.q);
  const exact = await searchPage(db, query, terms, pageSize, false);
  // Typing errors are forgiven only when the words as typed found nothing.
  if (exact.total > 0 || !hasTypoTolerance(terms)) return exact;
  return searchPage(db, query, terms, pageSize, true);
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
): Promise<SearchResult> {
  const where = searchConditions(query, terms, typoTolerant);
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
      .select(salonCardColumns)
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
      return {
        salons: ids.flatMap((id) => byId.get(id) ?? []),
        total: ranked.length,
        page: query.page,
        pageSize,
      };
    }
  }
  const [rows, total] = await Promise.all([pageRows(searchOrder(query)), db.$count(salons, where)]);
  return { salons: rows, total: Number(total), page: query.page, pageSize };
}
