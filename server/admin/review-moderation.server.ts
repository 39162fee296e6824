import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  min,
  type SQL,
} from "drizzle-orm";
import { formatDateTime } from "../../common/format";
import { reviewReportReasonLabels } from "../../common/reviews";
import { type AuditAction, recordAudit } from "../audit/audit";
import { notifyPublicPagesChanged } from "../cache/invalidation";
import type { Database } from "../db/client";
import { reviewReports, reviews, salons, staff, users } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { visitMenusOf } from "../reviews/review-list.server";
import {
  reviewChanged,
  reviewColumns,
  reviewFacts,
  reviewMissing,
} from "../reviews/review-replies.server";
import type { ModerationIntent, ModerationQuery } from "../reviews/review-reply.schema";
import { recomputeSalonDerived } from "../salons/derived.server";

/**
 * The administrator's moderation of reviews (issue 30, point 2; decision
 * 0056). Signed-in people report a review (review_reports); the queue shows
 * each reported review once with its open reports, oldest report first.
 * The administrator hides it (off the salon page and out of the average),
 * restores a hidden one, or keeps it (問題なし): each with a note, each
 * resolving the review's open reports, each audited with who and why, and
 * hiding and restoring recompute the salon's derived rating in the same
 * transaction, so search never sorts by an average that counts a hidden
 * review. Version-checked: a decision made on a stale screen is refused.
 */

export const MODERATION_PER_PAGE = 20;

export type ModerationReport = {
  id: string;
  reason: string;
  reasonLabel: string;
  note: string;
  reportedLabel: string;
  resolved: boolean;
};

export type ModerationReview = ReturnType<typeof reviewFacts> & {
  salon: { id: string; name: string; slug: string };
  hiddenLabel: string | null;
  hiddenNote: string;
  hiddenByName: string | null;
  reports: ModerationReport[];
  openReportCount: number;
  version: number;
};

export type ModerationList = {
  view: ModerationQuery["view"];
  q: string;
  page: number;
  perPage: number;
  total: number;
  /** Reviews with at least one open report (the queue's length), whatever the view. */
  reportedCount: number;
  reviews: ModerationReview[];
};

const openReports = isNull(reviewReports.resolvedAt);

/** `%` and `_` typed into the salon search are letters, not patterns. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the moderation list: the reported queue (open reports,
 * oldest first), the hidden reviews (newest hidden first), or every review
 * of salons whose name contains `q`; `review` narrows it to that one review
 * (the audit log's link).
 */
export async function listModeration(
  db: Database,
  query: ModerationQuery,
): Promise<ModerationList> {
  const offset = (query.page - 1) * MODERATION_PER_PAGE;
  const [queueSize] = await db
    .select({ n: count() })
    .from(
      db
        .selectDistinct({ reviewId: reviewReports.reviewId })
        .from(reviewReports)
        .where(openReports)
        .as("reported"),
    );
  const reportedCount = queueSize?.n ?? 0;
  let ids: string[];
  let total: number;
  if (query.review) {
    ids = [query.review];
    total = 1;
  } else if (query.view === "reported") {
    const firstReport = min(reviewReports.createdAt);
    const rows = await db
      .select({ reviewId: reviewReports.reviewId })
      .from(reviewReports)
      .where(openReports)
      .groupBy(reviewReports.reviewId)
      .orderBy(asc(firstReport), asc(reviewReports.reviewId))
      .limit(MODERATION_PER_PAGE)
      .offset(offset);
    ids = rows.map((row) => row.reviewId);
    total = reportedCount;
  } else {
    const where: SQL | undefined =
      query.view === "hidden"
        ? isNotNull(reviews.hiddenAt)
        : query.q
          ? ilike(salons.name, likeText(query.q))
          : undefined;
    const order =
      query.view === "hidden"
        ? [desc(reviews.hiddenAt), desc(reviews.id)]
        : [desc(reviews.createdAt), desc(reviews.id)];
    const [rows, [counted]] = await Promise.all([
      db
        .select({ id: reviews.id })
        .from(reviews)
        .innerJoin(salons, eq(salons.id, reviews.salonId))
        .where(where)
        .orderBy(...order)
        .limit(MODERATION_PER_PAGE)
        .offset(offset),
      db
        .select({ n: count() })
        .from(reviews)
        .innerJoin(salons, eq(salons.id, reviews.salonId))
        .where(where),
    ]);
    ids = rows.map((row) => row.id);
    total = counted?.n ?? 0;
  }
  const found = await moderationReviews(db, ids);
  if (query.review && found.length === 0) total = 0;
  return {
    view: query.view,
    q: query.q,
    page: query.page,
    perPage: MODERATION_PER_PAGE,
    total,
    reportedCount,
    reviews: found,
  };
}

