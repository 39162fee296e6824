import type { SalonGenre } from "../../common/genres";
import { normalizeForSearch } from "./normalize";
import { romajiReadings } from "./readings";
import { keywordToken } from "./search-terms";
import { placeSpellings, unconditionalWords, vocabulary } from "./vocabulary";

/**
 * Query understanding: what each word of the keyword box means. A word that
 * names a place becomes a place filter, a genre word a genre filter, a
 * feature word a feature filter, anything else a keyword matched against the
 * salon's search text (with the dictionary's variants). Every word must hold
 * (AND). Pure: the places come in as a Lexicon built from the areas and
 * stations tables (server/search/keyword.ts loads it).
 */

export type PlaceRow = {
  kind: "prefecture" | "area" | "station";
  id: string;
  slug: string;
  name: string;
  kana: string;
  /** Areas: the parent area; stations: their area. */
  parentId: string | null;
  latitude?: number;
  longitude?: number;
};

export type Meaning =
  | {
      kind: "place";
      label: string;
      /** Areas with their sub-areas, and stations, any of which matches. */
      areaIds: string[];
      stationIds: string[];
      /** Prefectures (東京, 大阪府, osaka): their codes. */
      prefectureCodes: number[];
    }
  | { kind: "genre"; label: string; genre: SalonGenre }
  | { kind: "feature"; label: string; feature: string }
  | {
      kind: "keyword";
      label: string;
      variants: string[];
      about?: SalonGenre;
      fuzzy: boolean;
      /**
       * A dictionary keyword's token in salons.search_terms (k:<canonical>,
       * decision 0023), which replaces looking for `variants` in the text.
       * Absent for words the dictionary does not know.
       */
      token?: string;
    };

export type Term = Meaning & { typed: string };

export type Lexicon = {
  words: ReadonlyMap<string, Meaning>;
  places: readonly PlaceRow[];
};

const STATION_SUFFIXES = ["駅", "えき", "eki", " station", "station"];
/** Typed between words as people separate them: 渋谷、カット / 渋谷,カット / 渋谷/カット. */
const SEPARATORS = /[、。,/+&|!?]/gu;
/** One particle between two known words joins them: 新宿のカット, 梅田でまつげパーマ. */
const PARTICLES = new Set(["の", "で", "に", "と", "や", "は", "が", "を", "へ", "も"]);
/** Words that add no condition (安い, おすすめ, 近く): dropped, so the rest still finds salons. */
const UNCONDITIONAL = new Set(unconditionalWords.map(normalizeForSearch));
/** Words this short are too ambiguous to correct or to split a word into. */
const MIN_FUZZY_LENGTH = 5;
/** pg_trgm similarity needs a few trigrams to mean anything. */
const MIN_TRIGRAM_LENGTH = 4;

/** Builds the word list from the dictionary and the areas and stations. */
export function buildLexicon(places: readonly PlaceRow[]): Lexicon {
  const words = new Map<string, Meaning>();
  const put = (word: string, meaning: Meaning) => {
    const key = normalizeForSearch(word);
    if (key && !words.has(key)) words.set(key, meaning);
  };
  // Places first: a station's name wins over a dictionary word of the same spelling.
  const subAreas = new Map<string, string[]>();
  for (const place of places) {
    if (place.kind === "area" && place.parentId) {
      subAreas.set(place.parentId, [...(subAreas.get(place.parentId) ?? []), place.id]);
    }
  }
  const placeWords = new Map<
    string,
    { label: string; areaIds: Set<string>; stationIds: Set<string>; prefectureCodes: Set<number> }
  >();
  const addPlace = (word: string, place: PlaceRow) => {
    const key = normalizeForSearch(word);
    if (!key) return;
    const entry = placeWords.get(key) ?? {
      label: place.name,
      areaIds: new Set<string>(),
      stationIds: new Set<string>(),
      prefectureCodes: new Set<number>(),
    };
    if (place.kind === "area") {
      entry.areaIds.add(place.id);
      for (const sub of subAreas.get(place.id) ?? []) entry.areaIds.add(sub);
    } else if (place.kind === "station") entry.stationIds.add(place.id);
    else entry.prefectureCodes.add(Number(place.id));
    placeWords.set(key, entry);
  };
  for (const place of places) {
    const names = [place.name, ...splitParts(place.name)];
    const kanas = [place.kana, ...splitParts(place.kana)];
    if (place.kind === "prefecture") {
      // 東京都 → 東京 (とうきょう, tokyo); 北海道 keeps its name.
      const suffix = /[都府県]$/u.exec(place.name)?.[0];
      const kanaSuffix =
        suffix === "県" ? "けん" : suffix === "府" ? "ふ" : suffix === "都" ? "と" : "";
      if (suffix && place.kana.endsWith(kanaSuffix)) {
        names.push(place.name.slice(0, -1));
        kanas.push(place.kana.slice(0, -kanaSuffix.length));
      }
    }
    for (const name of names) {
      addPlace(name, place);
      for (const spelling of placeSpellings[name] ?? []) addPlace(spelling, place);
    }
    for (const kana of kanas) {
      addPlace(kana, place);
      for (const romaji of romajiReadings(normalizeForSearch(kana))) addPlace(romaji, place);
    }
  }
  for (const [key, entry] of placeWords) {
    words.set(key, {
      kind: "place",
      label: entry.label,
      areaIds: [...entry.areaIds],
      stationIds: [...entry.stationIds],
      prefectureCodes: [...entry.prefectureCodes],
    });
  }
  for (const entry of vocabulary) {
    const meaning: Meaning =
      entry.kind === "genre"
        ? { kind: "genre", label: entry.canonical, genre: entry.genre }
        : entry.kind === "feature"
          ? { kind: "feature", label: entry.canonical, feature: entry.feature }
          : {
              kind: "keyword",
              label: entry.canonical,
              variants: searchedForms([entry.canonical, ...entry.searchFor]),
              about: entry.about,
              fuzzy: false,
              token: keywordToken(entry.canonical),
            };
    for (const variant of entry.variants) put(variant, meaning);
  }
  return { words, places };
}

