import { and, eq, type SQL, sql } from "drizzle-orm";
import type { PhotoVariant } from "../../common/photo-variants";
import type { Database } from "../db/client";
import { areas, salons, stations } from "../db/schema";

/** What a salon card in a list shows; shared by home, search and listings. */
export type SalonCard = {
  slug: string;
  name: string;
  nameKana: string;
  genre: (typeof salons.$inferSelect)["genre"];
  catchCopy: string;
  areaName: string;
  stationName: string | null;
  access: string;
  ratingAverage: number;
  reviewCount: number;
  priceMin: number;
  photoUrl: string | null;
  photoAlt: string | null;
  /** The cover's WebP sizes for srcset (empty for a single-file photo). */
  photoVariants: PhotoVariant[] | null;
  /**
   * The cover inside the page (a data: URL), for a list's first card only,
   * when it is one of the site's small SVGs (server/photos/inline-image.server.ts).
   */
  photoInline?: string | null;
};

export const salonCardColumns = {
  slug: salons.slug,
  name: salons.name,
  nameKana: salons.nameKana,
  genre: salons.genre,
  catchCopy: salons.catchCopy,
  areaName: areas.name,
  stationName: stations.name,
  access: salons.access,
  ratingAverage: salons.ratingAverage,
  reviewCount: salons.reviewCount,
  priceMin: salons.priceMin,
  // The first photo by sort order; a correlated subquery keeps one row per salon.
  photoUrl: sql<
    string | null
  >`(select p.url from salon_photos p where p.salon_id = ${salons.id} order by p.sort_order limit 1)`,
  photoAlt: sql<
    string | null
  >`(select p.alt from salon_photos p where p.salon_id = ${salons.id} order by p.sort_order limit 1)`,
  photoVariants: sql<
    PhotoVariant[] | null
  >`(select p.variants from salon_photos p where p.salon_id = ${salons.id} order by p.sort_order limit 1)`,
};

export function selectSalonCards(db: Database, where?: SQL) {
  return db
    .select(salonCardColumns)
    .from(salons)
    .innerJoin(areas, eq(areas.id, salons.areaId))
    .leftJoin(stations, eq(stations.id, salons.stationId))
    .where(and(eq(salons.status, "published"), where));
}
