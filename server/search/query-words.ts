import {
  addDays,
  isLocalDate,
  type LocalDate,
  type LocalTime,
  toLocal,
  type Weekday,
  weekdayOf,
} from "../../common/local-time";
import { KEYWORD_MAX_LENGTH } from "../../common/search.schema";

/**
 * Dates, times and prices typed in the keyword box (issue 31,
 * docs/decisions/0059-query-words.md): 「明日 19時以降 カット 新宿」 is the
 * keyword 「カット 新宿」 with date = tomorrow and from = 19:00. Pure: the
 * caller passes the request's clock, and relative dates are the visitor's
 * calendar days in `timeZone` (Japan), never the server's.
 *
 * Only whole words are read. A word typed without spaces counts when what
 * touches it is another word read, a space or punctuation, or (for words of
 * two characters or more) a change of script that is not hiragana: 「明日19時以降カット」
 * is read, 「夜桜サロン」, 「明日香」, 「土日営業」 and 「夜20時以降も受付」 are not.
 */

export type QueryWordFilters = {
  date?: LocalDate;
  dateTo?: LocalDate;
  from?: LocalTime;
  to?: LocalTime;
  priceMin?: number;
  priceMax?: number;
  /**
   * A weekday word typed on that weekday (土曜 on a Saturday) means today, or
   * this date a week on when today has nothing left for the search (its last
   * free time has passed): the caller decides, with the database.
   */
  nextWeek?: LocalDate;
};

export type QueryWord = { typed: string; filters: QueryWordFilters };

export type QueryWords = {
  /** The words read, in the order typed, each as typed. */
  words: QueryWord[];
  /** All their filters together. */
  filters: QueryWordFilters;
  /** The keyword without them (the words as typed, one space apart); `q` itself when none was read. */
  rest: string;
};

/** The same highest yen amount the search query accepts (common/search.schema.ts). */
const MAX_YEN = 1_000_000;

/** 夜 from 18:00, 夕方 16:00–18:00, 午前 to 12:00, 午後 from 12:00, 朝 to 10:00 (decision 0059). */
const PERIODS: Record<string, QueryWordFilters> = {
  夜: { from: "18:00" },
  夕方: { from: "16:00", to: "18:00" },
  午前中: { to: "12:00" },
  午前: { to: "12:00" },
  午後: { from: "12:00" },
  朝: { to: "10:00" },
};

const WEEKDAYS = "日月火水木金土";

type Context = { today: LocalDate; weekday: Weekday };
type Rule = {
  pattern: RegExp;
  read: (match: RegExpExecArray, context: Context) => QueryWordFilters | undefined;
};

// Building blocks of the patterns, on NFKC text (full-width digits, colons
// and ～ are half-width by then; 〜 stays a wave dash).
const TILDE = "[~〜]";
const DASH = "(?:[~〜\\-−]|から)";
/** 3000, 3,000, 1.5万, 1万5千, 1万5000, 5千, 千 */
const AMOUNT = "((?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?(?:万(?:\\d千|\\d{4})?|千)?|千)";
const NOT_AFTER_NUMBER = "(?<![\\d.,])";
/** 19時, 19時半, 19時30分, 19:30, 夜8時, 午後7時 */
const CLOCK = "(夜|午後|朝|午前)?(\\d{1,2})(?:時(?:(\\d{1,2})分|(半))?|:(\\d{2}))";
const DAY_OF_WEEK = `(?:\\([${WEEKDAYS}](?:曜日?)?\\))?`;

const rule = (pattern: string, read: Rule["read"]): Rule => ({
  pattern: new RegExp(pattern, "uy"),
  read,
});

