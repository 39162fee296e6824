import { normalizeForSearch } from "./normalize";
import { romajiReadings } from "./readings";
import type { Lexicon, Meaning, Term } from "./understand";
import { placeSpellings, vocabulary } from "./vocabulary";

/**
 * 「もしかして」: the nearest known spelling of a word the search did not
 * understand (docs/decisions/0060-typo-suggestions.md). The known spellings
 * are the lexicon's own words — the places' names, kana and romaji and the
 * dictionary's variants — never a list of typos. Pure; the search page asks
 * only when a search found nothing.
 */

/** A keyword with its unknown words respelled. */
export type KeywordCorrection = {
  /** The words as the visitor typed them ("表参堂"). */
  typed: string;
  /** What they become ("表参道"). */
  suggested: string;
  /** The whole keyword with them replaced ("表参道 カット"). */
  q: string;
};

/**
 * The keyword with every free word (one the lexicon did not know) that has
 * a near known spelling replaced by it, or null when none has.
 */
export function correctKeyword(terms: readonly Term[], lexicon: Lexicon): KeywordCorrection | null {
  const fixes = new Map<Term, string>();
  for (const term of terms) {
    // A dictionary keyword (its token) was understood; only the visitor's own words are unknown.
    if (term.kind !== "keyword" || term.token) continue;
    const suggested = correctWord(term.typed, lexicon);
    if (suggested) fixes.set(term, suggested);
  }
  if (fixes.size === 0) return null;
  return {
    typed: [...fixes.keys()].map((term) => term.typed).join(" "),
    suggested: [...fixes.values()].join(" "),
    q: terms.map((term) => fixes.get(term) ?? term.typed).join(" "),
  };
}

/**
 * One unknown word respelled: the word itself, a place with 駅 (表参堂駅),
 * or a word typed without a space beside a known one (表参堂カット).
 */
export function correctWord(typed: string, lexicon: Lexicon): string | undefined {
  const word = normalizeForSearch(typed);
  if (!word || lexicon.words.has(word)) return undefined;
  const whole = nearestSpelling(word, lexicon);
  if (whole) return whole;
  const station = /^(.{2,})駅$/u.exec(word)?.[1];
  if (station) {
    const place = nearest(station, lexicon, true);
    return place ? `${place}駅` : undefined;
  }
  return joinedWithKnown(word, typed, lexicon);
}

/** Minimum characters (two, then one edit) for words in Latin letters: short romaji collide. */
const LATIN_ONE_EDIT = 5;
/** From this length a kana or romaji word may be two edits away, if only one word is that near. */
const TWO_EDITS = 7;
/** Kanji and kana words of this length or shorter get one edit at most. */
const SHORT_WORD = 6;

/**
 * The display spelling (表参道, not おもてさんどう; カット, not かっと) of
 * the known word nearest to `word`, or undefined. Word lengths:
 * - 1 character, or 2 in kana or Latin letters: nothing (too many neighbours);
 * - 2 kanji: one wrong kanji, only towards a place, and only when a single
 *   place is that near (渋矢 → 渋谷; 新谷 is as near 新宿 as 渋谷: nothing);
 * - 3–6 kanji or kana, 5–6 Latin letters: one edit;
 * - longer kana or Latin: two edits when a single word is that near.
 * Among the nearest, a place wins over a dictionary word, then a word of the
 * same length, then the spelling's order (deterministic).
 */
export function nearestSpelling(typed: string, lexicon: Lexicon): string | undefined {
  const word = normalizeForSearch(typed);
  if (!word || lexicon.words.has(word)) return undefined;
  return nearest(word, lexicon, false);
}

type Entry = {
  key: string;
  chars: string[];
  /** The key's characters, to skip a word sharing too few of them without aligning. */
  charSet: ReadonlySet<string>;
  display: string;
  place: boolean;
};
type Candidate = Entry & { cost: number };

