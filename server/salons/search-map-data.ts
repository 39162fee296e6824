import { and, avg, eq, inArray } from "drizzle-orm";
import type { SearchQuery } from "../../common/search.schema";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { areas, salons, stations } from "../db/schema";
import { understandKeyword } from "./search";
import {
  type DistanceOrigin,
  distanceLabel,
  type LatLng,
  middleOf,
  originLabel,
} from "./search-map";

/** The tile server the map draws from (MAP_TILE_URL); none: the search has no map view. */
export type MapTiles = { url: string; attribution: string };

export function mapTilesOf(config: Pick<Config, "MAP_TILE_URL" | "MAP_TILE_ATTRIBUTION">) {
  return config.MAP_TILE_URL
    ? { url: config.MAP_TILE_URL, attribution: config.MAP_TILE_ATTRIBUTION }
    : null;
}

/** One result on the map, by the card's slug, with its distance said in Japanese. */
export type SearchMapPoint = LatLng & { slug: string; distance: string };

export type SearchMap = {
  /** What the distances are counted from (現在地, 新宿駅, …), drawn on the map too. */
  origin: (LatLng & { kind: DistanceOrigin["kind"]; label: string }) | null;
  points: SearchMapPoint[];
};

/**
 * The map view's data for a page of results (the list view never reads it):
 * the salons' positions, in the page's order, and each one's distance.
 */
export async function loadSearchMap(
  db: Database,
  query: SearchQuery,
  slugs: readonly string[],
): Promise<SearchMap> {
  if (slugs.length === 0) return { origin: null, points: [] };
  const [rows, place] = await Promise.all([
    db
      .select({ slug: salons.slug, lat: salons.latitude, lng: salons.longitude })
      .from(salons)
      .where(and(inArray(salons.slug, [...slugs]), eq(salons.status, "published"))),
    searchedPlace(db, query),
  ]);
  const bySlug = new Map(rows.map((row) => [row.slug, row]));
  const located = slugs.flatMap((slug) => {
    const row = bySlug.get(slug);
    return row ? [row] : [];
  });
  const middle = middleOf(located);
  const origin: DistanceOrigin | null =
    query.lat !== undefined && query.lng !== undefined
      ? { kind: "position", lat: query.lat, lng: query.lng }
      : (place ?? (middle ? { kind: "results", ...middle } : null));
  return {
    origin: origin
      ? { kind: origin.kind, label: originLabel(origin), lat: origin.lat, lng: origin.lng }
      : null,
    points: located.map((row) => ({
      ...row,
      distance: origin ? distanceLabel(origin, row) : "",
    })),
  };
}

/**
 * The station or area the search names: its URL's `station`, else `area`,
 * else a keyword that means exactly one station (新宿駅) or one area. An
 * area's centre is the middle of its stations (areas have no point of their
 * own); an area without stations names no centre.
 */
async function searchedPlace(db: Database, query: SearchQuery): Promise<DistanceOrigin | null> {
  let station = query.station ? eq(stations.slug, query.station) : undefined;
  let area = query.area ? eq(areas.slug, query.area) : undefined;
  if (!station && !area && query.q) {
    const places = (await understandKeyword(db, query.q)).filter((term) => term.kind === "place");
    const [only] = places;
    if (places.length === 1 && only?.kind === "place" && only.prefectureCodes.length === 0) {
      const [stationId] = only.stationIds;
      const [areaId] = only.areaIds;
      if (only.stationIds.length === 1 && stationId) station = eq(stations.id, stationId);
      else if (only.areaIds.length === 1 && areaId) area = eq(areas.id, areaId);
    }
  }
  if (station) {
    const [row] = await db
      .select({ name: stations.name, lat: stations.latitude, lng: stations.longitude })
      .from(stations)
      .where(station)
      .limit(1);
    if (row) return { kind: "station", ...row };
  }
  if (area) {
    const [row] = await db
      .select({ name: areas.name, lat: avg(stations.latitude), lng: avg(stations.longitude) })
      .from(areas)
      .innerJoin(stations, eq(stations.areaId, areas.id))
      .where(area)
      .groupBy(areas.id, areas.name)
      .limit(1);
    if (row?.lat != null && row.lng != null) {
      return { kind: "area", name: row.name, lat: Number(row.lat), lng: Number(row.lng) };
    }
  }
  return null;
}
