import type { SalonGenre } from "../../common/genres";
import { normalizeForSearch } from "./normalize";
import { type VocabularyEntry, vocabulary } from "./vocabulary";

/**
 * salons.search_terms (docs/decisions/0023-search-terms.md): what a salon
 * is, as tokens one GIN or b-tree index answers with `@>` instead of a
 * `like` pass over its text per word. `g:<genre>`, `f:<feature slug>` and
 * `k:<canonical>` for each dictionary keyword (vocabulary.ts) found in the
 * salon's search text. Unknown words still search the text (pg_trgm).
 */

/**
 * Bump when the tokens change meaning or the text's normalization changes, so
 * stored search text and terms are recomputed (ensureSearchTermsCurrent).
 * 2: ヶ/ケ between kanji read as が, a dash after kana as ー (normalize.ts); the
 *    catch copy in the search text (salon-search-text.ts).
 */
export const SEARCH_TERMS_VERSION = 2;

export const genreToken = (genre: SalonGenre) => `g:${genre}`;
export const featureToken = (slug: string) => `f:${slug}`;
export const keywordToken = (canonical: string) => `k:${canonical}`;

type KeywordEntry = Extract<VocabularyEntry, { kind: "keyword" }>;

/** Each dictionary keyword with the normalized spellings that give a salon its token. */
export function keywordForms(entries: readonly VocabularyEntry[] = vocabulary) {
  return entries
    .filter((entry): entry is KeywordEntry => entry.kind === "keyword")
    .map((entry) => ({
      token: keywordToken(entry.canonical),
      forms: [
        ...new Set([entry.canonical, ...entry.searchFor].map(normalizeForSearch).filter(Boolean)),
      ],
    }));
}

const defaultForms = keywordForms();

/**
 * The tokens of one salon. `searchText` is salons.search_text (already
 * normalized by salonSearchText); it is normalized again so a caller's raw
 * text gives the same tokens. The keyword forms are those the query side
 * would look for with `like` (understand.ts, searchedForms), so a token
 * stands for exactly the match it replaces. Sorted, without duplicates.
 */
export function salonSearchTerms(
  salon: { genre: SalonGenre; featureSlugs: readonly string[]; searchText: string },
  forms: ReturnType<typeof keywordForms> = defaultForms,
): string[] {
  const text = normalizeForSearch(salon.searchText);
  const tokens = new Set<string>([genreToken(salon.genre)]);
  for (const slug of salon.featureSlugs) tokens.add(featureToken(slug));
  for (const keyword of forms) {
    if (keyword.forms.some((form) => text.includes(form))) tokens.add(keyword.token);
  }
  return [...tokens].sort();
}
