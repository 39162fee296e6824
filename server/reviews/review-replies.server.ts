import { and, count, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { formatDate, formatDateTime } from "../../common/format";
import { REVIEWS_PER_PAGE, reviewAspects } from "../../common/reviews";
import type { Database } from "../db/client";
import { reviews, staff } from "../db/schema";
import { DomainError, NotFoundError } from "../errors/domain-error";
import { visitMenusOf } from "./review-list.server";
import type { OwnerReviewFilter, ReviewReplyInput } from "./review-reply.schema";
import { enqueueReviewReplyNotice } from "./review-reply-jobs.server";

/**
 * The salon's side of its reviews (issue 30, point 2; decision 0056): the
 * back office's list, newest first, with the unanswered ones countable and
 * filterable, and the one reply per review (「サロンからの返信」). The first
 * save sets replied_at, a later one edits the same reply (reply_updated_at);
 * both are checked against the review's version, so two people answering
 * at once cannot overwrite each other unseen. A reply changes no rating,
 * so the salon's derived average is left alone.
 */

export type OwnerReviewAspect = { key: string; label: string; value: number };

export type OwnerReview = {
  id: string;
  rating: number;
  /** Only the aspects the customer rated, in Hot Pepper Beauty's order. */
  aspects: OwnerReviewAspect[];
  title: string;
  body: string;
  authorLabel: string;
  /** YYYY-MM-DD and 2026年11月23日(月). */
  visitedOn: string;
  visitedLabel: string;
  /** ISO instant and 2026年11月23日(月) 10:05. */
  writtenAt: string;
  writtenLabel: string;
  staffName: string | null;
  /** The visit's menus (as booked), in the booking's order. */
  menus: string[];
  /** Every review stands on a completed booking (booking_id is required): 来店済み. */
  visited: true;
  /** An administrator hid it: not on the salon page nor in the average (非表示). */
  hidden: boolean;
  reply: {
    body: string;
    repliedAt: string;
    repliedLabel: string;
    updatedAt: string | null;
    updatedLabel: string | null;
  } | null;
  /** Sent back with a reply, refused (409) when someone changed the review meanwhile. */
  version: number;
};

export type OwnerReviewList = {
  reviews: OwnerReview[];
  filter: OwnerReviewFilter;
  page: number;
  perPage: number;
  /** Reviews that match the filter (for the paging). */
  total: number;
  /** Every review of the salon, hidden ones included. */
  allCount: number;
  /** Shown reviews without a reply yet. */
  unansweredCount: number;
};

/** The salon's reviews waiting for an answer: shown, no reply (a hidden one needs none). */
const unanswered = and(isNull(reviews.replyBody), isNull(reviews.hiddenAt));

/** One page of the salon's reviews for the back office and GET /api/owner/…/reviews. */
export async function listReviewsForSalon(
  db: Database,
  salonId: string,
  options: { filter: OwnerReviewFilter; page: number },
): Promise<OwnerReviewList> {
  const { filter, page } = options;
  const where = filter === "unanswered" ? unanswered : undefined;
  const [rows, [counts]] = await Promise.all([
    ownerReviews(db, salonId, where, (page - 1) * REVIEWS_PER_PAGE),
    db
      .select({
        all: count(),
        unanswered: sql<number>`count(*) filter (where ${unanswered})`.mapWith(Number),
      })
      .from(reviews)
      .where(eq(reviews.salonId, salonId)),
  ]);
  const allCount = counts?.all ?? 0;
  const unansweredCount = counts?.unanswered ?? 0;
  return {
    reviews: rows,
    filter,
    page,
    perPage: REVIEWS_PER_PAGE,
    total: filter === "unanswered" ? unansweredCount : allCount,
    allCount,
    unansweredCount,
  };
}

/** What the back office selects of a review (the salon's list and the moderation queue). */
export const reviewColumns = {
  id: reviews.id,
  bookingId: reviews.bookingId,
  rating: reviews.rating,
  ratingAtmosphere: reviews.ratingAtmosphere,
  ratingService: reviews.ratingService,
  ratingTechnique: reviews.ratingTechnique,
  ratingFinish: reviews.ratingFinish,
  title: reviews.title,
  body: reviews.body,
  authorLabel: reviews.authorLabel,
  visitedOn: reviews.visitedOn,
  createdAt: reviews.createdAt,
  staffName: staff.name,
  replyBody: reviews.replyBody,
  repliedAt: reviews.repliedAt,
  replyUpdatedAt: reviews.replyUpdatedAt,
  hiddenAt: reviews.hiddenAt,
  version: reviews.version,
};

type ReviewRow = {
  bookingId: string;
  id: string;
  rating: number;
  ratingAtmosphere: number | null;
  ratingService: number | null;
  ratingTechnique: number | null;
  ratingFinish: number | null;
  title: string;
  body: string;
  authorLabel: string;
  visitedOn: string;
  createdAt: Date;
  staffName: string | null;
  replyBody: string | null;
  repliedAt: Date | null;
  replyUpdatedAt: Date | null;
  hiddenAt: Date | null;
};

/** A review's row as the back office shows it, with the visit's menus. */
export function reviewFacts(row: ReviewRow, menus: Map<string, readonly { name: string }[]>) {
  return {
    id: row.id,
    rating: row.rating,
    aspects: reviewAspects.flatMap(({ key, label }) => {
      const value = row[key];
      return value === null ? [] : [{ key, label, value }];
    }),
    title: row.title,
    body: row.body,
    authorLabel: row.authorLabel,
    visitedOn: row.visitedOn,
    visitedLabel: formatDate(row.visitedOn),
    writtenAt: row.createdAt.toISOString(),
    writtenLabel: formatDateTime(row.createdAt),
    staffName: row.staffName,
    menus: (menus.get(row.bookingId) ?? []).map((menu) => menu.name),
    visited: true as const,
    hidden: row.hiddenAt !== null,
    reply:
      row.replyBody !== null && row.repliedAt !== null
        ? {
            body: row.replyBody,
            repliedAt: row.repliedAt.toISOString(),
            repliedLabel: formatDateTime(row.repliedAt),
            updatedAt: row.replyUpdatedAt?.toISOString() ?? null,
            updatedLabel: row.replyUpdatedAt ? formatDateTime(row.replyUpdatedAt) : null,
          }
        : null,
  };
}

/** One review of the salon as the list shows it, or null (none, or another salon's). */
export async function reviewForSalon(
  db: Database,
  salonId: string,
  reviewId: string,
): Promise<OwnerReview | null> {
  const [review] = await ownerReviews(db, salonId, eq(reviews.id, reviewId), 0);
  return review ?? null;
}

/** The list's rows with their visit's menus, newest first, one page from `offset`. */
async function ownerReviews(
  db: Database,
  salonId: string,
  where: SQL | undefined,
  offset: number,
): Promise<OwnerReview[]> {
  const rows = await db
    .select(reviewColumns)
    .from(reviews)
    .leftJoin(staff, eq(staff.id, reviews.staffId))
    .where(and(eq(reviews.salonId, salonId), where))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEWS_PER_PAGE)
    .offset(offset);
  const menus = await visitMenusOf(
    db,
    rows.map((row) => ({ salonId, bookingId: row.bookingId })),
  );
  return rows.map((row) => ({ ...reviewFacts(row, menus), version: row.version }));
}

