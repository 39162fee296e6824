import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { bookings } from "./bookings";
import { createdAt, id, sqlList, updatedAt } from "./common";
import type { MailAttachment } from "./mail";
import { salons } from "./salons";

/**
 * The kinds of message a visitor chooses a channel for (issue 41 §1). Receipts
 * and policy mails are not among them: they always go by mail.
 */
export const messageKinds = ["booking", "reminder", "waitlist", "review"] as const;
export type MessageKind = (typeof messageKinds)[number];

export const messageChannelChoices = ["mail", "line", "both"] as const;
export type MessageChannelChoice = (typeof messageChannelChoices)[number];

/**
 * A visitor's channel for one kind of message. No row: the default (LINE
 * when the account is linked to LINE and follows the official account, else
 * mail).
 */
export const messageChannels = pgTable(
  "message_channels",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<MessageKind>().notNull(),
    channel: text("channel").$type<MessageChannelChoice>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check("message_channels_kind_valid", sql`${t.kind} in (${sqlList(messageKinds)})`),
    check(
      "message_channels_channel_valid",
      sql`${t.channel} in (${sqlList(messageChannelChoices)})`,
    ),
  ],
);

/**
 * Whether a LINE user follows the official account, from the inbound
 * webhook's follow and unfollow events (by the event's own time, so a late
 * older event never overrides a newer one). A LINE user who unfollowed (or
 * blocked) is not pushed to: the mail goes instead.
 */
export const lineFollows = pgTable("line_follows", {
  lineUserId: text("line_user_id").primaryKey(),
  following: boolean("following").notNull(),
  /** The webhook event's timestamp. */
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
});

export const lineMessageStatuses = ["pending", "sent", "fell_back", "dropped"] as const;
export type LineMessageStatus = (typeof lineMessageStatuses)[number];

/** The mail sent instead when LINE fails past its retries (or the month's quota is spent). */
export type FallbackMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
};

/**
 * One push message to one LINE user, written in the transaction that decided
 * to send it (a booking job's), sent by the `line_push` job. Its id is the
 * `X-Line-Retry-Key` of every attempt, so LINE delivers it once however many
 * times we retry (a 409 answer means it was already accepted).
 */
export const lineMessages = pgTable(
  "line_messages",
  {
    id: id(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    lineUserId: text("line_user_id").notNull(),
    kind: text("kind").$type<MessageKind>().notNull(),
    salonId: uuid("salon_id").references(() => salons.id, { onDelete: "set null" }),
    bookingId: uuid("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    /** The Messaging API's message objects, as sent in the push request. */
    messages: jsonb("messages").$type<Record<string, unknown>[]>().notNull(),
    fallbackMail: jsonb("fallback_mail").$type<FallbackMail | null>(),
    status: text("status").$type<LineMessageStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check("line_messages_status_valid", sql`${t.status} in (${sqlList(lineMessageStatuses)})`),
    check("line_messages_kind_valid", sql`${t.kind} in (${sqlList(messageKinds)})`),
    index("line_messages_sent_idx").on(t.sentAt),
    index("line_messages_line_user_idx").on(t.lineUserId, t.createdAt),
    // The foreign keys' own: deleting a user, salon or booking finds its messages by index.
    index("line_messages_user_idx").on(t.userId),
    index("line_messages_salon_idx").on(t.salonId),
    index("line_messages_booking_idx").on(t.bookingId),
  ],
);
