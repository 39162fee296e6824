/**
 * What the review forms, pages and API share (issue 30, points 1–2;
 * decisions 0054 and 0056): limits, the windows, and the Japanese labels.
 */
export const REVIEW_BODY_MIN = 10;
export const REVIEW_BODY_MAX = 1000;
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
