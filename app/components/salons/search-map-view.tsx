import { Link } from "react-router";
import { formatYen } from "../../../common/format";
import type { SalonCard } from "../../../server/salons/salon-card";
import type { MapTiles, SearchMap as SearchMapData } from "../../../server/salons/search-map-data";
import { SalonRating } from "./salon-rating";
import { SearchMap } from "./search-map";

/**
 * The map view of a page of results (`view=map`, decision 0058): the map,
 * drawn in the browser, and the same results as a numbered list with each
 * one's distance — the list is the page's content for keyboards, screen
 * readers and browsers without JavaScript; the markers carry its numbers.
 */
export function SearchMapView({
  salons,
  map,
  tiles,
}: {
  salons: SalonCard[];
  map: SearchMapData;
  tiles: MapTiles;
}) {
  const points = new Map(map.points.map((point) => [point.slug, point]));
  const markers = salons.flatMap((salon, index) => {
    const point = points.get(salon.slug);
    return point
      ? [{ number: index + 1, slug: salon.slug, name: salon.name, lat: point.lat, lng: point.lng }]
      : [];
  });
  return (
    <div className="mt-3 grid gap-4 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <SearchMap tiles={tiles} markers={markers} origin={map.origin} />
      <div>
        {map.origin ? (
          <p className="mb-2 text-sm text-neutral-700">
            距離は{map.origin.label}からの直線距離です。
          </p>
        ) : null}
        <ol className="flex flex-col gap-2">
          {salons.map((salon, index) => (
            <li
              key={salon.slug}
              className="flex gap-3 rounded-lg border border-neutral-200 bg-white p-3"
            >
              <span
                aria-hidden="true"
                className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white"
              >
                {index + 1}
              </span>
              <div className="min-w-0 flex-1">
                <h3 className="font-bold leading-snug">
                  <Link to={`/salons/${salon.slug}`} className="hover:underline">
                    {salon.name}
                  </Link>
                </h3>
                <p className="text-xs text-neutral-700">
                  {salon.areaName}
                  {salon.stationName ? `・${salon.stationName}駅` : ""}
                </p>
                <p className="text-sm">
                  <SalonRating
                    ratingAverage={salon.ratingAverage}
                    reviewCount={salon.reviewCount}
                  />
                  <span className="ml-3">{formatYen(salon.priceMin)}〜</span>
                </p>
                {points.get(salon.slug)?.distance ? (
                  <p className="text-sm font-bold">{points.get(salon.slug)?.distance}</p>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
