import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, id } from "./common";

/**
 * A file sent with a mail (the booking mails' .ics). Text only: the
 * calendar files are text, and jsonb keeps them readable in /dev/mailbox.
 */
export type MailAttachment = {
  filename: string;
  /** With parameters, e.g. "text/calendar; charset=utf-8; method=REQUEST". */
  contentType: string;
  content: string;
};

/**
 * Mails written instead of sent when no SMTP server is configured, so a
 * fresh machine can finish sign-up through /dev/mailbox.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    to: text("to").notNull(),
    from: text("from").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    attachments: jsonb("attachments").$type<MailAttachment[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_to_idx").on(t.to, t.createdAt)],
);

/**
 * Rate-limit counters when REDIS_URL is unset: one row per key (action, IP
 * or account), a fixed window that restarts when it has passed. Shared by
 * every app server on the same database.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
});
