/**
 * A salon's rating as every page shows it: ★4.2 and the number of reviews,
 * or 口コミなし for a salon nobody has reviewed yet (its stored average is 0,
 * which is no rating, not a bad one).
 */
export function SalonRating({
  ratingAverage,
  reviewCount,
  reviewsHref,
}: {
  ratingAverage: number;
  reviewCount: number;
  /** Where the review count links to (the salon page's list, #reviews); plain text without it. */
  reviewsHref?: string;
}) {
  if (reviewCount === 0) return <span className="text-neutral-700">口コミなし</span>;
  const count = `口コミ${reviewCount}件`;
  return (
    <>
      <span className="font-bold text-brand-700">
        <span aria-hidden="true">★</span>
        <span className="sr-only">評価</span>
        {ratingAverage.toFixed(1)}
      </span>
      {reviewsHref ? (
        <a href={reviewsHref} className="ml-2 underline">
          {count}
        </a>
      ) : (
        <span className="ml-1 text-neutral-700">（{count}）</span>
      )}
    </>
  );
}

/** The same in words for a page description: "口コミ12件・評価4.2" or "口コミなし". */
export function ratingText(ratingAverage: number, reviewCount: number): string {
  return reviewCount === 0
    ? "口コミなし"
    : `口コミ${reviewCount}件・評価${ratingAverage.toFixed(1)}`;
}
