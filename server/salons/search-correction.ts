import type { SearchQuery } from "../../common/search.schema";
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
