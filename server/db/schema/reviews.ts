import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import type { reviewReportReasonLabels } from "../../../common/reviews";
import { users } from "./accounts";
import { bookings } from "./bookings";
import { createdAt, id, sqlList, updatedAt } from "./common";
import { salons } from "./salons";
import { staff } from "./staff";

/**
 * A verified review (issue 30, point 1; decision 0054): written by the
 * customer of one completed booking, one per booking (booking_id is unique
 * and required, so nothing on a salon page stands without a visit). The
 * four optional aspect ratings follow Hot Pepper Beauty's 雰囲気 / 接客 /
 * 技術 / 仕上がり. The salon answers once (reply_*, editable); an
 * administrator hides a review with a note (hidden_*), which drops it from
 * the page and from the salon's average. `version` is bumped by every
 * change (the customer's edit, the reply, hiding), for optimistic checks.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    /** The booking's customer; null for demo data written without an account. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    bookingId: uuid("booking_id")
      .notNull()
      .unique()
      .references(() => bookings.id, { onDelete: "cascade" }),
    /** The stylist of the visit (copied from the booking when written). */
    staffId: uuid("staff_id").references(() => staff.id, { onDelete: "set null" }),
    /** Shown instead of the account name, e.g. "20代後半・女性" or "ニックネーム". */
    authorLabel: text("author_label").notNull(),
    rating: smallint("rating").notNull(),
    ratingAtmosphere: smallint("rating_atmosphere"),
    ratingService: smallint("rating_service"),
    ratingTechnique: smallint("rating_technique"),
    ratingFinish: smallint("rating_finish"),
    title: text("title").notNull().default(""),
    body: text("body").notNull(),
    visitedOn: date("visited_on").notNull(),
    /** The salon's one reply (「サロンからの返信」); editable, so reply_updated_at. */
    replyBody: text("reply_body"),
    replyBy: text("reply_by").references(() => users.id, { onDelete: "set null" }),
    repliedAt: timestamp("replied_at", { withTimezone: true }),
    replyUpdatedAt: timestamp("reply_updated_at", { withTimezone: true }),
    /** Set while an administrator hides the review (with hidden_note, audited). */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenBy: text("hidden_by").references(() => users.id, { onDelete: "set null" }),
    hiddenNote: text("hidden_note").notNull().default(""),
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("reviews_salon_idx").on(t.salonId, t.createdAt.desc()),
    // The salon page sorts shown reviews by rating, then newest.
    index("reviews_salon_rating_idx")
      .on(t.salonId, t.rating.desc(), t.createdAt.desc())
      .where(sql`${t.hiddenAt} is null`),
    // Foreign keys' other side: deleting an account or a stylist sets these to null.
    index("reviews_user_idx").on(t.userId).where(sql`${t.userId} is not null`),
    index("reviews_staff_idx").on(t.staffId).where(sql`${t.staffId} is not null`),
    index("reviews_reply_by_idx").on(t.replyBy).where(sql`${t.replyBy} is not null`),
    index("reviews_hidden_by_idx").on(t.hiddenBy).where(sql`${t.hiddenBy} is not null`),
    check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
    check(
      "reviews_aspect_ratings_range",
      sql`coalesce(${t.ratingAtmosphere}, 1) between 1 and 5 and coalesce(${t.ratingService}, 1) between 1 and 5 and coalesce(${t.ratingTechnique}, 1) between 1 and 5 and coalesce(${t.ratingFinish}, 1) between 1 and 5`,
    ),
    check("reviews_body_length", sql`char_length(${t.body}) between 1 and 1000`),
    check(
      "reviews_reply_length",
      sql`${t.replyBody} is null or char_length(${t.replyBody}) between 1 and 1000`,
    ),
  ],
);

/** Why someone reports a review (通報の理由). */
export const reviewReportReasons = [
  "inappropriate",
  "personal_info",
  "spam",
  "not_a_visit",
  "other",
] as const;
export type ReviewReportReason = (typeof reviewReportReasons)[number];

/**
 * A signed-in person's report of a review (issue 30, point 2): one per
 * person and review; resolved when an administrator hides or keeps it.
 */
export const reviewReports = pgTable(
  "review_reports",
  {
    id: id(),
    reviewId: uuid("review_id")
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").$type<ReviewReportReason>().notNull(),
    note: text("note").notNull().default(""),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("review_reports_one_per_person").on(t.reviewId, t.userId),
    // The administrator's queue: open reports, oldest first.
    index("review_reports_open_idx").on(t.createdAt).where(sql`${t.resolvedAt} is null`),
    index("review_reports_user_idx").on(t.userId),
    check("review_reports_reason_valid", sql`${t.reason} in (${sqlList(reviewReportReasons)})`),
    check("review_reports_note_length", sql`char_length(${t.note}) <= 500`),
  ],
);

// The labels (common/reviews.ts) name every reason: a new reason cannot go unnamed.
reviewReportReasons satisfies readonly (keyof typeof reviewReportReasonLabels)[];
