import { z } from "zod";
import { type ReviewSort, reviewSorts } from "./reviews";
import { pageNumberSchema } from "./search.schema";
import { SLUG_PATTERN } from "./slug";

/** A menu genre is a menu's category: short free text. */
export const REVIEW_GENRE_MAX = 50;

/**
 * The query of /salons/:id/reviews, read leniently as the search page reads
 * its own: a malformed value is dropped (the page then redirects to the URL
 * without it, so every list has one address).
 */
export const reviewListQuerySchema = z.object({
  sort: z.enum(reviewSorts).catch("newest"),
  /** The stylist's slug. */
  staff: z.string().regex(SLUG_PATTERN).optional().catch(undefined),
  /** A menu genre (menus.category). */
  genre: z.string().trim().min(1).max(REVIEW_GENRE_MAX).optional().catch(undefined),
  page: pageNumberSchema,
});

export const reviewListKeys = reviewListQuerySchema.keyof().options;

export type ReviewListQuery = {
  sort: ReviewSort;
  staff?: string | null;
  genre?: string | null;
  page: number;
};

/** The list's canonical query: defaults and empty values left out, in one order. */
export function reviewListParams(query: ReviewListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.sort !== "newest") params.set("sort", query.sort);
  if (query.staff) params.set("staff", query.staff);
  if (query.genre) params.set("genre", query.genre);
  if (query.page > 1) params.set("page", String(query.page));
  return params;
}

/** The address of a salon's review list with this sort, these filters and page. */
export function reviewListHref(slug: string, query: ReviewListQuery): string {
  const params = reviewListParams(query);
  return params.size > 0 ? `/salons/${slug}/reviews?${params}` : `/salons/${slug}/reviews`;
}