/**
 * The spellings to look for in a salon's text: a variant containing another
 * adds nothing to `like '%…%'` (まつげえくすて contains えくすて), and every
 * pattern is one more pass over the text.
 */
export function searchedForms(variants: readonly string[]): string[] {
  const forms = [...new Set(variants.map(normalizeForSearch))];
  return forms.filter((form) => !forms.some((other) => other !== form && form.includes(other)));
}

/** "渋谷・原宿" → ["渋谷", "原宿"]; names without a separator give nothing extra. */
function splitParts(text: string): string[] {
  const parts = text.split(/[・･/／]/u).map((part) => part.trim());
  return parts.length > 1 ? parts.filter(Boolean) : [];
}

/** The keyword box's words with their meanings, in the order typed. */
export function understandQuery(q: string, lexicon: Lexicon): Term[] {
  const text = q.normalize("NFKC").replace(SEPARATORS, " ");
  const tokens = normalizeForSearch(text).split(" ").filter(Boolean);
  // The words as typed (only width-folded), to show and to hand back in
  // suggestions; normalizing keeps one character per character, so a
  // position in one is the same position in the other.
  const typedTokens = text.trim().split(/\s+/u).filter(Boolean);
  const typedOf = (i: number) =>
    typedTokens.length === tokens.length ? (typedTokens[i] ?? "") : (tokens[i] ?? "");
  const terms: Term[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? "";
    // Two-word names ("hair salon", "head spa", "shinjuku station").
    const pair = i + 1 < tokens.length ? `${token} ${tokens[i + 1]}` : "";
    const pairMeaning = pair ? lookUp(pair, lexicon) : undefined;
    if (pairMeaning) {
      terms.push({ ...pairMeaning, typed: `${typedOf(i)} ${typedOf(i + 1)}` });
      i++;
      continue;
    }
    terms.push(...understandWord(token, typedOf(i), lexicon));
  }
  return dedupe(terms);
}

function understandWord(word: string, typed: string, lexicon: Lexicon): Term[] {
  if (UNCONDITIONAL.has(word)) return [];
  const known = lookUp(word, lexicon) ?? closeMatch(word, lexicon);
  if (known) return [{ ...known, typed }];
  // Japanese is typed without spaces: "表参道ネイル", "新宿駅まつげパーマ".
  const pieces = segment(word, typed, lexicon);
  if (pieces) return pieces;
  // カット・カラー: words joined by a middle dot that is not part of a known name.
  const parts = word.split("・");
  const typedParts = typed.split("・");
  if (parts.length > 1 && parts.every(Boolean)) {
    return parts.flatMap((part, i) =>
      understandWord(
        part,
        typedParts.length === parts.length ? (typedParts[i] ?? part) : part,
        lexicon,
      ),
    );
  }
  return [
    {
      kind: "keyword",
      label: typed,
      variants: [word],
      fuzzy: [...word].length >= MIN_TRIGRAM_LENGTH,
      typed,
    },
  ];
}

