import { Link } from "react-router";
import { formatDate } from "../../../common/format";
import { formatRating, reviewAspects } from "../../../common/reviews";
import type { ListedReview, ReviewSummary } from "../../../server/reviews/review-list.server";

/** ★★★★☆ for the eye (the shape, not a pale colour, tells them apart), 「評価4」 for a screen reader. */
export function Stars({ rating }: { rating: number }) {
  return (
    <span className="font-bold text-brand-700">
      <span aria-hidden="true">{"★".repeat(rating) + "☆".repeat(5 - rating)}</span>
      <span className="sr-only">評価{rating}</span>
    </span>
  );
}

/**
 * A salon's reviews at a glance: the average (one decimal) and count, how
 * many gave each star (a list read as text; the bars are decoration), and
 * the aspects' averages.
 */
export function ReviewSummaryPanel({ summary }: { summary: ReviewSummary }) {
  const rated = summary.aspects.filter((aspect) => aspect.average !== null);
  return (
    <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-[auto_1fr_auto]">
      <p className="text-center">
        <span className="block text-4xl font-bold text-brand-700">
          <span className="sr-only">平均評価</span>
          {formatRating(summary.average)}
        </span>
        <span className="text-sm text-neutral-700">口コミ{summary.count}件</span>
      </p>
      <ul aria-label="評価ごとの件数" className="flex min-w-0 flex-col gap-1 text-sm">
        {summary.distribution.map(({ rating, count }) => (
          <li key={rating} className="flex items-center gap-2">
            <span className="w-8 shrink-0">
              <span aria-hidden="true">★{rating}</span>
              <span className="sr-only">星{rating}つ：</span>
            </span>
            <span aria-hidden="true" className="h-2 min-w-0 flex-1 rounded bg-neutral-200">
              <span
                className="block h-2 rounded bg-brand-700"
                style={{ width: `${summary.count > 0 ? (count / summary.count) * 100 : 0}%` }}
              />
            </span>
            <span className="w-12 shrink-0 text-right">{count}件</span>
          </li>
        ))}
      </ul>
      {rated.length > 0 ? (
        <dl className="grid grid-cols-[auto_auto] content-start gap-x-3 gap-y-1 text-sm">
          {rated.map((aspect) => (
            <div key={aspect.key} className="contents">
              <dt>{aspect.label}</dt>
              <dd className="font-bold">{formatRating(aspect.average ?? 0)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

/**
 * One shown review: its visit (date, stylist, menus, 来店済み), the text as
 * text with its line breaks (React escapes it; a URL stays plain, never a
 * link), the salon's reply, and the way to report it.
 */
export function SalonReview({
  review,
  headingLevel = 3,
}: {
  review: ListedReview;
  headingLevel?: 3 | 4;
}) {
  const Heading = headingLevel === 3 ? "h3" : "h4";
  const aspects = reviewAspects.flatMap(({ key, label }) => {
    const value = review[key];
    return value === null ? [] : [{ key, label, value }];
  });
  const about = `${review.authorLabel}・${formatDate(review.visitedOn)}来店の口コミ`;
  return (
    <article
      id={`review-${review.id}`}
      aria-label={about}
      className="flex min-w-0 flex-col gap-2 rounded-lg border border-neutral-200 p-4"
    >
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Stars rating={review.rating} />
        <span className="rounded bg-green-100 px-2 py-0.5 text-xs font-bold text-green-900">
          来店済み
        </span>
        <span className="text-neutral-700">
          {review.authorLabel}・{formatDate(review.visitedOn)}来店
          {review.stylist ? `・担当 ${review.stylist.name}` : ""}
        </span>
      </p>
      {review.title ? <Heading className="font-bold break-words">{review.title}</Heading> : null}
      {review.menus.length > 0 ? (
        <p className="text-sm break-words text-neutral-700">
          メニュー：{review.menus.map((menu) => `${menu.name}（${menu.genre}）`).join("、")}
        </p>
      ) : null}
      {aspects.length > 0 ? (
        <ul aria-label="項目ごとの評価" className="flex flex-wrap gap-x-3 text-sm">
          {aspects.map((aspect) => (
            <li key={aspect.key}>
              {aspect.label} <span className="font-bold">{aspect.value}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="text-sm whitespace-pre-line break-words">{review.body}</p>
      {review.reply ? (
        // Not a landmark: a page of replies would be a row of regions with one name.
        <div className="rounded-lg border-l-4 border-brand-700 bg-neutral-50 p-3 text-sm">
          <p className="font-bold">サロンからの返信</p>
          <p className="mt-1 whitespace-pre-line break-words">{review.reply.body}</p>
          <p className="mt-1 text-xs text-neutral-700">{formatDate(review.reply.repliedAt)}</p>
        </div>
      ) : null}
      <p className="text-right text-xs">
        <Link
          to={`/reviews/${review.id}/report`}
          className="inline-block py-1 text-neutral-700 underline"
        >
          この口コミを通報する<span className="sr-only">（{about}）</span>
        </Link>
      </p>
    </article>
  );
}
