import { and, asc, eq, sql } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import {
  REVIEW_AUTHOR_FALLBACK,
  type ReviewAction,
  reviewActionFor,
  reviewEditClosesAt,
  reviewWriteClosesAt,
} from "../../common/reviews";
import { isUuid } from "../../common/uuid";
import { findProfile } from "../accounts/profile";
import type { RateLimits } from "../accounts/rate-limit";
import type { Database } from "../db/client";
import { bookingMenus, bookings, reviewReports, reviews, salons, staff } from "../db/schema";
import { DomainError, NotFoundError } from "../errors/domain-error";
import { recomputeSalonDerived } from "../salons/derived.server";
import { emitWebhookEvent, reviewWebhookData } from "../webhooks/outbox.server";
import type { ReviewInput, ReviewReportInput } from "./review.schema";

/**
 * The customer's side of verified reviews (issue 30, points 1, 2 and 6;
 * decision 0054): who may write (the booking's own customer, a completed
 * visit, within REVIEW_WRITE_DAYS of it, once), editing (REVIEW_EDIT_DAYS
 * after writing, under the version check) and reporting someone's review.
 * Every write recomputes the salon's derived rating in its own transaction.
 */

type Review = typeof reviews.$inferSelect;

export class ReviewVisitNotFoundError extends NotFoundError {
  constructor() {
    super("ご予約が見つかりません。");
  }
}

export class ReviewNotFoundError extends NotFoundError {
  constructor() {
    super("口コミが見つかりません。");
  }
}

/** The visit exists and is the customer's, but cannot be reviewed (now, or at all). */
export class ReviewNotAllowedError extends DomainError {
  constructor(message: string, code = "review_not_allowed") {
    super(code, message, 422);
  }
}

export class ReviewConflictError extends DomainError {
  constructor(code: "review_exists" | "review_changed" | "already_reported", message: string) {
    super(code, message, 409);
  }
}

export class TooManyReviewAttemptsError extends DomainError {
  constructor(readonly retryAfter: number) {
    super(
      "too_many_requests",
      `短時間に多くの操作がありました。${retryAfter}秒ほど待ってから、もう一度お試しください。`,
      429,
      { retryAfter },
    );
  }
}

export type ReviewLimitedAction = "review-write" | "review-edit" | "review-report";

/**
 * Counts one attempt per client address and per account in the shared
 * counter store (the pattern of booking-rate-limit.ts), so one account or
 * one address cannot flood a salon's page or the moderators' queue.
 */
export async function limitReviewAttempt(
  limits: RateLimits,
  action: ReviewLimitedAction,
  who: { ip: string; userId: string },
) {
  const rule = { window: limits.window, max: limits.perIp };
  const byIp = await limits.store.consume(`${action}:ip:${who.ip}`, rule);
  if (!byIp.allowed) throw new TooManyReviewAttemptsError(byIp.retryAfter ?? limits.window);
  const byAccount = await limits.store.consume(`${action}:user:${who.userId}`, {
    window: limits.window,
    max: limits.perAccount,
  });
  if (!byAccount.allowed) {
    throw new TooManyReviewAttemptsError(byAccount.retryAfter ?? limits.window);
  }
}

/** Age bands as the demo reviews read them (server/db/seed/data/salon-copy.ts). */
function ageBand(age: number): string | null {
  if (age < 10) return null;
  if (age < 20) return "10代";
  if (age < 30) return age < 25 ? "20代前半" : "20代後半";
  if (age < 40) return age < 35 ? "30代前半" : "30代後半";
  if (age < 60) return age < 50 ? "40代" : "50代";
  return "60代以上";
}

