/**
 * What the review forms, pages and API share (issue 30, points 1–2;
 * decisions 0054 and 0056): limits, the windows, and the Japanese labels.
 */
import { addDays, LocalDay, toLocal } from "./local-time";

export const REVIEW_BODY_MIN = 10;
export const REVIEW_BODY_MAX = 1000;
/** A review's optional title (one line). */
export const REVIEW_TITLE_MAX = 50;
export const REVIEW_REPLY_MAX = 1000;
export const REVIEW_REPORT_NOTE_MAX = 500;
export const REVIEW_HIDE_NOTE_MAX = 500;
/** A completed visit can be reviewed for this many days after it. */
export const REVIEW_WRITE_DAYS = 30;
/** A review can be edited for this many days after it was written. */
export const REVIEW_EDIT_DAYS = 30;
/** Reviews per page on the salon's review list. */
export const REVIEWS_PER_PAGE = 10;

/** The optional aspect ratings, in Hot Pepper Beauty's order. */
export const reviewAspects = [
  { key: "ratingAtmosphere", label: "雰囲気" },
  { key: "ratingService", label: "接客" },
  { key: "ratingTechnique", label: "技術" },
  { key: "ratingFinish", label: "仕上がり" },
] as const;
export type ReviewAspectKey = (typeof reviewAspects)[number]["key"];

/** The report reasons' names; the reasons themselves are server/db/schema/reviews.ts's. */
export const reviewReportReasonLabels = {
  inappropriate: "不適切な表現がある",
  personal_info: "個人情報が書かれている",
  spam: "宣伝・スパム",
  not_a_visit: "来店に基づかない内容",
  other: "その他",
} as const;

/** The review list's orders (the salon page and GET /api/salons/{id}/reviews). */
export const reviewSorts = ["newest", "rating_high", "rating_low"] as const;
export type ReviewSort = (typeof reviewSorts)[number];
export const reviewSortLabels: Record<ReviewSort, string> = {
  newest: "新着順",
  rating_high: "評価の高い順",
  rating_low: "評価の低い順",
};

/** 4.25 → "4.3": averages are shown with one decimal. */
export const formatRating = (average: number) => (Math.round(average * 10) / 10).toFixed(1);

/** A review's author when the profile tells neither age nor gender. */
export const REVIEW_AUTHOR_FALLBACK = "お客様";

const DAY_MS = 86_400_000;

/**
 * The moment a visit stops being reviewable (decision 0054): the end of
 * the REVIEW_WRITE_DAYS-th day after the visit's local date in the salon's
 * zone, so a visit on 11月1日 can be reviewed through 12月1日 whatever its hour.
 */
export function reviewWriteClosesAt(visitStartsAt: Date, timeZone: string): Date {
  const visitDate = toLocal(visitStartsAt, timeZone).date;
  return new Date(new LocalDay(addDays(visitDate, REVIEW_WRITE_DAYS + 1), timeZone).instantMs(0));
}

/** The moment a review stops being editable: REVIEW_EDIT_DAYS × 24 h after it was written. */
export function reviewEditClosesAt(writtenAt: Date): Date {
  return new Date(writtenAt.getTime() + REVIEW_EDIT_DAYS * DAY_MS);
}

/**
 * What the customer may do about a completed visit's review: write one,
 * edit theirs, only read it (written, edit window closed), or nothing
 * (not completed, or the write window closed without a review).
 */
export type ReviewAction = "write" | "edit" | "written" | null;

export function reviewActionFor(
  visit: { status: string; kind?: string; startsAt: Date; timeZone: string },
  review: { createdAt: Date } | null,
  now: Date,
): ReviewAction {
  if (review)
    return now.getTime() < reviewEditClosesAt(review.createdAt).getTime() ? "edit" : "written";
  if (visit.status !== "completed" || (visit.kind !== undefined && visit.kind !== "booking"))
    return null;
  return now.getTime() < reviewWriteClosesAt(visit.startsAt, visit.timeZone).getTime()
    ? "write"
    : null;
}
