import { asc, inArray, or, type SQL, sql } from "drizzle-orm";
import { type Memo, memoize } from "../cache/memo";
import type { Database } from "../db/client";
import { areas, prefectures, salons, stations } from "../db/schema";
import { hiraganaToKatakana } from "./readings";
import { featureToken, genreToken } from "./search-terms";
import { buildLexicon, type Lexicon, type Term } from "./understand";

/**
 * The database side of query understanding: the place names it knows (read
 * once a minute per database, like the search form's choices) and the SQL a
 * understood keyword becomes. Every condition is one an index serves:
 * area/station ids (b-tree); genres, features and dictionary keywords as
 * tokens of salons.search_terms (`@>`, GIN or the order indexes' trailing
 * column, decision 0023); other words in the search text (pg_trgm GIN, also
 * for the typo-tolerant `<%`).
 */

const LEXICON_TTL_MS = 60_000;
const lexicons = new WeakMap<Database, Memo<Lexicon>>();

export function loadLexicon(db: Database): Promise<Lexicon> {
  let memo = lexicons.get(db);
  if (!memo) {
    memo = memoize(() => readLexicon(db), { ttlMs: LEXICON_TTL_MS });
    lexicons.set(db, memo);
  }
  return memo.get();
}

async function readLexicon(db: Database): Promise<Lexicon> {
  const [prefectureRows, areaRows, stationRows] = await Promise.all([
    db
      .select({
        code: prefectures.code,
        slug: prefectures.slug,
        name: prefectures.name,
        kana: prefectures.kana,
      })
      .from(prefectures)
      .orderBy(asc(prefectures.code)),
    db
      .select({
        id: areas.id,
        slug: areas.slug,
        name: areas.name,
        kana: areas.kana,
        parentId: areas.parentId,
      })
      .from(areas)
      .orderBy(asc(areas.sortOrder), asc(areas.slug)),
    db
      .select({
        id: stations.id,
        slug: stations.slug,
        name: stations.name,
        kana: stations.kana,
        parentId: stations.areaId,
        latitude: stations.latitude,
        longitude: stations.longitude,
      })
      .from(stations)
      .orderBy(asc(stations.slug)),
  ]);
  return buildLexicon([
    ...prefectureRows.map(({ code, ...row }) => ({
      ...row,
      id: String(code),
      parentId: null,
      kind: "prefecture" as const,
    })),
    ...areaRows.map((row) => ({ ...row, kind: "area" as const })),
    ...stationRows.map((row) => ({ ...row, kind: "station" as const })),
  ]);
}

/** Escapes LIKE wildcards so a keyword such as "100%" matches literally. */
export function likePattern(token: string) {
  return `%${token.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function textMatch(variants: readonly string[]): SQL {
  return or(
    ...variants.map((variant) => sql`${salons.searchText} like ${likePattern(variant)}`),
  ) as SQL;
}

/**
 * The salons.search_terms token that stands for a word, if any: a genre, a
 * feature or a dictionary keyword (decision 0023). searchConditions tests
 * all of a search's tokens in one `@>`.
 */
export function termToken(term: Term): string | undefined {
  switch (term.kind) {
    case "genre":
      return genreToken(term.genre);
    case "feature":
      return featureToken(term.feature);
    case "keyword":
      return term.token;
    default:
      return undefined;
  }
}

/** Salons whose search_terms hold every one of these tokens. */
export function hasTokens(tokens: readonly string[]): SQL {
  return sql`${salons.searchTerms} @> array[${sql.join(
    tokens.map((token) => sql`${token}`),
    sql`, `,
  )}]::text[]`;
}

/**
 * The condition one understood word puts on a salon. `typoTolerant` adds
 * pg_trgm's word similarity for longer unknown words; it is much dearer than
 * `like` (a similarity over every candidate row), so the search uses it only
 * when the exact words found nothing (hasTypoTolerance, searchSalons).
 */
export function termCondition(term: Term, typoTolerant = false): SQL {
  // Genres, features and dictionary keywords are tokens (searchConditions
  // tests all of a search's tokens in one `@>`).
  const token = termToken(term);
  if (token) return hasTokens([token]);
  switch (term.kind) {
    case "place": {
      const alternatives: SQL[] = [];
      if (term.areaIds.length > 0) alternatives.push(inArray(salons.areaId, term.areaIds));
      if (term.stationIds.length > 0) alternatives.push(inArray(salons.stationId, term.stationIds));
      if (term.prefectureCodes.length > 0) {
        alternatives.push(inArray(salons.prefectureCode, term.prefectureCodes));
      }
      return or(...alternatives) as SQL;
    }
    case "keyword":
      // `<%`: pg_trgm word similarity above its threshold (0.6), one
      // wrong or missing letter in a longer word ("ぱーまねんと", "balayge").
      return typoTolerant && term.fuzzy
        ? (or(textMatch(term.variants), sql`${term.variants[0]} <% ${salons.searchText}`) as SQL)
        : textMatch(term.variants);
    default:
      throw new Error(`a ${term.kind} word is a token`);
  }
}

/**
 * How much a salon is about the keywords, for the recommended order: a
 * keyword in the salon's name counts most, then a salon of the genre the
 * word is about (マツエク → まつげサロン), then a match anywhere in the
 * search text (menus).
 * Places, genres and features are filters every result meets, so they add
 * nothing here. Null when no word is a keyword: the order stays the index's.
 */
/** Whether a second, typo-tolerant search could find what the exact one did not. */
export function hasTypoTolerance(terms: readonly Term[]): boolean {
  return terms.some((term) => term.kind === "keyword" && term.fuzzy);
}

export function keywordRelevance(terms: readonly Term[]): SQL | undefined {
  const parts: SQL[] = [];
  for (const term of terms) {
    if (term.kind !== "keyword") continue;
    const nameForms = [
      ...new Set(
        term.variants.flatMap((v) => [likePattern(v), likePattern(hiraganaToKatakana(v))]),
      ),
    ];
    const inName = or(
      ...nameForms.map((pattern) => sql`lower(${salons.name}) like ${pattern}`),
      ...nameForms.map((pattern) => sql`${salons.nameKana} like ${pattern}`),
    ) as SQL;
    parts.push(sql`(case when ${inName} then 4 else 0 end)`);
    if (term.about) parts.push(sql`(case when ${salons.genre} = ${term.about} then 2 else 0 end)`);
  }
  return parts.length > 0 ? sql.join(parts, sql` + `) : undefined;
}
