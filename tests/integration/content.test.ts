import { beforeAll, describe, expect, it } from "vitest";
import { getPublishedArticle, listPublishedArticles } from "../../server/content/articles";
import { saveContactMessage } from "../../server/content/contact";
import { articles, contactMessages } from "../../server/db/schema";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
beforeAll(async () => {
  await database.db.insert(articles).values([
    {
      slug: "older",
      kind: "article",
      title: "古い記事",
      summary: "概要",
      bodyMarkdown: "## 見出し\n\n本文",
      publishedAt: new Date("2026-01-01T00:00:00Z"),
    },
    {
      slug: "newer",
      kind: "interview",
      title: "新しい記事",
      summary: "概要",
      bodyMarkdown: "本文",
      publishedAt: new Date("2026-06-01T00:00:00Z"),
    },
    {
      slug: "scheduled",
      kind: "article",
      title: "予約公開",
      summary: "概要",
      bodyMarkdown: "本文",
      publishedAt: new Date("2027-01-01T00:00:00Z"),
    },
    { slug: "draft", kind: "article", title: "下書き", summary: "概要", bodyMarkdown: "本文" },
  ]);
});

const now = new Date("2026-11-22T00:00:00Z");

describe("articles", () => {
  it("lists published articles newest first, leaving drafts and scheduled ones out", async () => {
    const list = await listPublishedArticles(database.db, now);
    expect(list.map((article) => article.slug)).toEqual(["newer", "older"]);
  });

  it("renders a published article's Markdown", async () => {
    const article = await getPublishedArticle(database.db, "older", now);
    expect(article?.title).toBe("古い記事");
    expect(article?.html).toContain("<h2>見出し</h2>");
  });

  it("does not serve drafts, scheduled or unknown articles", async () => {
    expect(await getPublishedArticle(database.db, "draft", now)).toBeNull();
    expect(await getPublishedArticle(database.db, "scheduled", now)).toBeNull();
    expect(await getPublishedArticle(database.db, "missing", now)).toBeNull();
  });
});

describe("contact messages", () => {
  it("stores a message with its category and user agent", async () => {
    const { id } = await saveContactMessage(
      database.db,
      {
        name: "佐藤 花子",
        email: "hanako@example.jp",
        category: "salon",
        body: "掲載について相談したいです。",
      },
      "Mozilla/5.0",
    );
    const rows = await database.db.select().from(contactMessages);
    const stored = rows.find((row) => row.id === id);
    expect(stored).toMatchObject({
      name: "佐藤 花子",
      category: "salon",
      userAgent: "Mozilla/5.0",
      handled: false,
    });
  });
});
