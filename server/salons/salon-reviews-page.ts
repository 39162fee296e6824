import {
  type ReviewListQuery,
  reviewListKeys,
  reviewListParams,
  reviewListQuerySchema,
} from "../../common/review-list-query";
import type { Database } from "../db/client";
import { salonReviewList, UnknownReviewFilterError } from "../reviews/review-list.server";
import type { PublishedSalon } from "./salon-detail";

/**
 * With the other parameters (not ours) as they came, but not React Router's
 * own (`_routes` of a client-side navigation's data request), which would
 * otherwise end up in the address bar.
 */
function withParams(searchParams: URLSearchParams, ours: URLSearchParams) {
  const merged = new URLSearchParams(ours);
  for (const [key, value] of searchParams) {
    if (key.startsWith("_")) continue;
    if (!(reviewListKeys as readonly string[]).includes(key)) merged.append(key, value);
  }
  return merged;
}

/**
 * /salons/:id/reviews: the published salon's shown reviews, the summary and
 * the filters; `{ redirect }` to the canonical URL of the same list (a
 * stylist or genre without reviews dropped, a page past the last one made the
 * last). The salon is the guard's (requirePublishedSalon).
 */
export async function loadSalonReviewsPage(
  db: Database,
  found: PublishedSalon,
  searchParams: URLSearchParams,
) {
  const salon = { id: found.id, slug: found.salon.slug, name: found.salon.name };
  const path = `/salons/${salon.slug}/reviews`;
  const hrefOf = (ours: URLSearchParams) => {
    const params = withParams(searchParams, ours);
    return params.size > 0 ? `${path}?${params}` : path;
  };
  const raw = Object.fromEntries(
    reviewListKeys.map((key) => [key, searchParams.get(key) ?? undefined]),
  );
  const query: ReviewListQuery = reviewListQuerySchema.parse(raw);
  const canonical = reviewListParams(query);
  // The same values in another order are the same list: no redirect for that alone.
  const given = [...searchParams]
    .filter(([key]) => (reviewListKeys as readonly string[]).includes(key))
    .map(([key, value]) => `${key}=${value}`)
    .sort();
  const wanted = [...canonical].map(([key, value]) => `${key}=${value}`).sort();
  if (given.join("&") !== wanted.join("&")) return { redirect: hrefOf(canonical) };
  let list: Awaited<ReturnType<typeof salonReviewList>>;
  try {
    list = await salonReviewList(db, salon.id, query);
  } catch (error) {
    if (!(error instanceof UnknownReviewFilterError)) throw error;
    return { redirect: hrefOf(reviewListParams({ ...query, [error.param]: undefined, page: 1 })) };
  }
  if (query.page > list.pages) {
    return { redirect: hrefOf(reviewListParams({ ...query, page: list.pages })) };
  }
  return {
    redirect: null,
    salon: { slug: salon.slug, name: salon.name, genre: found.salon.genre },
    ...list,
  };
}

export type SalonReviewsPage = Extract<
  Awaited<ReturnType<typeof loadSalonReviewsPage>>,
  { redirect: null }
>;
