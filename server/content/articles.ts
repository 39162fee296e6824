import { and, desc, eq, isNotNull, lte } from "drizzle-orm";
import { marked } from "marked";
import type { Database } from "../db/client";
import { articles } from "../db/schema";

export type ArticleSummary = Pick<
  typeof articles.$inferSelect,
  "slug" | "kind" | "title" | "summary" | "coverUrl" | "coverAlt" | "publishedAt"
>;

const summaryColumns = {
  slug: articles.slug,
  kind: articles.kind,
  title: articles.title,
  summary: articles.summary,
  coverUrl: articles.coverUrl,
  coverAlt: articles.coverAlt,
  publishedAt: articles.publishedAt,
};

const isPublished = (now: Date) =>
  and(isNotNull(articles.publishedAt), lte(articles.publishedAt, now));

export async function listPublishedArticles(
  db: Database,
  now: Date,
  limit = 50,
): Promise<ArticleSummary[]> {
  return db
    .select(summaryColumns)
    .from(articles)
    .where(isPublished(now))
    .orderBy(desc(articles.publishedAt), articles.slug)
    .limit(limit);
}

export type ArticlePage = ArticleSummary & { html: string };

/** A published article with its Markdown rendered to HTML, or null. */
export async function getPublishedArticle(
  db: Database,
  slug: string,
  now: Date,
): Promise<ArticlePage | null> {
  const [row] = await db
    .select({ ...summaryColumns, bodyMarkdown: articles.bodyMarkdown })
    .from(articles)
    .where(and(eq(articles.slug, slug), isPublished(now)))
    .limit(1);
  if (!row) return null;
  const { bodyMarkdown, ...summary } = row;
  return { ...summary, html: renderMarkdown(bodyMarkdown) };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Markdown to HTML. Raw HTML inside the Markdown is escaped, not passed
 * through, so an article body can never inject script into the page.
 */
export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, {
    async: false,
    gfm: true,
    renderer: Object.assign(new marked.Renderer(), {
      html: ({ text }: { text: string }) => escapeHtml(text),
    }),
  });
}