/** A known word, or a place name followed by 駅 ("新宿駅", "しんじゅくえき"). */
function lookUp(word: string, lexicon: Lexicon): Meaning | undefined {
  const meaning = lexicon.words.get(word);
  if (meaning) return meaning;
  for (const suffix of STATION_SUFFIXES) {
    if (word.length > suffix.length && word.endsWith(suffix)) {
      const place = lexicon.words.get(word.slice(0, -suffix.length).trim());
      if (place?.kind === "place") return place;
    }
  }
  return undefined;
}

/**
 * One typing error (a letter missing, extra, wrong or two swapped) in a
 * longer word still finds the place or dictionary word: "shinjku",
 * "omotesnado". Short words are left alone: too many would collide.
 */
function closeMatch(word: string, lexicon: Lexicon): Meaning | undefined {
  const length = [...word].length;
  if (length < MIN_FUZZY_LENGTH) return undefined;
  for (const [key, meaning] of lexicon.words) {
    const keyLength = [...key].length;
    if (keyLength < MIN_FUZZY_LENGTH || Math.abs(keyLength - length) > 1) continue;
    if (withinOneEdit(word, key)) return meaning;
  }
  return undefined;
}

/** Damerau–Levenshtein distance ≤ 1 (one insertion, deletion, substitution or swap). */
export function withinOneEdit(a: string, b: string): boolean {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  if (i === x.length && i === y.length) return true;
  const rest = (p: number, q: number) => x.slice(p).join("") === y.slice(q).join("");
  if (x.length === y.length) {
    if (rest(i + 1, i + 1)) return true;
    return x[i] === y[i + 1] && x[i + 1] === y[i] && rest(i + 2, i + 2);
  }
  return x.length > y.length ? rest(i + 1, i) : rest(i, i + 1);
}

/**
 * Splits a word into known words when it is made of nothing else (longest
 * first), skipping a particle between two of them (新宿のカット) and words
 * that add no condition (安いカット). A word with anything unknown in it
 * stays whole, so a salon's name ("ネイルベータ") is not cut into a genre and
 * a remainder.
 */
function segment(word: string, typed: string, lexicon: Lexicon): Term[] | undefined {
  const chars = [...word];
  const typedChars = [...typed];
  const typedPiece = (start: number, end: number) =>
    typedChars.length === chars.length
      ? typedChars.slice(start, end).join("")
      : chars.slice(start, end).join("");
  // From each position to the end: the terms, and how many pieces they were cut into.
  type Cut = { terms: Term[]; pieces: number };
  const best: (Cut | undefined)[] = new Array(chars.length + 1).fill(undefined);
  best[chars.length] = { terms: [], pieces: 0 };
  for (let start = chars.length - 1; start >= 0; start--) {
    for (let end = chars.length; end >= start + 2; end--) {
      const rest = best[end];
      if (!rest) continue;
      const piece = chars.slice(start, end).join("");
      if (UNCONDITIONAL.has(piece)) {
        best[start] = { terms: rest.terms, pieces: rest.pieces + 1 };
        break;
      }
      const meaning = lookUp(piece, lexicon);
      if (meaning) {
        best[start] = {
          terms: [{ ...meaning, typed: typedPiece(start, end) }, ...rest.terms],
          pieces: rest.pieces + 1,
        };
        break;
      }
    }
    const afterParticle = best[start + 1];
    if (
      !best[start] &&
      start > 0 &&
      PARTICLES.has(chars[start] ?? "") &&
      afterParticle?.terms.length
    ) {
      best[start] = afterParticle;
    }
  }
  const cut = best[0];
  return cut && cut.pieces > 1 && cut.terms.length > 0 ? cut.terms : undefined;
}

/** The same word twice ("ネイル ネイルサロン") is one condition. */
function dedupe(terms: Term[]): Term[] {
  const seen = new Set<string>();
  return terms.filter((term) => {
    const key =
      term.kind === "place"
        ? `place:${term.areaIds.join()}:${term.stationIds.join()}:${term.prefectureCodes.join()}`
        : term.kind === "genre"
          ? `genre:${term.genre}`
          : term.kind === "feature"
            ? `feature:${term.feature}`
            : `keyword:${term.variants.join()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The keyword box's text without the given terms (for suggestions). */
export function withoutTerms(terms: readonly Term[], drop: (term: Term) => boolean): string {
  return terms
    .filter((term) => !drop(term))
    .map((term) => term.typed)
    .join(" ");
}