const RULES: Rule[] = [
  // Dates.
  rule("今日|本日|きょう", (_, c) => ({ date: c.today })),
  rule("明日|あした|あす", (_, c) => ({ date: addDays(c.today, 1) })),
  rule("明後日|あさって", (_, c) => ({ date: addDays(c.today, 2) })),
  rule("今夜|今晩", (_, c) => ({ date: c.today, from: "18:00" })),
  rule("今週末|この週末|週末|今週の土日|土日", (_, c) => weekend(c)),
  rule("来週末|来週の週末|来週の土日", (_, c) => {
    const saturday = addDays(nextMonday(c), 5);
    return { date: saturday, dateTo: addDays(saturday, 1) };
  }),
  rule(`(来週の?)?([${WEEKDAYS}])曜日?`, (m, c) => {
    const day = WEEKDAYS.indexOf(m[2] ?? "");
    if (m[1]) return { date: addDays(nextMonday(c), (day + 6) % 7) };
    if (day === c.weekday) return { date: c.today, nextWeek: addDays(c.today, 7) };
    return { date: addDays(c.today, (day - c.weekday + 7) % 7) };
  }),
  rule(`${NOT_AFTER_NUMBER}(?:(\\d{4})年)?(\\d{1,2})月(\\d{1,2})日${DAY_OF_WEEK}`, (m, c) =>
    calendarDate(m[1], m[2], m[3], c),
  ),
  rule(`${NOT_AFTER_NUMBER}(?:(\\d{4})/)?(\\d{1,2})/(\\d{1,2})(?![\\d/])${DAY_OF_WEEK}`, (m, c) =>
    calendarDate(m[1], m[2], m[3], c),
  ),
  rule(`${NOT_AFTER_NUMBER}(\\d{4})-(\\d{1,2})-(\\d{1,2})(?![\\d-])${DAY_OF_WEEK}`, (m, c) =>
    calendarDate(m[1], m[2], m[3], c),
  ),
  // Times of day.
  ...Object.entries(PERIODS).map(([word, filters]) => rule(word, () => filters)),
  rule(`${NOT_AFTER_NUMBER}${CLOCK}(?:以降|以後|から|${TILDE})`, (m) => {
    const from = clock(m, 1);
    return from && from < "24:00" ? { from } : undefined;
  }),
  rule(`${NOT_AFTER_NUMBER}${CLOCK}(?:まで|より前|前)`, (m) => {
    const to = clock(m, 1);
    return to && to > "00:00" ? { to } : undefined;
  }),
  rule(`${NOT_AFTER_NUMBER}${CLOCK}${DASH}${CLOCK}(?:まで)?`, (m) => {
    const from = clock(m, 1);
    // The second time's groups follow the first's five.
    const to = clock(m, 6);
    return from && to && from < to ? { from, to } : undefined;
  }),
  // 18〜20時: the first hour without its 時.
  rule(`${NOT_AFTER_NUMBER}(\\d{1,2})${DASH}(\\d{1,2})時(?:まで)?`, (m) => {
    const from = hourMinute(Number(m[1]), 0);
    const to = hourMinute(Number(m[2]), 0);
    return from && to && from < to ? { from, to } : undefined;
  }),
  // Prices (the salon's cheapest menu, as the form's 価格帯).
  rule(`${NOT_AFTER_NUMBER}${AMOUNT}円?${DASH}${AMOUNT}円(?:まで|以下|以内)?`, (m) => {
    const high = amount(m[2]);
    let low = amount(m[1]);
    if (low === undefined || high === undefined) return undefined;
    // 1〜2万円, 3~5千円: a first number without a unit takes the second's, if that still fits.
    const unit = /万/u.test(m[2] ?? "") ? 10_000 : /千/u.test(m[2] ?? "") ? 1000 : 1;
    if (!/[万千]/u.test(m[1] ?? "") && low * unit <= high) low *= unit;
    return { priceMin: Math.min(low, high), priceMax: Math.max(low, high) };
  }),
  rule(`${NOT_AFTER_NUMBER}${AMOUNT}円(?:以下|まで|以内)`, (m) => price("priceMax", m[1])),
  rule(`${TILDE}${AMOUNT}円(?:以下|まで|以内)?`, (m) => price("priceMax", m[1])),
  rule(`${NOT_AFTER_NUMBER}${AMOUNT}円未満`, (m) => price("priceMax", m[1], -1)),
  rule(`${NOT_AFTER_NUMBER}${AMOUNT}円(?:以上|から|${TILDE})`, (m) => price("priceMin", m[1])),
  rule(`${NOT_AFTER_NUMBER}${AMOUNT}円超`, (m) => price("priceMin", m[1], 1)),
];

