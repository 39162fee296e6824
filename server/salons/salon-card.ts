import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import type { PhotoVariant } from "../../common/photo-variants";
import type { Database } from "../db/client";
import { areas, salonPhotos, salons, stations } from "../db/schema";

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

/**
 * A salon's cover (its first photo by sort order), joined laterally to the
 * salon's row: one read of salon_photos per card for its three columns, where
 * three correlated subqueries read it three times (issue 42).
 */
export const cardCover = new QueryBuilder()
  .select({ url: salonPhotos.url, alt: salonPhotos.alt, variants: salonPhotos.variants })
  .from(salonPhotos)
  .where(eq(salonPhotos.salonId, salons.id))
  .orderBy(asc(salonPhotos.sortOrder))
  .limit(1)
  .as("cover");

/** The card's columns, from `salons` joined to `areas`, `stations` and `cardCover` (see `withCardJoins`). */
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
  photoUrl: sql<string | null>`${cardCover.url}`,
  photoAlt: sql<string | null>`${cardCover.alt}`,
  photoVariants: sql<PhotoVariant[] | null>`${cardCover.variants}`,
};

export function selectSalonCards(db: Database, where?: SQL) {
  return db
    .select(salonCardColumns)
    .from(salons)
    .innerJoin(areas, eq(areas.id, salons.areaId))
    .leftJoin(stations, eq(stations.id, salons.stationId))
    .leftJoinLateral(cardCover, sql`true`)
    .where(and(eq(salons.status, "published"), where));
}
