import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import type { contactCategories } from "../../../common/contact-categories";
import { users } from "./accounts";
import { createdAt, id, updatedAt } from "./common";

export const articleKinds = ["article", "interview", "programme"] as const;

/** Editorial pages under /articles, written in Markdown. */
export const articles = pgTable(
  "articles",
  {
    id: id(),
    slug: text("slug").notNull().unique(),
    kind: text("kind").$type<(typeof articleKinds)[number]>().notNull(),
    title: text("title").notNull(),
    summary: text("summary").notNull(),
    bodyMarkdown: text("body_markdown").notNull(),
    coverUrl: text("cover_url").notNull().default(""),
    coverAlt: text("cover_alt").notNull().default(""),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("articles_published_idx").on(t.publishedAt.desc()),
    check("articles_kind_valid", sql`${t.kind} in ('article', 'interview', 'programme')`),
  ],
);

/** Route rules (SPEC.md §2): a request for `path` is redirected to `target`. */
export const redirectRules = pgTable(
  "redirect_rules",
  {
    id: id(),
    path: text("path").notNull().unique(),
    target: text("target").notNull(),
    statusCode: smallint("status_code").notNull().default(302),
    enabled: boolean("enabled").notNull().default(true),
    /**
     * The rule also covers every path under its source, which keeps its
     * remainder and query string (/salons/old/confirm?menu=x →
     * /salons/new/confirm?menu=x): set on a salon's slug redirect (decision 0017).
     */
    includeSubpaths: boolean("include_subpaths").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("redirect_rules_status_valid", sql`${t.statusCode} in (301, 302)`),
    check("redirect_rules_path_absolute", sql`${t.path} like '/%'`),
  ],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: id(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    category: text("category").$type<(typeof contactCategories)[number]>().notNull(),
    body: text("body").notNull(),
    userAgent: text("user_agent").notNull().default(""),
    handled: boolean("handled").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "contact_messages_category_valid",
      sql`${t.category} in ('booking', 'account', 'salon', 'press', 'other')`,
    ),
  ],
);

/** What administrators changed, for accountability. */
export const auditLogs = pgTable(
  "audit_logs",
  {
    id: id(),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_logs_target_idx").on(t.targetType, t.targetId, t.createdAt.desc()),
    // The foreign key's other side: deleting an account sets its entries' actor to null.
    index("audit_logs_actor_idx").on(t.actorUserId).where(sql`${t.actorUserId} is not null`),
  ],
);