export const reviewMissing = () =>
  new NotFoundError("この口コミは見つかりません（削除されたか、別のサロンの口コミです）。");

export const reviewChanged = () =>
  new DomainError(
    "version_conflict",
    "ほかの人がこの口コミか返信を変更しました。画面を読み込み直して、最新の内容を確認してください。",
    409,
  );

export type ReplyOutcome = {
  reviewId: string;
  /** The first reply (replied_at set now), not an edit of an earlier one. */
  first: boolean;
  version: number;
};

/**
 * Saves the salon's reply to one of its reviews. One statement writes it
 * only if the review is this salon's, shown, and still at the version the
 * page read; otherwise a read says which of those failed (404 for another
 * salon's review, as if it did not exist).
 */
export async function replyToReview(
  db: Database,
  input: {
    salonId: string;
    reviewId: string;
    body: string;
    version: number;
    actor: { id: string };
    now: Date;
  },
): Promise<ReplyOutcome> {
  const { salonId, reviewId, now } = input;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [saved] = await tx
      .update(reviews)
      .set({
        replyBody: input.body,
        replyBy: input.actor.id,
        repliedAt: sql`coalesce(${reviews.repliedAt}, ${now.toISOString()}::timestamptz)`,
        replyUpdatedAt: sql`case when ${reviews.repliedAt} is null then null else ${now.toISOString()}::timestamptz end`,
        version: sql`${reviews.version} + 1`,
        updatedAt: now,
      })
      .where(
        and(
          eq(reviews.id, reviewId),
          eq(reviews.salonId, salonId),
          eq(reviews.version, input.version),
          isNull(reviews.hiddenAt),
        ),
      )
      .returning({ version: reviews.version, replyUpdatedAt: reviews.replyUpdatedAt });
    if (saved) {
      const first = saved.replyUpdatedAt === null;
      // The reviewer hears of the first reply only; its dedupe key keeps it to one mail.
      if (first) await enqueueReviewReplyNotice(tx, { id: reviewId, salonId }, now);
      return { reviewId, first, version: saved.version };
    }
    const [current] = await tx
      .select({ hiddenAt: reviews.hiddenAt })
      .from(reviews)
      .where(and(eq(reviews.id, reviewId), eq(reviews.salonId, salonId)));
    if (!current) throw reviewMissing();
    if (current.hiddenAt) {
      throw new DomainError(
        "review_hidden",
        "この口コミは運営が非表示にしたため、返信できません。",
        409,
      );
    }
    throw reviewChanged();
  });
}

/** replyToReview with the form's or body's parsed input. */
export function saveReply(
  db: Database,
  access: { salon: { id: string }; user: { id: string } },
  input: ReviewReplyInput,
  now: Date,
) {
  return replyToReview(db, {
    salonId: access.salon.id,
    reviewId: input.reviewId,
    body: input.body,
    version: input.version,
    actor: { id: access.user.id },
    now,
  });
}
