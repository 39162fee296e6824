/*
 * The distances of the search's map view (issue 31, decision 0058): each
 * result's distance from where the visitor is looking, said in Japanese. Pure:
 * the loader (search-map-data.ts) finds the origin and the salons' positions.
 */

export type LatLng = { lat: number; lng: number };

/**
 * Where distances are measured from, in order of preference: the visitor's
 * position (現在地から近い順), the searched station, the searched area's
 * centre, or, when the search named no place, the middle of the results.
 */
export type DistanceOrigin = LatLng &
  (
    | { kind: "position" }
    | { kind: "station"; name: string }
    | { kind: "area"; name: string }
    | { kind: "results" }
  );

/** The mean radius of the Earth (IUGG), in metres. */
const EARTH_RADIUS_M = 6_371_008.8;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance in metres (haversine): exact to well under 1% at a city's scale. */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = radians(b.lat - a.lat);
  const dLng = radians(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * 約350m, 約1.2km, 約12km: as precise as a walk or a ride needs, never more
 * precise than the salon's registered point (a building, not a door).
 */
export function formatDistance(meters: number): string {
  const tens = Math.max(10, Math.round(meters / 10) * 10);
  if (tens < 1000) return `約${tens}m`;
  const km = meters / 1000;
  if (km < 9.95) return `約${km.toFixed(1)}km`;
  return `約${Math.round(km).toLocaleString("ja-JP")}km`;
}

/** 現在地, 新宿駅, 渋谷・原宿の中心, 検索結果の中心: what a distance is counted from. */
export function originLabel(origin: DistanceOrigin): string {
  switch (origin.kind) {
    case "position":
      return "現在地";
    case "station":
      return origin.name.endsWith("駅") ? origin.name : `${origin.name}駅`;
    case "area":
      return `${origin.name}の中心`;
    case "results":
      return "検索結果の中心";
  }
}

/** 「現在地から約1.2km」, 「新宿駅から約350m」. */
export function distanceLabel(origin: DistanceOrigin, point: LatLng): string {
  return `${originLabel(origin)}から${formatDistance(distanceMeters(origin, point))}`;
}

/**
 * The middle of these points: the centre of their bounding box, which is
 * where the map, fitted to them, is centred (so the list and the map agree).
 * Null without points.
 */
export function middleOf(points: readonly LatLng[]): LatLng | null {
  if (points.length === 0) return null;
  const lats = points.map((point) => point.lat);
  const lngs = points.map((point) => point.lng);
  return {
    lat: (Math.min(...lats) + Math.max(...lats)) / 2,
    lng: (Math.min(...lngs) + Math.max(...lngs)) / 2,
  };
}
