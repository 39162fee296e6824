import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { refreshSalonHorizon } from "../bookings/free-days.server";
import type { Database } from "../db/client";
import { areas, menus, salonFeatures, salons, stations } from "../db/schema";
import { salonSearchText } from "../search/salon-search-text";
import { salonSearchTerms } from "../search/search-terms";

/**
 * The salon columns search reads instead of aggregating (issue 16, point 5):
 * search_text and search_terms (genre, features, dictionary keywords of the
 * text: decision 0023), price_min/price_max (published menus),
 * rating_average and review_count (reviews). Written only here, inside the transaction of the
 * change that affects them (salon, menus, staff, reviews), by the seed and
 * by the test builders, so there is one way they come to be.
 */

/** Salons per UPDATE (three bind parameters each). */
const CHUNK = 1000;

/**
 * Recomputes the derived columns of many salons in three reads and one UPDATE
 * per chunk (the seed writes 250 salons at a time). Does not touch
 * `version` or `updated_at`: derived data is not an edit.
 */
export async function recomputeSalonsDerived(
  db: Database,
  salonIds: readonly string[],
): Promise<void> {
  const ids = [...new Set(salonIds)];
  for (let start = 0; start < ids.length; start += CHUNK) {
    await recomputeChunk(db, ids.slice(start, start + CHUNK));
  }
}

async function recomputeChunk(db: Database, ids: string[]) {
  if (ids.length === 0) return;
  const parts = await db
    .select({
      id: salons.id,
      name: salons.name,
      nameKana: salons.nameKana,
      genre: salons.genre,
      catchCopy: salons.catchCopy,
      areaName: areas.name,
      areaKana: areas.kana,
      stationName: stations.name,
      stationKana: stations.kana,
    })
    .from(salons)
    .innerJoin(areas, eq(areas.id, salons.areaId))
    .leftJoin(stations, eq(stations.id, salons.stationId))
    .where(inArray(salons.id, ids));
  if (parts.length === 0) return;
  const menuRows = await db
    .select({ salonId: menus.salonId, name: menus.name })
    .from(menus)
    .where(and(inArray(menus.salonId, ids), eq(menus.published, true)))
    .orderBy(asc(menus.salonId), asc(menus.sortOrder), asc(menus.createdAt), asc(menus.id));
  const menuNames = new Map<string, string[]>();
  for (const menu of menuRows) {
    const names = menuNames.get(menu.salonId) ?? [];
    names.push(menu.name);
    menuNames.set(menu.salonId, names);
  }
  const featureRows = await db
    .select({ salonId: salonFeatures.salonId, slug: salonFeatures.featureSlug })
    .from(salonFeatures)
    .where(inArray(salonFeatures.salonId, ids));
  const featureSlugs = new Map<string, string[]>();
  for (const feature of featureRows) {
    const slugs = featureSlugs.get(feature.salonId) ?? [];
    slugs.push(feature.slug);
    featureSlugs.set(feature.salonId, slugs);
  }
  const values = sql.join(
    parts.map((salon) => {
      const searchText = salonSearchText({ ...salon, menuNames: menuNames.get(salon.id) ?? [] });
      const terms = salonSearchTerms({
        genre: salon.genre,
        featureSlugs: featureSlugs.get(salon.id) ?? [],
        searchText,
      });
      // One text parameter per salon (a JS array would become one parameter per element).
      return sql`(${salon.id}::uuid, ${searchText}::text, ${JSON.stringify(terms)}::jsonb)`;
    }),
    sql`, `,
  );
  await db.execute(sql`
    update salons as s set
      search_text = v.search_text,
      search_terms = array(select jsonb_array_elements_text(v.search_terms)),
      price_min = coalesce((select min(m.price) from menus m where m.salon_id = s.id and m.published), 0),
      price_max = coalesce((select max(m.price) from menus m where m.salon_id = s.id and m.published), 0),
      rating_average = coalesce((select round(avg(r.rating)::numeric, 1) from reviews r where r.salon_id = s.id and r.hidden_at is null), 0),
      review_count = (select count(*) from reviews r where r.salon_id = s.id and r.hidden_at is null)
    from (values ${values}) as v(id, search_text, search_terms)
    where s.id = v.id`);
}

export type RecomputeOptions = {
  /**
   * Also rewrite the salon's free-time summary (salon_free_days, decision
   * 0014) as of this instant: for edits of hours, closures, booking
   * settings, staff, schedules, menus or status, which change when the
   * salon is free. Left out by the builders and the seed, which refresh it
   * themselves when a test needs it.
   */
  refreshFreeDaysAt?: Date;
};

/**
 * Recomputes one salon's derived columns (and, when asked, its free-time
 * summary). Call it with the transaction of the edit, after the edit.
 */
export async function recomputeSalonDerived(
  db: Database,
  salonId: string,
  options: RecomputeOptions = {},
): Promise<void> {
  await recomputeSalonsDerived(db, [salonId]);
  if (options.refreshFreeDaysAt) await refreshSalonHorizon(db, salonId, options.refreshFreeDaysAt);
}
