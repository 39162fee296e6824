/** The response header a route sets to opt its page into the micro-cache; never sent out. */
export const PAGE_CACHE_HEADER = "x-page-cache-ttl";

/**
 * How long an anonymous visitor's copy of a public page may be shared with
 * others (decision 0007). Short enough that an owner's edit or a new review
 * shows within seconds; long enough that a burst on one page renders it once.
 */
export const PUBLIC_PAGE_SECONDS = 10;

/** A route's `headers` export that opts its page into the micro-cache. */
export function publicPageHeaders() {
  return { [PAGE_CACHE_HEADER]: String(PUBLIC_PAGE_SECONDS) };
}

/**
 * A route's `headers` export for personal pages (a hold, a booking, the
 * history): never stored by the browser or anything between, so the back
 * button or a shared machine never shows a stale hold or someone's booking.
 */
export function privatePageHeaders() {
  return { "Cache-Control": "private, no-store" };
}
