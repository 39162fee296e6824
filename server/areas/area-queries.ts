import { asc, count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { areas, prefectures, salons } from "../db/schema";

export type AreaSummary = {
  slug: string;
  name: string;
  prefectureName: string;
  salonCount: number;
};

/** Areas with the most published salons, for the home page's area links. */
export async function listPopularAreas(db: Database, limit: number): Promise<AreaSummary[]> {
  return db
    .select({
      slug: areas.slug,
      name: areas.name,
      prefectureName: prefectures.name,
      salonCount: count(salons.id),
    })
    .from(areas)
    .innerJoin(prefectures, eq(prefectures.code, areas.prefectureCode))
    .leftJoin(salons, sql`${salons.areaId} = ${areas.id} and ${salons.status} = 'published'`)
    .groupBy(areas.id, prefectures.name)
    .orderBy(desc(count(salons.id)), asc(areas.sortOrder), asc(areas.slug))
    .limit(limit);
}
