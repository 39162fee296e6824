import { Link } from "react-router";
import { genreLabels } from "../../../common/genres";
import type { SalonCard } from "../../../server/salons/salon-card";
import { formatYen } from "../../lib/format";
import { type FavoriteState, FavoriteToggle } from "../favorites/favorite-toggle";

/** One salon in a list; the whole card is one link, named by the salon. */
export function SalonCardItem({
  salon,
  headingLevel = 3,
  favorite,
}: {
  salon: SalonCard;
  headingLevel?: 2 | 3;
  /** The favorite toggle's state; none shown when absent. */
  favorite?: FavoriteState;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-lg border border-neutral-200 bg-white">
      {salon.photoUrl ? (
        <img
          src={salon.photoUrl}
          alt={salon.photoAlt ?? ""}
          width={800}
          height={600}
          loading="lazy"
          decoding="async"
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
          <span className="font-bold text-brand-700">
            <span aria-hidden="true">★</span>
            <span className="sr-only">評価</span>
            {salon.ratingAverage.toFixed(1)}
          </span>
          <span className="ml-1 text-neutral-700">（口コミ{salon.reviewCount}件）</span>
          <span className="ml-3">{formatYen(salon.priceMin)}〜</span>
        </p>
        {favorite ? (
          <div className="pt-2">
            <FavoriteToggle salonSlug={salon.slug} salonName={salon.name} state={favorite} />
          </div>
        ) : null}
      </div>
    </article>
  );
}
