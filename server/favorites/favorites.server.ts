import { and, desc, eq, inArray } from "drizzle-orm";
import { SLUG_PATTERN } from "../../common/slug";
import { getCurrentUser } from "../accounts/current-user";
import type { AppContext } from "../context";
import type { Database } from "../db/client";
import { favorites, salons } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { cacheKey } from "../http/page-cache";
import { type SalonCard, salonCardColumns, selectSalonCards } from "../salons/salon-card";

/** The salon to add or remove does not exist (or is not published). */
export class FavoriteSalonNotFoundError extends DomainError {
  constructor() {
    super("salon_not_found", "サロンが見つかりません。", 404);
  }
}

async function publishedSalonId(db: Database, slug: string) {
  if (!SLUG_PATTERN.test(slug)) throw new FavoriteSalonNotFoundError();
  const [row] = await db
    .select({ id: salons.id })
    .from(salons)
    .where(and(eq(salons.slug, slug), eq(salons.status, "published")));
  if (!row) throw new FavoriteSalonNotFoundError();
  return row.id;
}

/** Adds a salon to the user's favorites; adding it twice keeps one. */
export async function addFavorite(db: Database, userId: string, salonSlug: string) {
  const salonId = await publishedSalonId(db, salonSlug);
  await db.insert(favorites).values({ userId, salonId }).onConflictDoNothing();
}

/** Removes a salon from the user's favorites; removing one that is not there is fine. */
export async function removeFavorite(db: Database, userId: string, salonSlug: string) {
  if (!SLUG_PATTERN.test(salonSlug)) throw new FavoriteSalonNotFoundError();
  const [row] = await db.select({ id: salons.id }).from(salons).where(eq(salons.slug, salonSlug));
  if (!row) throw new FavoriteSalonNotFoundError();
  await db
    .delete(favorites)
    .where(and(eq(favorites.userId, userId), eq(favorites.salonId, row.id)));
}

/** The user's favorite published salons as cards, the newest favorite first. */
export async function listFavorites(db: Database, userId: string): Promise<SalonCard[]> {
  const rows = await selectSalonCards(db, eq(favorites.userId, userId))
    .innerJoin(favorites, eq(favorites.salonId, salons.id))
    .orderBy(desc(favorites.createdAt), salonCardColumns.slug);
  return rows;
}

/** Which of these salons (by slug) the user has as favorites, for the hearts on a list. */
export async function favoriteSlugs(
  db: Database,
  userId: string,
  slugs: readonly string[],
): Promise<Set<string>> {
  if (slugs.length === 0) return new Set();
  const rows = await db
    .select({ slug: salons.slug })
    .from(favorites)
    .innerJoin(salons, eq(salons.id, favorites.salonId))
    .where(and(eq(favorites.userId, userId), inArray(salons.slug, [...slugs])));
  return new Set(rows.map((row) => row.slug));
}

/**
 * The hearts of the salon cards (or the salon page) a request shows: the
 * slugs among `slugs` the signed-in visitor has as favorites, or null for a
 * guest, whose hearts are links to sign in and come back. One query for a
 * member, none for a guest.
 *
 * A request the page micro-cache may store and share (decision 0007: no
 * credentials) is always answered as a guest, before any session lookup, so
 * a personal heart can never reach the anonymous cache.
 */
export async function favoritesAmong(
  request: Request,
  ctx: Pick<AppContext, "db" | "accounts">,
  slugs: readonly string[],
): Promise<string[] | null> {
  if (cacheKey(request) !== null) return null;
  const user = await getCurrentUser(request, ctx);
  if (!user) return null;
  return [...(await favoriteSlugs(ctx.db, user.id, slugs))];
}
