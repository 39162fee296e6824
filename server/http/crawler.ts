import { isbot } from "isbot";

// SPEC.md §2 names these words; isbot covers the long tail of other crawlers.
const crawlerWords = /bot|lighthouse|facebookexternalhit|google/i;

/** Crawlers get the right status code but never an error page (SPEC.md §2). */
export function isCrawler(userAgent: string | undefined | null): boolean {
  if (!userAgent) return false;
  return crawlerWords.test(userAgent) || isbot(userAgent);
}
