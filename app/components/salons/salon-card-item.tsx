import { Link } from "react-router";
import { formatMonthDayWeekday, formatYen } from "../../../common/format";
import { genreLabels } from "../../../common/genres";
import { photoSrcSet } from "../../../common/photo-variants";
import type { NextFreeTimes } from "../../../server/bookings/free-times";
import type { SalonCard } from "../../../server/salons/salon-card";
import { type FavoriteState, FavoriteToggle } from "../favorites/favorite-toggle";
import { SalonRating } from "./salon-rating";

/** One salon in a list; the whole card is one link, named by the salon. */
export function SalonCardItem({
  salon,
  headingLevel = 3,
  freeTimes,
  favorite,
  priority = false,
}: {
  salon: SalonCard;
  headingLevel?: 2 | 3;
  /** The next free times (空席あり), when the list knows them. */
  freeTimes?: NextFreeTimes;
  /** The favorite toggle's state (every card has one: issue 15). */
  favorite: FavoriteState;
  /** The list's first card: its photo is the page's largest image, fetched first, never lazily. */
  priority?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-lg border border-neutral-200 bg-white">
      {salon.photoUrl ? (
        <img
          src={salon.photoUrl}
          srcSet={photoSrcSet(salon.photoVariants)}
          sizes={
            salon.photoVariants?.length
              ? "(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw"
              : undefined
          }
          alt={salon.photoAlt ?? ""}
          width={800}
          height={600}
          loading={priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : undefined}
          decoding={priority ? "sync" : "async"}
          className="aspect-[4/3] h-auto w-full object-cover"
        />
      ) : null}
      <div className="flex flex-1 flex-col gap-1 p-4">
        <p className="text-xs text-neutral-700">
          {genreLabels[salon.genre]}・{salon.areaName}
          {salon.stationName ? `・${salon.stationName}駅` : ""}
        </p>
        <Heading className="text-lg font-bold leading-snug">
          <Link to={`/salons/${salon.slug}`} className="hover:underline">
            {salon.name}
          </Link>
        </Heading>
        <p className="text-xs text-neutral-700">{salon.nameKana}</p>
        {salon.catchCopy ? <p className="mt-1 text-sm">{salon.catchCopy}</p> : null}
        <p className="mt-auto pt-2 text-sm">
          <SalonRating ratingAverage={salon.ratingAverage} reviewCount={salon.reviewCount} />
          <span className="ml-3">{formatYen(salon.priceMin)}〜</span>
        </p>
        {freeTimes ? <FreeTimes slug={salon.slug} freeTimes={freeTimes} /> : null}
        <div className="pt-2">
          <FavoriteToggle salonSlug={salon.slug} salonName={salon.name} state={favorite} />
        </div>
      </div>
    </article>
  );
}

/**
 * 空席あり with up to three next start times, each a link into the booking
 * flow on that date. From the search summary (decision 0014): "maybe free",
 * the booking page shows the truth.
 */
export function FreeTimes({ slug, freeTimes }: { slug: string; freeTimes: NextFreeTimes }) {
  const day = formatMonthDayWeekday(freeTimes.date);
  return (
    <div className="mt-2 text-sm">
      <p>
        <span className="rounded bg-brand-50 px-1.5 py-0.5 font-bold text-brand-700">空席あり</span>
        <span className="ml-2">{day}</span>
      </p>
      <ul className="mt-1 flex flex-wrap gap-2" aria-label={`${day}の空き時間`}>
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
