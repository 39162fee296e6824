import { moodOf, salonReplyClosings, salonReplyMiddles, salonReplyOpenings } from "./data/reviews";
import type { ReviewRow } from "./generate";
import type { Random } from "./random";

const HOUR_MS = 60 * 60 * 1000;

/** An aspect near the overall rating: mostly the same, now and then one star off. */
function aspectNear(rng: Random, rating: number): number | null {
  if (!rng.chance(0.9)) return null;
  const delta = rng.weighted([-1, 0, 1], (d) => (d === 0 ? 6 : 2));
  return Math.min(5, Math.max(1, rating + delta));
}

/**
 * What a demo review has beyond its text (issue 30, points 1 and 2): the
 * aspect ratings (雰囲気・接客・技術・仕上がり) on most reviews, near the
 * overall rating, and on about 40 % the salon's reply, a day or two after
 * the review. `rng` is the review's own generator
 * (`review-extra:<salon index>:<k>`), so nothing else of the seed changes.
 */
export function withReviewExtras(review: ReviewRow, rng: Random, staffName: string): void {
  const { rating } = review;
  if (rng.chance(0.8)) {
    review.ratingAtmosphere = aspectNear(rng, rating);
    review.ratingService = aspectNear(rng, rating);
    review.ratingTechnique = aspectNear(rng, rating);
    review.ratingFinish = aspectNear(rng, rating);
  }
  if (!rng.chance(0.4) || !review.createdAt) return;
  const mood = moodOf(rating);
  // A sentence naming the stylist needs one (a review without a stylist gets another).
  const middles = salonReplyMiddles[mood].filter((text) => staffName || !text.includes("{staff}"));
  const body = [
    rng.pick(salonReplyOpenings[mood]),
    rng.pick(middles),
    rng.pick(salonReplyClosings[mood]),
  ]
    .join("")
    .replaceAll("{staff}", staffName);
  review.replyBody = body;
  review.repliedAt = new Date(review.createdAt.getTime() + rng.int(20, 48) * HOUR_MS);
}