function ageOn(birthDate: string, on: string): number {
  const [by = 0, bm = 0, bd = 0] = birthDate.split("-").map(Number);
  const [y = 0, m = 0, d = 0] = on.split("-").map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * 「30代前半・女性」 from the profile, on the visit's date: the age band and
 * the gender where the customer gave them, 「お客様」 when neither.
 */
export function authorLabelOf(
  profile: { gender: string; birthDate: string | null } | null,
  visitedOn: string,
): string {
  const parts = [
    profile?.birthDate ? ageBand(ageOn(profile.birthDate, visitedOn)) : null,
    profile?.gender === "female" ? "女性" : profile?.gender === "male" ? "男性" : null,
  ].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join("・") : REVIEW_AUTHOR_FALLBACK;
}

export type ReviewVisit = {
  bookingId: string;
  bookingNumber: string;
  salonId: string;
  salon: { name: string; slug: string; timeZone: string };
  staffId: string;
  staffName: string;
  startsAt: Date;
  endsAt: Date;
  /** YYYY-MM-DD in the salon's zone. */
  visitedOn: string;
  menus: string[];
  status: string;
};

export type ReviewEligibility = {
  visit: ReviewVisit;
  review: Review | null;
  action: ReviewAction;
  /** Until when a review can be written (for the page's wording). */
  writeClosesAt: Date;
  /** Until when the review can be edited, once written. */
  editClosesAt: Date | null;
};

/** The visit of one booking of this customer, with its review; 404 for anyone else's. */
async function loadVisit(
  db: Database,
  input: { userId: string; bookingId: string; lock?: boolean },
): Promise<{ visit: ReviewVisit; kind: string } | null> {
  if (!isUuid(input.bookingId)) return null;
  const query = db
    .select({
      booking: {
        id: bookings.id,
        bookingNumber: bookings.bookingNumber,
        salonId: bookings.salonId,
        staffId: bookings.staffId,
        startsAt: bookings.startsAt,
        endsAt: bookings.endsAt,
        status: bookings.status,
        kind: bookings.kind,
      },
      salonName: salons.name,
      salonSlug: salons.slug,
      timeZone: salons.timeZone,
      staffName: staff.name,
    })
    .from(bookings)
    .innerJoin(salons, eq(salons.id, bookings.salonId))
    .innerJoin(staff, eq(staff.id, bookings.staffId))
    .where(and(eq(bookings.id, input.bookingId), eq(bookings.userId, input.userId)));
  // Two saves of one visit's review take turns on its booking row.
  const [row] = input.lock ? await query.for("update", { of: bookings }) : await query;
  if (!row || row.booking.status === "held") return null;
  const menus = await db
    .select({ name: bookingMenus.name })
    .from(bookingMenus)
    .where(
      and(
        eq(bookingMenus.bookingId, row.booking.id),
        eq(bookingMenus.salonId, row.booking.salonId),
      ),
    )
    .orderBy(asc(bookingMenus.position));
  const { booking } = row;
  return {
    kind: booking.kind,
    visit: {
      bookingId: booking.id,
      bookingNumber: booking.bookingNumber,
      salonId: booking.salonId,
      salon: { name: row.salonName, slug: row.salonSlug, timeZone: row.timeZone },
      staffId: booking.staffId,
      staffName: row.staffName,
      startsAt: booking.startsAt,
      endsAt: booking.endsAt,
      visitedOn: toLocal(booking.startsAt, row.timeZone).date,
      menus: menus.map((menu) => menu.name),
      status: booking.status,
    },
  };
}

async function reviewOfBooking(db: Database, bookingId: string): Promise<Review | null> {
  const [row] = await db.select().from(reviews).where(eq(reviews.bookingId, bookingId));
  return row ?? null;
}

/**
 * What this customer may do about this booking's review now. Someone else's
 * booking, a hold, or a missing one: 404 (never "it exists but is not yours").
 */
export async function eligibility(
  db: Database,
  input: { userId: string; bookingId: string; now: Date; lock?: boolean },
): Promise<ReviewEligibility> {
  const loaded = await loadVisit(db, input);
  if (!loaded) throw new ReviewVisitNotFoundError();
  const { visit, kind } = loaded;
  const review = await reviewOfBooking(db, visit.bookingId);
  return {
    visit,
    review,
    action: reviewActionFor(
      { status: visit.status, kind, startsAt: visit.startsAt, timeZone: visit.salon.timeZone },
      review,
      input.now,
    ),
    writeClosesAt: reviewWriteClosesAt(visit.startsAt, visit.salon.timeZone),
    editClosesAt: review ? reviewEditClosesAt(review.createdAt) : null,
  };
}

/** Why this visit cannot be reviewed, in words the customer can act on. */
function refusal(state: ReviewEligibility): ReviewNotAllowedError {
  if (state.visit.status !== "completed") {
    return new ReviewNotAllowedError(
      "口コミは、施術が完了したご予約について投稿できます。",
      "review_not_completed",
    );
  }
  return new ReviewNotAllowedError(
    "口コミを投稿できる期間（ご来店から30日間）を過ぎています。",
    "review_window_closed",
  );
}

type SaveInput = {
  userId: string;
  bookingId: string;
  input: ReviewInput;
  now: Date;
  limits: RateLimits;
  ip: string;
};

const ratingColumns = (input: ReviewInput) => ({
  rating: input.rating,
  ratingAtmosphere: input.ratingAtmosphere,
  ratingService: input.ratingService,
  ratingTechnique: input.ratingTechnique,
  ratingFinish: input.ratingFinish,
  title: input.title,
  body: input.body,
});

/**
 * Writes the visit's review, or edits it when there is one (the API's PUT
 * and the page's form alike). A first write carries no version; an edit
 * carries the version the customer saw. Two writes at once: the booking row
 * lock makes them take turns and the unique booking_id stands behind it, so
 * the second meets the first's review and gets 409.
 */
export async function saveReview(
  db: Database,
  save: SaveInput,
): Promise<{ review: Review; created: boolean }> {
  // An edit and a first write are counted apart: correcting a typo is not flooding.
  const existing = isUuid(save.bookingId) ? await reviewOfBooking(db, save.bookingId) : null;
  await limitReviewAttempt(save.limits, existing ? "review-edit" : "review-write", {
    ip: save.ip,
    userId: save.userId,
  });
  return db.transaction(async (tx) => {
    const state = await eligibility(tx, { ...save, lock: true });
    if (!state.review) return { review: await writeReview(tx, state, save), created: true };
    return { review: await editReview(tx, state, state.review, save), created: false };
  });
}

async function writeReview(tx: Database, state: ReviewEligibility, save: SaveInput) {
  if (state.action !== "write") throw refusal(state);
  if (save.input.version !== undefined) {
    // The page was opened to edit a review that no longer exists (deleted with its booking).
    throw new ReviewConflictError(
      "review_changed",
      "口コミの状態が変わりました。画面を読み込み直してください。",
    );
  }
  const { visit } = state;
  const profile = await findProfile(tx, save.userId);
  const [created] = await tx
    .insert(reviews)
    .values({
      salonId: visit.salonId,
      userId: save.userId,
      bookingId: visit.bookingId,
      staffId: visit.staffId,
      authorLabel: authorLabelOf(profile, visit.visitedOn),
      visitedOn: visit.visitedOn,
      ...ratingColumns(save.input),
      createdAt: save.now,
      updatedAt: save.now,
    })
    .onConflictDoNothing({ target: reviews.bookingId })
    .returning();
  if (!created) throw alreadyWritten();
  await recomputeSalonDerived(tx, visit.salonId);
  // The salon's webhooks hear of it with the review (decision 0086).
  await emitWebhookEvent(tx, {
    salonId: visit.salonId,
    type: "review.posted",
    at: save.now,
    data: async () => reviewWebhookData(created),
  });
  return created;
}

const alreadyWritten = () =>
  new ReviewConflictError(
    "review_exists",
    "このご予約の口コミはすでに投稿されています。内容を変えるときは、口コミを編集してください。",
  );

async function editReview(tx: Database, state: ReviewEligibility, review: Review, save: SaveInput) {
  if (save.input.version === undefined) throw alreadyWritten();
  if (state.action !== "edit") {
    throw new ReviewNotAllowedError(
      "口コミを編集できる期間（投稿から30日間）を過ぎています。",
      "review_edit_closed",
    );
  }
  const [edited] = await tx
    .update(reviews)
    .set({
      ...ratingColumns(save.input),
      version: sql`${reviews.version} + 1`,
      updatedAt: save.now,
    })
    .where(and(eq(reviews.id, review.id), eq(reviews.version, save.input.version)))
    .returning();
  if (!edited) {
    throw new ReviewConflictError(
      "review_changed",
      "この口コミは別の画面で変更されました。画面を読み込み直してから、もう一度お試しください。",
    );
  }
  // A hidden review stays out of the average; recomputing is harmless either way.
  await recomputeSalonDerived(tx, review.salonId);
  return edited;
}

/** A review as the report page quotes it; hidden or missing: 404. */
export async function reviewToReport(db: Database, input: { reviewId: string; userId: string }) {
  if (!isUuid(input.reviewId)) throw new ReviewNotFoundError();
  const [row] = await db
    .select({
      id: reviews.id,
      userId: reviews.userId,
      rating: reviews.rating,
      title: reviews.title,
      body: reviews.body,
      authorLabel: reviews.authorLabel,
      visitedOn: reviews.visitedOn,
      hiddenAt: reviews.hiddenAt,
      salonName: salons.name,
      salonSlug: salons.slug,
      salonStatus: salons.status,
      reportedAt: reviewReports.createdAt,
    })
    .from(reviews)
    .innerJoin(salons, eq(salons.id, reviews.salonId))
    .leftJoin(
      reviewReports,
      and(eq(reviewReports.reviewId, reviews.id), eq(reviewReports.userId, input.userId)),
    )
    .where(eq(reviews.id, input.reviewId));
  if (!row || row.hiddenAt || row.salonStatus !== "published") throw new ReviewNotFoundError();
  return {
    id: row.id,
    rating: row.rating,
    title: row.title,
    body: row.body,
    authorLabel: row.authorLabel,
    visitedOn: row.visitedOn,
    salon: { name: row.salonName, slug: row.salonSlug },
    own: row.userId === input.userId,
    alreadyReported: row.reportedAt !== null,
  };
}

/**
 * A signed-in person's report of a shown review: one per person and review
 * (the unique pair decides, also for two at once), never of one's own.
 */
export async function reportReview(
  db: Database,
  input: {
    userId: string;
    reviewId: string;
    report: ReviewReportInput;
    now: Date;
    limits: RateLimits;
    ip: string;
  },
) {
  await limitReviewAttempt(input.limits, "review-report", input);
  const review = await reviewToReport(db, input);
  if (review.own) {
    throw new ReviewNotAllowedError("ご自身の口コミは通報できません。", "own_review");
  }
  const [created] = await db
    .insert(reviewReports)
    .values({
      reviewId: review.id,
      userId: input.userId,
      reason: input.report.reason,
      note: input.report.note,
      createdAt: input.now,
    })
    .onConflictDoNothing({ target: [reviewReports.reviewId, reviewReports.userId] })
    .returning();
  if (!created) {
    throw new ReviewConflictError("already_reported", "この口コミはすでに通報済みです。");
  }
  return created;
}
