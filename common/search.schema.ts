import { z } from "zod";
import { salonGenres } from "./genres";
import { SEARCH_DATE_RANGE_DAYS, searchSorts, searchViews } from "./search-query";
import { SLUG_PATTERN } from "./slug";

/**
 * The search page's URL query. Everything the visitor chose lives in the
 * URL so a result is shareable and the back button restores it. Parsing is
 * lenient on purpose: a stale or hand-edited link with one bad value still
 * shows results, with that one condition dropped (each field `.catch`es).
 * Usable in the browser: it lives in common/, which imports nothing from server/.
 */
export const SEARCH_PAGE_SIZE = 20;
const MAX_PAGE = 500;

const slug = z.string().regex(SLUG_PATTERN).optional().catch(undefined);
const hhmm = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/)
  .optional()
  .catch(undefined);
const yen = z.coerce.number().int().min(0).max(1_000_000).optional().catch(undefined);

export const KEYWORD_MAX_LENGTH = 100;

export const searchQuerySchema = z.object({
  // A longer keyword is searched by its first KEYWORD_MAX_LENGTH characters (parseSearch says so).
  q: z
    .string()
    .trim()
    .transform((value) => [...value].slice(0, KEYWORD_MAX_LENGTH).join("").trim() || undefined)
    .optional()
    .catch(undefined),
  pref: slug,
  area: slug,
  station: slug,
  genre: z.enum(salonGenres).optional().catch(undefined),
  feature: z
    .array(z.string())
    .transform((values) =>
      [...new Set(values.filter((value) => SLUG_PATTERN.test(value)))].slice(0, 10),
    )
    .catch([]),
  priceMin: yen,
  priceMax: yen,
  /**
   * YYYY-MM-DD: only salons with a free time that day (decision 0014);
   * beyond the summary's horizon, salons open that day.
   */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    .optional()
    .catch(undefined),
  /**
   * YYYY-MM-DD, with `date`: the last day of a range (今週末, 土日: issue 31),
   * any day of which matches. At most SEARCH_DATE_RANGE_DAYS days in all.
   */
  dateTo: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    .optional()
    .catch(undefined),
  /** HH:MM: a free start at or after this time (with `date`, or over the next two weeks). */
  from: hhmm,
  /** HH:MM: a free start before this time ("24:00" allowed). */
  to: hhmm,
  rating: z.coerce.number().min(0).max(5).optional().catch(undefined),
  sort: z.enum(searchSorts).catch("recommended"),
  lat: z.coerce.number().min(-90).max(90).optional().catch(undefined),
  lng: z.coerce.number().min(-180).max(180).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).catch(1),
  /** The same results on a map (issue 31); absent: the list, the default. */
  view: z.enum(searchViews).optional().catch(undefined),
});

export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Reads the query of /salons/search; repeated `feature` keys become a list. */
export function parseSearchQuery(params: URLSearchParams): SearchQuery {
  const raw: Record<string, unknown> = {};
  for (const key of searchQuerySchema.keyof().options) {
    if (key === "feature") raw[key] = params.getAll(key);
    else {
      const value = params.get(key);
      if (value !== null && value !== "") raw[key] = value;
    }
  }
  const parsed = searchQuerySchema.parse(raw);
  // An empty or reversed time range cannot match anything: drop it rather than show nothing.
  if (parsed.from && parsed.to && parsed.from >= parsed.to) {
    parsed.from = undefined;
    parsed.to = undefined;
  }
  // Bounds given the wrong way round mean the same range (as leading sites read them): swap them.
  if (
    parsed.priceMin !== undefined &&
    parsed.priceMax !== undefined &&
    parsed.priceMin > parsed.priceMax
  ) {
    [parsed.priceMin, parsed.priceMax] = [parsed.priceMax, parsed.priceMin];
  }
  // A range needs its first day, ends after it and spans a week at most; otherwise the first day alone.
  if (
    parsed.dateTo !== undefined &&
    (parsed.date === undefined ||
      parsed.dateTo <= parsed.date ||
      Date.parse(`${parsed.dateTo}T00:00:00Z`) - Date.parse(`${parsed.date}T00:00:00Z`) >=
        SEARCH_DATE_RANGE_DAYS * 86_400_000)
  ) {
    parsed.dateTo = undefined;
  }
  // Distance needs the visitor's position; without it the order falls back.
  if (parsed.sort === "distance" && (parsed.lat === undefined || parsed.lng === undefined)) {
    parsed.sort = "recommended";
  }
  return parsed;
}

export const PAST_DATE_MESSAGE = "空席のある日には今日以降の日付を選んでください。";

export const KEYWORD_TOO_LONG_MESSAGE = `キーワードが長すぎるため、最初の${KEYWORD_MAX_LENGTH}文字で検索しました。`;

export type SearchErrors = { date?: string; q?: string };
/** What the visitor typed where the search used something else: the form shows it again. */
export type SearchTyped = { date?: string; q?: string };

/**
 * The search a page runs, and what it refused with a message. `today`
 * (YYYY-MM-DD in the site's time zone) comes from the caller, which reads the
 * clock: a past day is not searched, and `typed` keeps it for the form.
 */
export function parseSearch(params: URLSearchParams, today: string) {
  const query = parseSearchQuery(params);
  const errors: SearchErrors = {};
  const typed: SearchTyped = {};
  const keyword = params.get("q")?.trim() ?? "";
  if ([...keyword].length > KEYWORD_MAX_LENGTH) {
    errors.q = KEYWORD_TOO_LONG_MESSAGE;
    typed.q = keyword;
  }
  if (query.date !== undefined && query.date < today) {
    errors.date = PAST_DATE_MESSAGE;
    typed.date = query.date;
    query.date = undefined;
    query.dateTo = undefined;
  }
  return { query, errors, typed };
}

/** A 1-based page number from the query string; anything else means page 1. */
export const pageNumberSchema = z.coerce.number().int().min(1).max(MAX_PAGE).catch(1);
