import { Link } from "react-router";
import { formatYen } from "../../../common/format";
import { genreLabels } from "../../../common/genres";
import { photoSrcSet } from "../../../common/photo-variants";
import type { NextFreeTimes } from "../../../server/bookings/free-times";
import type { SalonCard } from "../../../server/salons/salon-card";
import { type FavoriteState, FavoriteToggle } from "../favorites/favorite-toggle";
import { FreeTimes } from "./free-times";
import { SalonRating } from "./salon-rating";

/*
 * Below `sm` (a phone) the card is a compact row, about 110 px tall — a small
 * square photo with the heart on its corner, beside the place, the name on
 * one line, rating and price, and the next free day with two times — so
 * three results fit the first screen (issue 31); from `sm` up the large card
 * with its 4:3 photo, kana and catch copy. One markup restyled by
 * breakpoints: the search page renders each card once (its render budget).
 */

/** On a phone the heart alone, on the photo's corner: its words stay its accessible name. */
const phoneHeart =
  "absolute top-3 left-3 max-sm:[&_:is(a,button)]:size-8 max-sm:[&_:is(a,button)]:justify-center max-sm:[&_:is(a,button)]:p-0 max-sm:[&_:is(a,button)]:text-[0px] max-sm:[&_:is(a,button[aria-pressed=false])]:bg-white max-sm:[&_[aria-hidden]]:text-base sm:static sm:pt-2";

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
  const inline = priority ? (salon.photoInline ?? null) : null;
  return (
    <article className="relative flex h-full gap-3 overflow-hidden rounded-lg border border-neutral-200 bg-white p-2 sm:flex-col sm:gap-0 sm:p-0">
      {salon.photoUrl ? (
        <img
          src={inline ?? salon.photoUrl}
          srcSet={photoSrcSet(salon.photoVariants)}
          sizes={
            salon.photoVariants?.length
              ? "(min-width: 1024px) 360px, (min-width: 600px) 50vw, 88px"
              : undefined
          }
          alt={salon.photoAlt ?? ""}
          width={800}
          height={600}
          loading={priority ? "eager" : "lazy"}
          // Inside the page there is nothing to fetch, nor for React to preload in the head.
          fetchPriority={priority && !inline ? "high" : undefined}
          decoding={priority ? "sync" : "async"}
          className="size-22 shrink-0 rounded object-cover sm:aspect-[4/3] sm:h-auto sm:w-full sm:rounded-none"
        />
      ) : (
        <div aria-hidden="true" className="size-22 shrink-0 rounded bg-brand-50 sm:hidden" />
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 sm:gap-1 sm:p-4">
        <p className="truncate text-xs text-neutral-700 sm:whitespace-normal">
          <span className="max-sm:hidden">{genreLabels[salon.genre]}・</span>
          {salon.areaName}
          {salon.stationName ? `・${salon.stationName}駅` : ""}
        </p>
        <Heading className="truncate text-base leading-snug font-bold sm:whitespace-normal sm:text-lg">
          <Link to={`/salons/${salon.slug}`} className="hover:underline">
            {salon.name}
          </Link>
        </Heading>
        <p className="text-xs text-neutral-700 max-sm:hidden">{salon.nameKana}</p>
        {salon.catchCopy ? <p className="mt-1 text-sm max-sm:hidden">{salon.catchCopy}</p> : null}
        {/* A price that wraps (a 320 px phone) starts its own line, not indented. */}
        <p className="flex flex-wrap gap-x-3 text-sm sm:mt-auto sm:pt-2">
          <span>
            <SalonRating ratingAverage={salon.ratingAverage} reviewCount={salon.reviewCount} />
          </span>
          <span>{formatYen(salon.priceMin)}〜</span>
        </p>
        {freeTimes ? <FreeTimes slug={salon.slug} freeTimes={freeTimes} compact /> : null}
        <div className={phoneHeart}>
          <FavoriteToggle salonSlug={salon.slug} salonName={salon.name} state={favorite} />
        </div>
      </div>
    </article>
  );
}