/** Joins two words read (明日の夜, 明日の19時以降); after a read word, の also joins it to the rest (3000円以下のネイル). */
const PARTICLES = new Set(["の", "で", "に", "は"]);

type Script = "digit" | "latin" | "hiragana" | "katakana" | "kanji" | "break" | "other";

function scriptOf(char: string): Script {
  if (/\d/u.test(char)) return "digit";
  if (/[A-Za-z]/u.test(char)) return "latin";
  if (/[\p{Script=Hiragana}]/u.test(char)) return "hiragana";
  if (/[\p{Script=Katakana}ー]/u.test(char)) return "katakana";
  if (/[\p{Script=Han}々〆]/u.test(char)) return "kanji";
  if (/[\s、。,.!?・()「」『』【】/]/u.test(char)) return "break";
  return "other";
}

type Candidate = {
  start: number;
  end: number;
  filters: QueryWordFilters;
  /** One character (夜, 朝): read only beside a space, punctuation or another word read. */
  single: boolean;
  /** Starts with a digit or ~: a number with its unit cannot be part of a longer word. */
  numeric: boolean;
};

/** The dates, times and prices of the keyword box, and the keyword without them. */
export function readQueryWords(q: string, now: Date, timeZone = "Asia/Tokyo"): QueryWords {
  const today = toLocal(now, timeZone).date;
  const context: Context = { today, weekday: weekdayOf(today) };
  // Width-folded one character at a time, so each position maps back to what was typed.
  let text = "";
  const typedAt: number[] = [];
  let index = 0;
  for (const char of q) {
    const folded = char.normalize("NFKC");
    for (let k = 0; k < folded.length; k++) typedAt.push(index);
    text += folded;
    index += char.length;
  }
  typedAt.push(q.length);
  const scripts: Script[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? "";
    // A combining sound mark (half-width ｶﾞ) belongs to the character before it.
    scripts.push(/\p{M}/u.test(char) && i > 0 ? (scripts[i - 1] ?? "other") : scriptOf(char));
  }
  const candidates = findCandidates(text, context);
  const tokenOf = tokenBounds(text);
  const accepted = standing(candidates, text, scripts, tokenOf);
  if (accepted.length === 0) return { words: [], filters: {}, rest: q };
  const typed = (start: number, end: number) =>
    q.slice(typedAt[start] ?? q.length, typedAt[end] ?? q.length);
  const covered = new Array<boolean>(text.length).fill(false);
  for (const candidate of accepted) {
    for (let i = candidate.start; i < candidate.end; i++) covered[i] = true;
    const joined = joinedParticle(candidate, accepted, text, scripts, tokenOf);
    if (joined !== undefined) covered[joined] = true;
  }
  const filters = combined(accepted.map((candidate) => candidate.filters));
  return {
    words: accepted.map((candidate) => ({
      typed: typed(candidate.start, candidate.end),
      filters: candidate.filters,
    })),
    filters,
    rest: restOf(q, text, covered, typedAt),
  };
}

/**
 * The words as typed without the read ones: each space-separated word kept
 * whole when nothing was read in it, else its unread parts.
 */
