import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { parseSearchQuery } from "../../common/search.schema";
import { SLUG_PATTERN } from "../../common/slug";
import type { Database } from "../db/client";
import { areas, features, prefectures, salonFeatures, salons, stations } from "../db/schema";
import { searchSalons } from "../salons/search";

export type AreaIndexEntry = {
  region: string;
  prefectures: {
    slug: string;
    name: string;
    areas: { slug: string; name: string; salonCount: number }[];
  }[];
};

const publishedInArea = sql`${salons.areaId} = ${areas.id} and ${salons.status} = 'published'`;

/** /area: every prefecture that has areas, by region, each area with its salon count. */
export async function listAreaIndex(db: Database): Promise<AreaIndexEntry[]> {
  const rows = await db
    .select({
      region: prefectures.region,
      prefectureSlug: prefectures.slug,
      prefectureName: prefectures.name,
      slug: areas.slug,
      name: areas.name,
      salonCount: count(salons.id),
    })
    .from(areas)
    .innerJoin(prefectures, eq(prefectures.code, areas.prefectureCode))
    .leftJoin(salons, publishedInArea)
    .groupBy(areas.id, prefectures.code)
    .orderBy(asc(prefectures.code), asc(areas.sortOrder), asc(areas.slug));
  const regions: AreaIndexEntry[] = [];
  for (const row of rows) {
    let region = regions.find((entry) => entry.region === row.region);
    if (!region) {
      region = { region: row.region, prefectures: [] };
      regions.push(region);
    }
    let prefecture = region.prefectures.find((entry) => entry.slug === row.prefectureSlug);
    if (!prefecture) {
      prefecture = { slug: row.prefectureSlug, name: row.prefectureName, areas: [] };
      region.prefectures.push(prefecture);
    }
    prefecture.areas.push({ slug: row.slug, name: row.name, salonCount: Number(row.salonCount) });
  }
  return regions;
}

/**
 * /area/{slug}: the area, its sub-areas and stations with salon counts, the
 * features most common among its salons, and one page of its salons in
 * recommended order. Null when no area has the slug.
 */
export async function getAreaPage(db: Database, slug: string, page: number) {
  if (!SLUG_PATTERN.test(slug)) return null;
  const [area] = await db
    .select({
      id: areas.id,
      slug: areas.slug,
      name: areas.name,
      kana: areas.kana,
      description: areas.description,
      parentId: areas.parentId,
      prefectureName: prefectures.name,
      prefectureSlug: prefectures.slug,
    })
    .from(areas)
    .innerJoin(prefectures, eq(prefectures.code, areas.prefectureCode))
    .where(eq(areas.slug, slug));
  if (!area) return null;
  const children = await db
    .select({ id: areas.id, slug: areas.slug, name: areas.name, salonCount: count(salons.id) })
    .from(areas)
    .leftJoin(salons, publishedInArea)
    .where(eq(areas.parentId, area.id))
    .groupBy(areas.id)
    .orderBy(asc(areas.sortOrder), asc(areas.slug));
  const areaIds = [area.id, ...children.map((child) => child.id)];
  const [stationRows, featureRows, result] = await Promise.all([
    db
      .select({ slug: stations.slug, name: stations.name, salonCount: count(salons.id) })
      .from(stations)
      .leftJoin(salons, and(eq(salons.stationId, stations.id), eq(salons.status, "published")))
      .where(inArray(stations.areaId, areaIds))
      .groupBy(stations.id)
      .orderBy(desc(count(salons.id)), asc(stations.slug)),
    db
      .select({ slug: features.slug, name: features.name, salonCount: count() })
      .from(salonFeatures)
      .innerJoin(features, eq(features.slug, salonFeatures.featureSlug))
      .innerJoin(salons, eq(salons.id, salonFeatures.salonId))
      .where(and(inArray(salons.areaId, areaIds), eq(salons.status, "published")))
      .groupBy(features.slug)
      .orderBy(desc(count()), asc(features.sortOrder), asc(features.slug))
      .limit(8),
    searchSalons(db, parseSearchQuery(new URLSearchParams({ area: slug, page: String(page) }))),
  ]);
  const parent = area.parentId
    ? ((
        await db
          .select({ slug: areas.slug, name: areas.name })
          .from(areas)
          .where(eq(areas.id, area.parentId))
      )[0] ?? null)
    : null;
  const { id: _id, parentId: _parentId, ...publicArea } = area;
  return {
    area: publicArea,
    parent,
    subAreas: children.map(({ id: _childId, ...child }) => ({
      ...child,
      salonCount: Number(child.salonCount),
    })),
    stations: stationRows.map((row) => ({ ...row, salonCount: Number(row.salonCount) })),
    popularFeatures: featureRows.map((row) => ({ ...row, salonCount: Number(row.salonCount) })),
    result,
  };
}

export type AreaPage = NonNullable<Awaited<ReturnType<typeof getAreaPage>>>;
