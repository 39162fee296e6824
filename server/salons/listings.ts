import { and, asc, eq, inArray, notExists, or } from "drizzle-orm";
import { genreLabels, type SalonGenre, salonGenres } from "../../common/genres";
import { parseSearchQuery, type SearchQuery } from "../../common/search.schema";
import { SLUG_PATTERN } from "../../common/slug";
import { groupMenus, menuItemColumns } from "../bookings/menu-items";
import type { Database } from "../db/client";
import { areas, features, menuStaff, menus, prefectures, salons, staff } from "../db/schema";
import { selectSalonCards } from "./salon-card";
import { staffProfileColumns } from "./salon-detail";
import { searchSalons } from "./search";

/**
 * /salons/staffs/{slug}: an active stylist of a published salon, with the
 * salon's card and the menus they perform (menus without a staff list are
 * open to everyone). Null when there is no such stylist.
 */
export async function getStaffPage(db: Database, slug: string) {
  if (!SLUG_PATTERN.test(slug)) return null;
  const [member] = await db
    .select({ id: staff.id, salonId: staff.salonId, ...staffProfileColumns })
    .from(staff)
    .innerJoin(salons, eq(salons.id, staff.salonId))
    .where(and(eq(staff.slug, slug), eq(staff.active, true), eq(salons.status, "published")));
  if (!member) return null;
  const [[salon], menuRows] = await Promise.all([
    selectSalonCards(db, eq(salons.id, member.salonId)),
    db
      .select(menuItemColumns)
      .from(menus)
      .where(
        and(
          eq(menus.salonId, member.salonId),
          eq(menus.published, true),
          or(
            inArray(
              menus.id,
              db
                .select({ id: menuStaff.menuId })
                .from(menuStaff)
                .where(eq(menuStaff.staffId, member.id)),
            ),
            notExists(db.select().from(menuStaff).where(eq(menuStaff.menuId, menus.id))),
          ),
        ),
      )
      .orderBy(asc(menus.sortOrder), asc(menus.price), asc(menus.name)),
  ]);
  if (!salon) return null;
  const { id: _id, salonId: _salonId, ...publicMember } = member;
  return { staff: publicMember, salon, menuGroups: groupMenus(menuRows) };
}

/** /salons/feature/{slug}: the feature and one page of its salons, recommended first. */
export async function getFeaturePage(db: Database, slug: string, page: number) {
  if (!SLUG_PATTERN.test(slug)) return null;
  const [feature] = await db
    .select({ slug: features.slug, name: features.name, description: features.description })
    .from(features)
    .where(eq(features.slug, slug));
  if (!feature) return null;
  const result = await searchSalons(
    db,
    parseSearchQuery(new URLSearchParams({ feature: slug, page: String(page) })),
  );
  return { feature, result };
}

export const RECOMMEND_LIMIT = 30;

export type RecommendScope =
  | { kind: "all"; slug: "all"; name: string }
  | { kind: "genre"; slug: SalonGenre; name: string }
  | { kind: "prefecture" | "area"; slug: string; name: string };

/**
 * /salons/recommend/{param}: the RECOMMEND_LIMIT best salons of a scope,
 * by the recommended order of search.ts (Bayesian average of rating and
 * review count, then review count, then slug). `param` is `all`, a genre
 * (hair, nail …), a prefecture slug or an area slug; anything else is null.
 */
export async function getRecommendedSalons(db: Database, param: string) {
  const scope = await resolveRecommendScope(db, param);
  if (!scope) return null;
  const query: Partial<SearchQuery> = {
    genre: scope.kind === "genre" ? scope.slug : undefined,
    pref: scope.kind === "prefecture" ? scope.slug : undefined,
    area: scope.kind === "area" ? scope.slug : undefined,
  };
  const { salons: list, total } = await searchSalons(
    db,
    { ...parseSearchQuery(new URLSearchParams()), ...query },
    RECOMMEND_LIMIT,
  );
  return { scope, salons: list, total, limit: RECOMMEND_LIMIT };
}

/** The home page's picks: the first salons of the recommended order, nationwide. */
export async function listRecommendedSalons(db: Database, limit: number) {
  const { salons: list } = await searchSalons(db, parseSearchQuery(new URLSearchParams()), limit);
  return list;
}

async function resolveRecommendScope(db: Database, param: string): Promise<RecommendScope | null> {
  if (param === "all") return { kind: "all", slug: "all", name: "全国" };
  const genre = salonGenres.find((value) => value === param);
  if (genre) return { kind: "genre", slug: genre, name: genreLabels[genre] };
  if (!SLUG_PATTERN.test(param)) return null;
  const [prefecture] = await db
    .select({ name: prefectures.name })
    .from(prefectures)
    .where(eq(prefectures.slug, param));
  if (prefecture) return { kind: "prefecture", slug: param, name: prefecture.name };
  const [area] = await db.select({ name: areas.name }).from(areas).where(eq(areas.slug, param));
  if (area) return { kind: "area", slug: param, name: area.name };
  return null;
}
