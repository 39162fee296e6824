import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { adminSalonSorts, defaultSalonSortDirection, SALONS_PER_PAGE } from "../../common/admin";
import { salonGenres } from "../../common/genres";
import { UUID_PATTERN } from "../../common/uuid";
import type { Database } from "../db/client";
import { areas, salonStatuses, salons } from "../db/schema";

/**
 * /admin/salons: one page of salons, searched by name, kana or area and
 * filtered by status, genre and area, sorted by a column. At 10,000 salons
 * every query stays on indexes or a short scan (docs/decisions/0017).
 */

/** The list's query string; a bad value drops that one condition. */
export const salonListQuerySchema = z.object({
  q: z.string().trim().max(100).catch("").default(""),
  status: z.enum(salonStatuses).optional().catch(undefined),
  genre: z.enum(salonGenres).optional().catch(undefined),
  area: z.string().regex(UUID_PATTERN).optional().catch(undefined),
  sort: z.enum(adminSalonSorts).catch("updated").default("updated"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type SalonListQuery = z.infer<typeof salonListQuerySchema>;

export function parseSalonListQuery(params: URLSearchParams): SalonListQuery {
  const read = (key: string) => params.get(key) || undefined;
  return salonListQuerySchema.parse({
    q: read("q"),
    status: read("status"),
    genre: read("genre"),
    area: read("area"),
    sort: read("sort"),
    dir: read("dir"),
    page: read("page"),
  });
}

/** Name, kana and slug: the expression of the salons_admin_search_trgm_idx index. */
const adminSearchExpression = sql`(${salons.name} || ' ' || ${salons.nameKana} || ' ' || ${salons.slug})`;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Kana are stored as katakana; a hiragana search meets them. */
const toKatakana = (text: string) =>
  text
    .normalize("NFKC")
    .replace(/[\u3041-\u3096]/gu, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0x60));

export async function listSalonsForAdmin(db: Database, query: SalonListQuery) {
  const conditions: SQL[] = [];
  const q = query.q.normalize("NFKC").trim();
  if (q) {
    // Areas first (a few dozen rows), so the salons are searched on the
    // trigram index and the area index, never a join filter.
    const areaIds = (
      await db
        .select({ id: areas.id })
        .from(areas)
        .where(or(ilike(areas.name, likePattern(q)), ilike(areas.kana, likePattern(q))))
    ).map((row) => row.id);
    const patterns = [...new Set([q, toKatakana(q)])].map(likePattern);
    const search = or(
      ...patterns.map((pattern) => sql`${adminSearchExpression} ilike ${pattern}`),
      areaIds.length > 0 ? inArray(salons.areaId, areaIds) : undefined,
    );
    if (search) conditions.push(search);
  }
  if (query.status) conditions.push(eq(salons.status, query.status));
  if (query.genre) conditions.push(eq(salons.genre, query.genre));
  if (query.area) conditions.push(eq(salons.areaId, query.area.toLowerCase()));
  const where = conditions.length > 0 ? and(...conditions) : undefined;

  const dir = query.dir ?? defaultSalonSortDirection(query.sort);
  const by = dir === "asc" ? asc : desc;
  const column = {
    updated: salons.updatedAt,
    created: salons.createdAt,
    name: salons.name,
    kana: salons.nameKana,
    area: areas.name,
    status: salons.status,
  }[query.sort];
  // The id last: a stable order, so a salon never shows on two pages.
  const order = [by(column), by(salons.id)];

  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(salons)
    .innerJoin(areas, eq(areas.id, salons.areaId))
    .where(where);
  const pageCount = Math.max(1, Math.ceil(total / SALONS_PER_PAGE));
  const page = Math.min(query.page, pageCount);
  const rows = await db
    .select({
      id: salons.id,
      name: salons.name,
      nameKana: salons.nameKana,
      slug: salons.slug,
      genre: salons.genre,
      status: salons.status,
      areaName: areas.name,
      updatedAt: salons.updatedAt,
      createdAt: salons.createdAt,
    })
    .from(salons)
    .innerJoin(areas, eq(areas.id, salons.areaId))
    .where(where)
    .orderBy(...order)
    .limit(SALONS_PER_PAGE)
    .offset((page - 1) * SALONS_PER_PAGE);
  return { salons: rows, total, page, pageCount, dir };
}

/** The area filter's choices. */
export function areaChoices(db: Database) {
  return db
    .select({ id: areas.id, name: areas.name })
    .from(areas)
    .orderBy(asc(areas.prefectureCode), asc(areas.sortOrder), asc(areas.name));
}

/** Everything /admin/salons shows: the page of salons under the query and the area filter's choices. */
export async function salonListPage(db: Database, query: SalonListQuery) {
  const [list, areaList] = await Promise.all([listSalonsForAdmin(db, query), areaChoices(db)]);
  return { ...list, areas: areaList, query };
}

export type SalonListPageData = Awaited<ReturnType<typeof salonListPage>>;