function nearest(word: string, lexicon: Lexicon, placesOnly: boolean): string | undefined {
  const chars = [...word];
  const length = chars.length;
  const latin = /^[a-z]+$/u.test(word);
  const kanaOrLatin = latin || /^[\p{Script=Hiragana}ー]+$/u.test(word);
  const twoKanji = length === 2 && /^\p{Script=Han}{2}$/u.test(word);
  let maxCost = 0;
  if (twoKanji) maxCost = 1;
  else if (latin) maxCost = length >= TWO_EDITS ? 2 : length >= LATIN_ONE_EDIT ? 1 : 0;
  else if (length >= 3) maxCost = length > SHORT_WORD && kanaOrLatin ? 2 : 1;
  if (maxCost === 0) return undefined;

  const byLength = indexOf(lexicon);
  const candidates: Candidate[] = [];
  const lengths = twoKanji ? [length] : range(length - maxCost, length + maxCost);
  for (const keyLength of lengths) {
    for (const entry of byLength.get(keyLength) ?? []) {
      if ((placesOnly || twoKanji) && !entry.place) continue;
      // Each edit accounts for at most one of the word's letters missing from the key.
      let missing = 0;
      for (const char of chars) if (!entry.charSet.has(char) && ++missing > maxCost) break;
      if (missing > maxCost) continue;
      const cost = editCost(chars, entry.chars, maxCost);
      if (cost <= maxCost) candidates.push({ ...entry, cost });
    }
  }
  candidates.sort(
    (a, b) =>
      a.cost - b.cost ||
      Number(b.place) - Number(a.place) ||
      Math.abs(a.chars.length - length) - Math.abs(b.chars.length - length) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const best = candidates[0];
  if (!best) return undefined;
  // A guess between two places (新谷: 新宿 or 渋谷?) or two far words is no suggestion.
  const mustBeAlone = twoKanji || best.cost > 1;
  if (
    mustBeAlone &&
    candidates.some((other) => other.cost <= best.cost && other.display !== best.display)
  ) {
    return undefined;
  }
  return best.display;
}

/**
 * 表参堂カット: Japanese is typed without spaces, so an unknown word may be a
 * known one beside a misspelt place. The place side follows the same rules
 * as a word of its own; the known side is kept as typed. Only places: a
 * menu's name is often a known word beside another (ヘアセット is not
 * ヘア + カット).
 */
function joinedWithKnown(word: string, typed: string, lexicon: Lexicon): string | undefined {
  const chars = [...word];
  const typedChars = [...typed.normalize("NFKC")];
  const piece = (start: number, end?: number) =>
    (typedChars.length === chars.length ? typedChars : chars).slice(start, end).join("");
  // The longest known piece first: ネイルカラ is ネイル + カラ, not ネ + イルカラ.
  for (let known = chars.length - 2; known >= 2; known--) {
    const rest = chars.length - known;
    const tail = chars.slice(rest).join("");
    if (lexicon.words.has(tail)) {
      const head = nearest(chars.slice(0, rest).join(""), lexicon, true);
      if (head) return `${head}${piece(rest)}`;
    }
    const head = chars.slice(0, known).join("");
    if (lexicon.words.has(head)) {
      const tailFix = nearest(chars.slice(known).join(""), lexicon, true);
      if (tailFix) return `${piece(0, known)}${tailFix}`;
    }
  }
  return undefined;
}

/**
 * Damerau–Levenshtein (optimal string alignment) cost of turning `a` into
 * `b`, stopping early past `max`. A kana differing only by its dakuten or
 * its size (と/ど, ゆ/ゅ) costs less than another letter: the commonest
 * slips of kana input, so かっど is nearer カット than カード.
 */
export function editCost(a: readonly string[], b: readonly string[], max: number): number {
  if (Math.abs(a.length - b.length) > max) return Number.POSITIVE_INFINITY;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const x = a[i - 1] as string;
      const y = b[j - 1] as string;
      const substitution = x === y ? 0 : similarKana(x, y) ? SIMILAR_KANA_COST : 1;
      let cost = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + substitution,
      );
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) {
        cost = Math.min(cost, (before[j - 2] as number) + 1);
      }
      current[j] = cost;
      rowMin = Math.min(rowMin, cost);
    }
    if (rowMin > max) return Number.POSITIVE_INFINITY;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/** Less than one edit, more than half: two such slips still count as more than one edit. */
const SIMILAR_KANA_COST = 0.75;
const SMALL_KANA = "ぁぃぅぇぉっゃゅょゎ";
const LARGE_KANA = "あいうえおつやゆよわ";

function similarKana(x: string, y: string): boolean {
  return baseKana(x) === baseKana(y);
}

function baseKana(char: string): string {
  const small = SMALL_KANA.indexOf(char);
  if (small >= 0) return LARGE_KANA[small] as string;
  // が → か + the combining dakuten; ぱ → は + handakuten.
  return char.normalize("NFD").replace(/[\u3099\u309a]/gu, "");
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = Math.max(1, from); n <= to; n++) out.push(n);
  return out;
}

