/**
 * The nearest stations of a salon and the walk to each, from coordinates
 * alone (decision 0057): the straight line (haversine) times a detour factor
 * for streets, at 80 m a minute (不動産の表示に関する公正競争規約: 80 m = 1分,
 * a part of a minute counted as a minute).
 */

/** Metres a minute on foot, the Japanese real-estate rule. */
export const WALK_METRES_PER_MINUTE = 80;
/** Streets are longer than the straight line; about 1.3 times in Japanese city centres. */
export const DETOUR_FACTOR = 1.3;
/** Stations further than this (straight line) are not "near". */
export const NEAR_STATION_METRES = 2000;
/** How many stations the access page lists. */
export const NEAR_STATION_LIMIT = 3;

const EARTH_RADIUS_METRES = 6_371_000;

export type Point = { latitude: number; longitude: number };

/** The great-circle distance in metres (haversine). */
export function distanceMetres(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** 徒歩N分 for a straight-line distance: never 0 (a station next door is 徒歩1分). */
export function walkingMinutes(straightMetres: number): number {
  return Math.max(1, Math.ceil((straightMetres * DETOUR_FACTOR) / WALK_METRES_PER_MINUTE));
}

/**
 * The box around a point that holds every place within `metres`: the SQL
 * reads only the stations in it, the exact distance is computed here.
 */
export function boundingBox(point: Point, metres: number) {
  const dLat = (metres / EARTH_RADIUS_METRES) * (180 / Math.PI);
  const dLng = dLat / Math.max(0.01, Math.cos((point.latitude * Math.PI) / 180));
  return {
    minLatitude: point.latitude - dLat,
    maxLatitude: point.latitude + dLat,
    minLongitude: point.longitude - dLng,
    maxLongitude: point.longitude + dLng,
  };
}

/**
 * Up to `limit` stations within `maxMetres` of the salon, nearest first
 * (ties by name), each with its straight-line distance (rounded to 10 m) and
 * walking minutes.
 */
export function nearestStations<S extends Point & { name: string }>(
  salon: Point,
  stations: readonly S[],
  { maxMetres = NEAR_STATION_METRES, limit = NEAR_STATION_LIMIT } = {},
): (S & { metres: number; walkMinutes: number })[] {
  return stations
    .map((station) => ({ station, metres: distanceMetres(salon, station) }))
    .filter((entry) => entry.metres <= maxMetres)
    .sort((a, b) => a.metres - b.metres || a.station.name.localeCompare(b.station.name, "ja"))
    .slice(0, limit)
    .map(({ station, metres }) => ({
      ...station,
      metres: Math.round(metres / 10) * 10,
      walkMinutes: walkingMinutes(metres),
    }));
}