/** The reviews of `ids` in that order, with their salon, reports and who hid them. */
async function moderationReviews(db: Database, ids: string[]): Promise<ModerationReview[]> {
  if (ids.length === 0) return [];
  const [rows, reports] = await Promise.all([
    db
      .select({
        ...reviewColumns,
        salonId: reviews.salonId,
        salonName: salons.name,
        salonSlug: salons.slug,
        hiddenNote: reviews.hiddenNote,
        hiddenByName: users.name,
        hiddenByEmail: users.email,
      })
      .from(reviews)
      .innerJoin(salons, eq(salons.id, reviews.salonId))
      .leftJoin(staff, eq(staff.id, reviews.staffId))
      .leftJoin(users, eq(users.id, reviews.hiddenBy))
      .where(inArray(reviews.id, ids)),
    db
      .select({
        id: reviewReports.id,
        reviewId: reviewReports.reviewId,
        reason: reviewReports.reason,
        note: reviewReports.note,
        createdAt: reviewReports.createdAt,
        resolvedAt: reviewReports.resolvedAt,
      })
      .from(reviewReports)
      .where(inArray(reviewReports.reviewId, ids))
      .orderBy(asc(reviewReports.createdAt), asc(reviewReports.id)),
  ]);
  const menus = await visitMenusOf(
    db,
    rows.map((row) => ({ salonId: row.salonId, bookingId: row.bookingId })),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const own = reports
      .filter((report) => report.reviewId === id)
      .map((report) => ({
        id: report.id,
        reason: report.reason,
        reasonLabel: reviewReportReasonLabels[report.reason] ?? report.reason,
        note: report.note,
        reportedLabel: formatDateTime(report.createdAt),
        resolved: report.resolvedAt !== null,
      }));
    return [
      {
        ...reviewFacts(row, menus),
        salon: { id: row.salonId, name: row.salonName, slug: row.salonSlug },
        hiddenLabel: row.hiddenAt ? formatDateTime(row.hiddenAt) : null,
        hiddenNote: row.hiddenNote,
        hiddenByName: row.hiddenAt ? row.hiddenByName || row.hiddenByEmail || null : null,
        reports: own,
        openReportCount: own.filter((report) => !report.resolved).length,
        version: row.version,
      },
    ];
  });
}

export type ModerationOutcome = {
  reviewId: string;
  salonId: string;
  /** Open reports this decision resolved. */
  resolvedReports: number;
  version: number;
};

type Decision = {
  reviewId: string;
  note: string;
  version: number;
  actor: { id: string };
  now: Date;
};

const auditActionOf: Record<ModerationIntent, AuditAction> = {
  hide: "review.hide",
  restore: "review.restore",
  keep: "review.keep",
};

/** The one transaction behind the three decisions. */
export async function moderate(
  db: Database,
  intent: ModerationIntent,
  decision: Decision,
): Promise<ModerationOutcome> {
  const { reviewId, note, actor, now } = decision;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [review] = await tx
      .select({
        salonId: reviews.salonId,
        hiddenAt: reviews.hiddenAt,
        hiddenNote: reviews.hiddenNote,
        version: reviews.version,
      })
      .from(reviews)
      .where(eq(reviews.id, reviewId))
      .for("update");
    if (!review) throw reviewMissing();
    if (review.version !== decision.version) throw reviewChanged();
    if (intent === "hide" && review.hiddenAt) {
      throw new DomainError("already_hidden", "この口コミはすでに非表示です。", 409);
    }
    if (intent === "restore" && !review.hiddenAt) {
      throw new DomainError("not_hidden", "この口コミは非表示になっていません。", 409);
    }
    const resolved = await tx
      .update(reviewReports)
      .set({ resolvedAt: now })
      .where(and(eq(reviewReports.reviewId, reviewId), openReports))
      .returning({ id: reviewReports.id });
    if (intent === "keep" && resolved.length === 0) {
      throw new DomainError("no_open_reports", "この口コミに未対応の通報はありません。", 409);
    }
    // Every decision moves the version, 問題なし too: another administrator's
    // decision taken on the same screen is then refused (409), not applied on top.
    const hiding = intent === "hide";
    const [updated] = await tx
      .update(reviews)
      .set({
        ...(intent === "keep"
          ? {}
          : {
              hiddenAt: hiding ? now : null,
              hiddenBy: hiding ? actor.id : null,
              hiddenNote: hiding ? note : "",
            }),
        version: review.version + 1,
        updatedAt: now,
      })
      .where(eq(reviews.id, reviewId))
      .returning({ version: reviews.version });
    const version = updated?.version ?? review.version + 1;
    if (intent !== "keep") {
      // The average and count search reads, and the cached salon page, in this transaction.
      await recomputeSalonDerived(tx, review.salonId);
      await notifyPublicPagesChanged(tx);
    }
    await recordAudit(
      tx,
      {
        actorUserId: actor.id,
        action: auditActionOf[intent],
        targetType: "review",
        targetId: reviewId,
        salonId: review.salonId,
        before: {
          hidden: review.hiddenAt !== null,
          ...(review.hiddenAt ? { hiddenNote: review.hiddenNote } : {}),
        },
        after: {
          hidden: intent === "hide" || (intent === "keep" && review.hiddenAt !== null),
          note,
          resolvedReports: resolved.length,
        },
      },
      now,
    );
    return { reviewId, salonId: review.salonId, resolvedReports: resolved.length, version };
  });
}