/** The lexicon's words by length, with their display spellings; built once per lexicon. */
const indexes = new WeakMap<Lexicon, Map<number, Entry[]>>();

function indexOf(lexicon: Lexicon): Map<number, Entry[]> {
  let index = indexes.get(lexicon);
  if (!index) {
    const displays = displaySpellings(lexicon);
    index = new Map();
    for (const [key, meaning] of lexicon.words) {
      const chars = [...key];
      // One-character words (眉) are no one's typo target.
      if (chars.length < 2) continue;
      const entry = {
        key,
        chars,
        charSet: new Set(chars),
        display: displays.get(key) ?? key,
        place: meaning.kind === "place",
      };
      const sameLength = index.get(chars.length);
      if (sameLength) sameLength.push(entry);
      else index.set(chars.length, [entry]);
    }
    indexes.set(lexicon, index);
  }
  return index;
}

/**
 * How each of the lexicon's words is shown: a place's name for its own
 * spelling, kana and romaji (おもてさんどう, omotesando → 表参道; the part of
 * a two-part name: しぶや → 渋谷); another spelling of a place as written, or
 * in kana or Latin letters as the kanji spelling listed before it
 * (nagoya → 名古屋); a dictionary variant as written (かっと → カット). Of a
 * word's possible spellings, the first that means all the word means
 * (さんのみや is the area part 三宮 and the station 三ノ宮: 三ノ宮 names
 * both only if searched as such, so neither, and the kana is kept).
 */
export function displaySpellings(lexicon: Lexicon): Map<string, string> {
  const options = new Map<string, string[]>();
  const show = (word: string, display: string) => {
    const key = normalizeForSearch(word);
    if (!key) return;
    const list = options.get(key);
    if (list) list.push(display);
    else options.set(key, [display]);
  };
  for (const place of lexicon.places) {
    const names = [place.name, ...parts(place.name)];
    const kanas = [place.kana, ...parts(place.kana)];
    const suffix = place.kind === "prefecture" ? /[都府県]$/u.exec(place.name)?.[0] : undefined;
    if (suffix) {
      // 東京都 → 東京; the kana's suffix is dropped alike (とうきょうと → とうきょう).
      names.push(place.name.slice(0, -1));
      kanas.push(place.kana.replace(/(けん|ふ|と)$/u, ""));
    }
    for (const name of names) {
      show(name, name);
      let written = name;
      for (const spelling of placeSpellings[name] ?? []) {
        if (/\p{Script=Han}|\p{Script=Katakana}/u.test(spelling)) written = spelling;
        show(spelling, written);
      }
    }
    kanas.forEach((kana, i) => {
      const name = (kanas.length === names.length ? names[i] : undefined) ?? place.name;
      show(kana, name);
      for (const romaji of readingsOf(normalizeForSearch(kana))) show(romaji, name);
    });
  }
  for (const entry of vocabulary) {
    for (const variant of entry.variants) show(variant, variant);
  }
  const displays = new Map<string, string>();
  for (const [key, meaning] of lexicon.words) {
    const display = options
      .get(key)
      ?.find((option) => sameMeaning(lexicon.words.get(normalizeForSearch(option)), meaning));
    if (display) displays.set(key, display);
  }
  return displays;
}

function sameMeaning(a: Meaning | undefined, b: Meaning): boolean {
  if (!a || a.kind !== b.kind) return false;
  if (a.kind !== "place" || b.kind !== "place") return a.label === b.label;
  const same = (x: readonly (string | number)[], y: readonly (string | number)[]) =>
    x.length === y.length && x.every((value) => y.includes(value));
  return (
    same(a.areaIds, b.areaIds) &&
    same(a.stationIds, b.stationIds) &&
    same(a.prefectureCodes, b.prefectureCodes)
  );
}

/**
 * romajiReadings, kept across lexicons: the lexicon is reread every minute
 * with the same places, and romanizing every reading again is most of the
 * cost of the display spellings.
 */
const romajiOfKana = new Map<string, string[]>();

function readingsOf(kana: string): string[] {
  let readings = romajiOfKana.get(kana);
  if (!readings) {
    readings = romajiReadings(kana);
    romajiOfKana.set(kana, readings);
  }
  return readings;
}

function parts(text: string): string[] {
  const split = text.split(/[・･/／]/u).map((part) => part.trim());
  return split.length > 1 ? split.filter(Boolean) : [];
}
