import type { SearchQuery } from "../../common/search.schema";
import { SEARCH_LITERAL_PARAM, SEARCH_TYPED_PARAM } from "../../common/search-query";
import type { Database } from "../db/client";
import { loadLexicon } from "../search/keyword";
import { correctKeyword } from "../search/typo";
import { understandQuery } from "../search/understand";
import { countSalons } from "./search";
import { SUGGESTION_COUNT_CAP } from "./search-suggestions";

/** 「もしかして」: the same search with its misspelt words respelled, and what it finds. */
export type SearchCorrection = {
  /** The words as typed ("表参堂"). */
  typed: string;
  /** Their known spelling ("表参道"). */
  suggested: string;
  query: SearchQuery;
  total: number;
  /** Past SUGGESTION_COUNT_CAP the count stops: "100件以上". */
  totalIsLowerBound: boolean;
};

/**
 * For a search that found nothing (decision 0060): its keyword with each word
 * it did not understand respelled as the nearest place or dictionary word,
 * counted like the other suggestions; null when no word has a near spelling
 * or the respelled search finds nothing either. One count query at most.
 */
export async function correctSearch(
  db: Database,
  query: SearchQuery,
  now: Date,
  countCap: number = SUGGESTION_COUNT_CAP,
): Promise<SearchCorrection | null> {
  if (!query.q) return null;
  const lexicon = await loadLexicon(db);
  const correction = correctKeyword(understandQuery(query.q, lexicon), lexicon);
  if (!correction) return null;
  const corrected: SearchQuery = { ...query, q: correction.q, page: 1 };
  const total = await countSalons(db, corrected, now, countCap);
  if (total === 0) return null;
  return {
    typed: correction.typed,
    suggested: correction.suggested,
    query: corrected,
    total: Math.min(total, countCap),
    totalIsLowerBound: total > countCap,
  };
}

/**
 * How the page treats the keyword's spelling, from its URL (decision 0060):
 * `literal` (literal=1) searches the words as typed, never respelled;
 * `typed` is what the visitor typed on a search already respelled to `q`.
 * Otherwise a keyword that finds nothing while its respelling finds salons
 * is respelled at once (the page redirects to the respelled search).
 */
export type Spelling = { literal: boolean; typed?: string };

export function readSpelling(params: URLSearchParams): Spelling {
  const typed = params.get(SEARCH_TYPED_PARAM)?.trim();
  return { literal: params.has(SEARCH_LITERAL_PARAM), typed: typed || undefined };
}

/** Whether the page respells a keyword that finds nothing: not when told the words, nor twice. */
export const respellsAtOnce = (spelling: Spelling) => !spelling.literal && !spelling.typed;

/**
 * The search URL without a `typed` that `q` is not the respelling of (a
 * hand-edited link could make the page say 「なんでも」で検索する), nor one
 * beside `literal`, nor a `literal` without a keyword; null when all hold.
 */
export async function withoutUnknownSpelling(
  db: Database,
  params: URLSearchParams,
): Promise<URLSearchParams | null> {
  const { literal, typed } = readSpelling(params);
  const q = params.get("q")?.trim();
  let drop: string[] = [];
  if (!q) drop = [SEARCH_TYPED_PARAM, SEARCH_LITERAL_PARAM];
  else if (literal) drop = [SEARCH_TYPED_PARAM];
  else if (typed) {
    const lexicon = await loadLexicon(db);
    if (correctKeyword(understandQuery(typed, lexicon), lexicon)?.q !== q) {
      drop = [SEARCH_TYPED_PARAM];
    }
  }
  drop = drop.filter((name) => params.has(name));
  if (drop.length === 0) return null;
  const kept = new URLSearchParams(params);
  for (const name of drop) kept.delete(name);
  return kept;
}

/**
 * The URL of the respelled search the page shows instead of one that found
 * nothing: `q` respelled, the typed words in `typed`, page 1, every other
 * condition as it was.
 */
export function respelledSearchParams(
  params: URLSearchParams,
  typed: string,
  correction: SearchCorrection,
): URLSearchParams {
  const out = new URLSearchParams(params);
  out.set("q", correction.query.q ?? "");
  out.set(SEARCH_TYPED_PARAM, typed);
  out.delete("page");
  return out;
}

/**
 * How many salons the page lists for this search: a keyword that finds
 * nothing is counted as respelled when the page would show it respelled
 * (the phone dialog's count, so its number is the page's).
 */
export async function countSearchAsShown(
  db: Database,
  query: SearchQuery,
  now: Date,
  spelling: Spelling,
): Promise<number> {
  const total = await countSalons(db, query, now);
  if (total > 0 || !respellsAtOnce(spelling)) return total;
  const respell = await correctSearch(db, query, now, 1);
  return respell ? countSalons(db, respell.query, now) : 0;
}
