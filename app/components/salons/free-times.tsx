import { Link } from "react-router";
import { formatMonthDayWeekday } from "../../../common/format";
import type { NextFreeTimes } from "../../../server/bookings/free-times";

// Apart from salon-card-item.tsx (issue 42): the salon's トップ shows these
// times without a card, and a module two routes share ships all either uses.

/**
 * 空席あり with up to three next start times, each a link into the booking
 * flow on that date. From the search summary (decision 0014): "maybe free",
 * the booking page shows the truth.
 */
export function FreeTimes({
  slug,
  freeTimes,
  compact = false,
}: {
  slug: string;
  freeTimes: NextFreeTimes;
  /** In a card: tighter on a phone, where the card is a compact row. */
  compact?: boolean;
}) {
  const day = formatMonthDayWeekday(freeTimes.date);
  return (
    // On a phone's card one line: the day (空席あり is said to screen readers) and two times.
    <div
      className={
        compact
          ? "text-sm max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-2 max-sm:gap-y-1 sm:mt-2"
          : "mt-2 text-sm"
      }
    >
      <p className={compact ? "shrink-0" : undefined}>
        <span
          className={`rounded bg-brand-50 px-1.5 py-0.5 font-bold text-brand-700 ${compact ? "max-sm:sr-only" : ""}`}
        >
          空席あり
        </span>
        <span
          className={compact ? "ml-2 max-sm:ml-0 max-sm:font-bold max-sm:text-brand-700" : "ml-2"}
        >
          {day}
        </span>
      </p>
      <ul
        className={`mt-1 flex flex-wrap gap-2 ${compact ? "max-sm:mt-0 max-sm:gap-1.5 max-sm:[&>li:nth-child(n+3)]:hidden" : ""}`}
        aria-label={`${day}の空き時間`}
      >
        {freeTimes.times.map((time) => (
          <li key={time}>
            <Link
              to={`/salons/${slug}/confirm?${new URLSearchParams({ date: freeTimes.date, time })}`}
              className="inline-block rounded border border-brand-700 px-2 py-0.5 text-brand-700 hover:bg-brand-50"
              aria-label={`${day} ${time}から予約する`}
            >
              {time}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