function restOf(q: string, text: string, covered: boolean[], typedAt: number[]): string {
  const words: string[] = [];
  const tokenPattern = /\S+/gu;
  for (let match = tokenPattern.exec(text); match; match = tokenPattern.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    const typed = (a: number, b: number) => q.slice(typedAt[a] ?? q.length, typedAt[b] ?? q.length);
    if (!covered.slice(start, end).some(Boolean)) {
      words.push(typed(start, end));
      continue;
    }
    let from = -1;
    for (let i = start; i <= end; i++) {
      const free = i < end && !covered[i];
      if (free && from < 0) from = i;
      if (!free && from >= 0) {
        const piece = trimBreaks(text, from, i);
        if (piece) words.push(typed(piece[0], piece[1]));
        from = -1;
      }
    }
  }
  return words.join(" ");
}

function trimBreaks(text: string, start: number, end: number): [number, number] | undefined {
  let a = start;
  let b = end;
  while (a < b && scriptOf(text[a] ?? "") === "break") a++;
  while (b > a && scriptOf(text[b - 1] ?? "") === "break") b--;
  return a < b ? [a, b] : undefined;
}

/** At each position the longest match of any rule; a match that reads nothing is no match. */
function findCandidates(text: string, context: Context): Candidate[] {
  const out: Candidate[] = [];
  let i = 0;
  while (i < text.length) {
    let best: Candidate | undefined;
    for (const { pattern, read } of RULES) {
      pattern.lastIndex = i;
      const match = pattern.exec(text);
      if (!match || (best && match[0].length <= best.end - best.start)) continue;
      const filters = read(match, context);
      if (!filters) continue;
      best = {
        start: i,
        end: i + match[0].length,
        filters,
        single: match[0].length === 1,
        numeric: /^[\d~〜千]/u.test(match[0]),
      };
    }
    if (best) {
      out.push(best);
      i = best.end;
    } else i++;
  }
  return out;
}

/** For each position, the [start, end) of its space-separated word. */
function tokenBounds(text: string): (i: number) => [number, number] {
  const bounds: [number, number][] = [];
  const tokenPattern = /\S+/gu;
  for (let match = tokenPattern.exec(text); match; match = tokenPattern.exec(text)) {
    const token: [number, number] = [match.index, match.index + match[0].length];
    for (let i = token[0]; i < token[1]; i++) bounds[i] = token;
  }
  return (i) => bounds[i] ?? [i, i + 1];
}

/**
 * The candidates that stand as whole words: removing one may leave a
 * neighbour that stood only beside it (夜20時以降も受付), so repeat until
 * nothing changes.
 */
function standing(
  candidates: Candidate[],
  text: string,
  scripts: Script[],
  tokenOf: (i: number) => [number, number],
): Candidate[] {
  let kept = candidates;
  for (;;) {
    const next = kept.filter(
      (candidate) =>
        leftStands(candidate, kept, text, scripts, tokenOf) &&
        rightStands(candidate, kept, text, scripts, tokenOf),
    );
    if (next.length === kept.length) return kept;
    kept = next;
  }
}

function leftStands(
  candidate: Candidate,
  kept: Candidate[],
  text: string,
  scripts: Script[],
  tokenOf: (i: number) => [number, number],
): boolean {
  const { start } = candidate;
  if (start === tokenOf(start)[0] || scripts[start - 1] === "break") return true;
  if (kept.some((other) => other.end === start)) return true;
  if (PARTICLES.has(text[start - 1] ?? "") && kept.some((other) => other.end === start - 1)) {
    return true;
  }
  if (candidate.single) return false;
  const before = scripts[start - 1];
  return (
    before !== "hiragana" && before !== "digit" && (candidate.numeric || before !== scripts[start])
  );
}

function rightStands(
  candidate: Candidate,
  kept: Candidate[],
  text: string,
  scripts: Script[],
  tokenOf: (i: number) => [number, number],
): boolean {
  const { end } = candidate;
  if (end === tokenOf(end - 1)[1] || scripts[end] === "break") return true;
  if (kept.some((other) => other.start === end)) return true;
  if (joinedParticle(candidate, kept, text, scripts, tokenOf) !== undefined) return true;
  if (candidate.single) return false;
  const after = scripts[end];
  // A number right after one is part of something else (20時〜18時, a reversed range).
  return (
    after !== "hiragana" && after !== "digit" && (candidate.numeric || after !== scripts[end - 1])
  );
}

