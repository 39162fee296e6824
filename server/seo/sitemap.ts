import { and, asc, eq, exists, isNotNull, lte } from "drizzle-orm";
import { salonGenres } from "../../common/genres";
import type { Database } from "../db/client";
import { areas, articles, features, salonPhotos, salons } from "../db/schema";

export type SitemapEntry = { path: string; lastModified?: Date };

const staticPaths = [
  "/",
  "/area",
  "/salons/search",
  "/articles",
  "/about",
  "/company",
  "/contact",
  "/user-policy",
  "/privacy-policy",
];

/** Every public, indexable page: static pages, areas, listings, salons, their tabs and reviews, and articles. */
export async function listSitemapEntries(db: Database, now: Date): Promise<SitemapEntry[]> {
  const [areaRows, featureRows, salonRows, articleRows] = await Promise.all([
    db.select({ slug: areas.slug }).from(areas).orderBy(asc(areas.slug)),
    db.select({ slug: features.slug }).from(features).orderBy(asc(features.slug)),
    db
      .select({
        slug: salons.slug,
        updatedAt: salons.updatedAt,
        reviewCount: salons.reviewCount,
        hasPhotos: exists(
          db
            .select({ one: salonPhotos.id })
            .from(salonPhotos)
            .where(eq(salonPhotos.salonId, salons.id)),
        ),
      })
      .from(salons)
      .where(eq(salons.status, "published"))
      .orderBy(asc(salons.slug)),
    db
      .select({ slug: articles.slug, updatedAt: articles.updatedAt })
      .from(articles)
      .where(and(isNotNull(articles.publishedAt), lte(articles.publishedAt, now)))
      .orderBy(asc(articles.slug)),
  ]);
  return [
    ...staticPaths.map((path) => ({ path })),
    ...areaRows.map((row) => ({ path: `/area/${row.slug}` })),
    ...["all", ...salonGenres].map((scope) => ({ path: `/salons/recommend/${scope}` })),
    ...featureRows.map((row) => ({ path: `/salons/feature/${row.slug}` })),
    ...salonRows.flatMap((row) => [
      { path: `/salons/${row.slug}`, lastModified: row.updatedAt },
      // The salon's tabs (decision 0057); スタイル once it has a photo (an empty gallery is no page to index).
      { path: `/salons/${row.slug}/coupons` },
      ...(row.hasPhotos ? [{ path: `/salons/${row.slug}/styles` }] : []),
      { path: `/salons/${row.slug}/stylists` },
      { path: `/salons/${row.slug}/access` },
    ]),
    // A salon's review list, once it has a shown review (an empty list is no page to index).
    ...salonRows
      .filter((row) => row.reviewCount > 0)
      .map((row) => ({ path: `/salons/${row.slug}/reviews` })),
    ...articleRows.map((row) => ({ path: `/articles/${row.slug}`, lastModified: row.updatedAt })),
  ];
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** The sitemaps.org XML for the entries, with absolute URLs on `origin`. */
export function renderSitemap(entries: SitemapEntry[], origin: string): string {
  const urls = entries.map((entry) => {
    const loc = `<loc>${escapeXml(new URL(entry.path, origin).toString())}</loc>`;
    const lastmod = entry.lastModified
      ? `<lastmod>${new Date(entry.lastModified).toISOString()}</lastmod>`
      : "";
    return `<url>${loc}${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** robots.txt: private and transactional pages stay out of search engines. */
export function renderRobots(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /account/",
    "Disallow: /admin",
    "Disallow: /salons/*/confirm",
    "Disallow: /api/",
    "",
    `Sitemap: ${new URL("/sitemap.xml", origin).toString()}`,
    "",
  ].join("\n");
}
