import { z } from "zod";
import { salonGenres } from "./genres";
import { searchSorts } from "./search-query";

/**
 * The search page's URL query. Everything the visitor chose lives in the
 * URL so a result is shareable and the back button restores it. Parsing is
 * lenient on purpose: a stale or hand-edited link with one bad value still
 * shows results, with that one condition dropped (each field `.catch`es).
 * Usable in the browser: it lives in common/, which imports nothing from server/.
 */
export const SEARCH_PAGE_SIZE = 20;
const MAX_PAGE = 500;
const SLUG = /^[a-z0-9-]{1,80}$/;

const slug = z.string().regex(SLUG).optional().catch(undefined);
const yen = z.coerce.number().int().min(0).max(1_000_000).optional().catch(undefined);

export const searchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(100)
    .transform((value) => value || undefined)
    .optional()
    .catch(undefined),
  pref: slug,
  area: slug,
  station: slug,
  genre: z.enum(salonGenres).optional().catch(undefined),
  feature: z
    .array(z.string())
    .transform((values) => [...new Set(values.filter((value) => SLUG.test(value)))].slice(0, 10))
    .catch([]),
  priceMin: yen,
  priceMax: yen,
  /** YYYY-MM-DD: only salons open on that day (weekly hours, regular holidays). */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    .optional()
    .catch(undefined),
  rating: z.coerce.number().min(0).max(5).optional().catch(undefined),
  sort: z.enum(searchSorts).catch("recommended"),
  lat: z.coerce.number().min(-90).max(90).optional().catch(undefined),
  lng: z.coerce.number().min(-180).max(180).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).catch(1),
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
  // Distance needs the visitor's position; without it the order falls back.
  if (parsed.sort === "distance" && (parsed.lat === undefined || parsed.lng === undefined)) {
    parsed.sort = "recommended";
  }
  return parsed;
}

export const PAST_DATE_MESSAGE = "営業日には今日以降の日付を選んでください。";

export type SearchErrors = { date?: string };

/**
 * The search a page runs, and what it refused with a message. `today`
 * (YYYY-MM-DD in the site's time zone) comes from the caller, which reads the
 * clock: a past day is not searched, and `typed` keeps it for the form.
 */
export function parseSearch(params: URLSearchParams, today: string) {
  const query = parseSearchQuery(params);
  const errors: SearchErrors = {};
  const typed: { date?: string } = {};
  if (query.date !== undefined && query.date < today) {
    errors.date = PAST_DATE_MESSAGE;
    typed.date = query.date;
    query.date = undefined;
  }
  return { query, errors, typed };
}

/** A 1-based page number from the query string; anything else means page 1. */
export const pageNumberSchema = z.coerce.number().int().min(1).max(MAX_PAGE).catch(1);