/**
 * The particle right after a word read that joins it to what follows, to
 * leave out of the rest: before another word read (明日の夜), or の before
 * another script (3000円以下のネイル; not 夜のカット, a single character).
 */
function joinedParticle(
  candidate: Candidate,
  kept: Candidate[],
  text: string,
  scripts: Script[],
  tokenOf: (i: number) => [number, number],
): number | undefined {
  const at = candidate.end;
  const particle = text[at] ?? "";
  if (!PARTICLES.has(particle) || at + 1 >= tokenOf(candidate.end - 1)[1]) return undefined;
  if (kept.some((other) => other.start === at + 1)) return at;
  if (
    particle === "の" &&
    !candidate.single &&
    scripts[at + 1] !== "hiragana" &&
    scripts[at + 1] !== "break" &&
    // 午後の紅茶 is a name; 今日のカット, 3000円以下のネイル are a word and the rest.
    scripts[at + 1] !== scripts[at - 1]
  ) {
    return at;
  }
  return undefined;
}

/**
 * The words' filters together. Every word read leaves the keyword, so for a
 * field typed twice the later word wins (明日 今日: today), as the later of
 * two choices would; a day replaces a range. Two bounds that would be
 * reversed keep the later word's (夕方 19時以降: from 19:00); others add up
 * (夜 21時まで: 18:00 to 21:00).
 */
function combined(list: QueryWordFilters[]): QueryWordFilters {
  const out: QueryWordFilters = {};
  for (const filters of list) {
    if (filters.date && !filters.dateTo) delete out.dateTo;
    if (filters.date && !filters.nextWeek) delete out.nextWeek;
    Object.assign(out, filters);
    if (out.from && out.to && out.from >= out.to) {
      if (filters.from) delete out.to;
      else delete out.from;
    }
    if (out.priceMin !== undefined && out.priceMax !== undefined && out.priceMin > out.priceMax) {
      if (filters.priceMin !== undefined) delete out.priceMax;
      else delete out.priceMin;
    }
  }
  return out;
}

/** The coming Saturday and Sunday; on a Saturday today and tomorrow, on a Sunday today. */
function weekend({ today, weekday }: Context): QueryWordFilters {
  if (weekday === 0) return { date: today };
  const saturday = addDays(today, 6 - weekday);
  return { date: saturday, dateTo: addDays(saturday, 1) };
}

/** Monday of next week (weeks start on Monday, as Japanese calendars at work count them). */
function nextMonday({ today, weekday }: Context): LocalDate {
  return addDays(today, 7 - ((weekday + 6) % 7));
}

/** 11月30日 or 11/30 (this year, or next year once past), 2026年12月3日; an impossible date reads nothing. */
function calendarDate(
  year: string | undefined,
  month: string | undefined,
  day: string | undefined,
  { today }: Context,
): QueryWordFilters | undefined {
  const on = (y: number) =>
    `${String(y).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  if (year) {
    const date = on(Number(year));
    return isLocalDate(date) ? { date } : undefined;
  }
  const thisYear = Number(today.slice(0, 4));
  const date = on(thisYear);
  if (isLocalDate(date) && date >= today) return { date };
  const next = on(thisYear + 1);
  return isLocalDate(next) ? { date: next } : undefined;
}

/** The time of CLOCK's groups from `at` (the period word, hour, minutes, 半, :MM). */
function clock(match: RegExpExecArray, at: number): LocalTime | undefined {
  const period = match[at];
  let hour = Number(match[at + 1]);
  const minute = match[at + 3] ? 30 : Number(match[at + 2] ?? match[at + 4] ?? 0);
  if (period === "夜" || period === "午後") {
    if (hour > 12) return period === "夜" ? hourMinute(hour, minute) : undefined;
    if (hour < 12) hour += 12;
  } else if (period && hour > 12) return undefined;
  return hourMinute(hour, minute);
}

function hourMinute(hour: number, minute: number): LocalTime | undefined {
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || minute > 59) return undefined;
  const time = `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
  return hour > 24 || (hour === 24 && minute > 0) ? undefined : time;
}

