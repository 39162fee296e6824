import { beforeAll, describe, expect, it } from "vitest";
import { articles, features } from "../../server/db/schema";
import { listSitemapEntries, renderRobots, renderSitemap } from "../../server/seo/sitemap";
import { buildArea, buildReview, buildSalon } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
const now = new Date("2026-11-22T00:00:00Z");

beforeAll(async () => {
  const { db } = database;
  const area = await buildArea(db, { slug: "shinjuku" });
  const listed = await buildSalon(db, { slug: "listed", areaId: area.id });
  await buildReview(db, listed.id);
  await buildSalon(db, { slug: "quiet", areaId: area.id });
  await buildSalon(db, { slug: "unlisted", areaId: area.id, status: "draft" });
  await db.insert(features).values({ slug: "kids", name: "キッズ歓迎" });
  await db.insert(articles).values([
    {
      slug: "live",
      kind: "article",
      title: "公開",
      summary: "s",
      bodyMarkdown: "b",
      publishedAt: now,
    },
    {
      slug: "later",
      kind: "article",
      title: "予約",
      summary: "s",
      bodyMarkdown: "b",
      publishedAt: new Date("2027-01-01T00:00:00Z"),
    },
  ]);
});

describe("sitemap", () => {
  it("covers static pages, areas, listings, published salons, their reviews and articles", async () => {
    const paths = (await listSitemapEntries(database.db, now)).map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/",
        "/area",
        "/area/shinjuku",
        "/salons/recommend/all",
        "/salons/feature/kids",
        "/salons/listed",
        "/salons/listed/reviews",
        "/salons/quiet",
        "/articles/live",
      ]),
    );
    expect(paths).not.toContain("/salons/unlisted");
    expect(paths).not.toContain("/salons/quiet/reviews");
    expect(paths).not.toContain("/articles/later");
  });

  it("renders absolute, escaped URLs with lastmod", () => {
    const xml = renderSitemap(
      [{ path: "/a?b=1&c=2", lastModified: new Date("2026-01-02T03:04:05Z") }],
      "https://salon.example.jp",
    );
    expect(xml).toContain("<loc>https://salon.example.jp/a?b=1&#38;c=2</loc>");
    expect(xml).toContain("<lastmod>2026-01-02T03:04:05.000Z</lastmod>");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  it("robots.txt points at the sitemap and keeps private pages out", () => {
    const robots = renderRobots("https://salon.example.jp");
    expect(robots).toContain("Sitemap: https://salon.example.jp/sitemap.xml");
    expect(robots).toContain("Disallow: /account/");
  });
});