/** Yen from 3,000 / 1.5万 / 1万5千 / 5千 / 千; not a whole number of yen or above MAX_YEN: nothing. */
function amount(written: string | undefined): number | undefined {
  if (!written) return undefined;
  const plain = written.replaceAll(",", "");
  let value: number;
  if (plain.includes("万")) {
    const [man = "", rest = ""] = plain.split("万");
    value =
      Number(man) * 10_000 +
      (rest.endsWith("千") ? Number(rest.slice(0, -1)) * 1000 : Number(rest || 0));
  } else if (plain.endsWith("千")) {
    value = Number(plain.slice(0, -1) || 1) * 1000;
  } else value = Number(plain);
  const yen = Math.round(value);
  if (!Number.isFinite(value) || Math.abs(value - yen) > 1e-6 || yen > MAX_YEN) return undefined;
  return yen;
}

function price(
  field: "priceMin" | "priceMax",
  written: string | undefined,
  shift = 0,
): QueryWordFilters | undefined {
  const yen = amount(written);
  if (yen === undefined || yen + shift < 0) return undefined;
  return { [field]: yen + shift };
}

/**
 * The search URL with the keyword's dates, times and prices turned into
 * filters, or null when the keyword has none (the search page redirects to
 * it; the phone dialog's count reads the same). What was typed wins over the
 * same field from the form: a typed date replaces the form's day or range, a
 * typed bound drops the form's other bound when the two would be reversed.
 * A new search starts on page 1. `nextWeek`: a weekday word typed on that
 * weekday takes the same weekday next week (see QueryWordFilters.nextWeek).
 */
export function withQueryWords(
  params: URLSearchParams,
  now: Date,
  timeZone = "Asia/Tokyo",
  nextWeek = false,
): URLSearchParams | null {
  const q = params.get("q");
  // A keyword too long to search is refused with its message first (parseSearch), not read.
  if (!q || [...q.trim()].length > KEYWORD_MAX_LENGTH) return null;
  const { words, filters, rest } = readQueryWords(q, now, timeZone);
  if (words.length === 0) return null;
  const out = new URLSearchParams(params);
  if (rest) out.set("q", rest);
  else out.delete("q");
  out.delete("page");
  if (filters.date) {
    out.set("date", nextWeek && filters.nextWeek ? filters.nextWeek : filters.date);
    if (filters.dateTo) out.set("dateTo", filters.dateTo);
    else out.delete("dateTo");
  }
  const before = (a: string | null, b: string | null) => a === null || b === null || a < b;
  if (filters.from) {
    out.set("from", filters.from);
    if (!filters.to && !before(filters.from, out.get("to"))) out.delete("to");
  }
  if (filters.to) {
    out.set("to", filters.to);
    if (!filters.from && !before(out.get("from"), filters.to)) out.delete("from");
  }
  const yenOf = (key: string) => {
    const value = out.get(key);
    return value === null || value === "" ? undefined : Number(value);
  };
  if (filters.priceMin !== undefined) {
    out.set("priceMin", String(filters.priceMin));
    const max = yenOf("priceMax");
    if (filters.priceMax === undefined && max !== undefined && max < filters.priceMin) {
      out.delete("priceMax");
    }
  }
  if (filters.priceMax !== undefined) {
    out.set("priceMax", String(filters.priceMax));
    const min = yenOf("priceMin");
    if (filters.priceMin === undefined && min !== undefined && min > filters.priceMax) {
      out.delete("priceMin");
    }
  }
  return out;
}
