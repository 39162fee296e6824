import { formatDate, formatDateTime } from "../../common/format";
import { toLocal } from "../../common/local-time";
import { REVIEW_WRITE_DAYS } from "../../common/reviews";
import type { Database } from "../db/client";
import { eligibility } from "./reviews.server";

/**
 * /account/reviews/:bookingId as plain data (issue 30, point 1; decision
 * 0054): the visit (salon, date, stylist, menus), what may be done (write,
 * edit, only read) and the review's values. Someone else's booking is 404
 * (eligibility); a visit that cannot be reviewed gets a message, not a form.
 */
export type ReviewFormValues = {
  rating: string;
  ratingAtmosphere: string;
  ratingService: string;
  ratingTechnique: string;
  ratingFinish: string;
  title: string;
  body: string;
  version: string;
};

export async function reviewFormPage(
  db: Database,
  input: { userId: string; bookingId: string; now: Date },
) {
  const state = await eligibility(db, input);
  const { visit, review } = state;
  const start = toLocal(visit.startsAt, visit.salon.timeZone);
  const end = toLocal(visit.endsAt, visit.salon.timeZone);
  const rating = (value: number | null) => (value === null ? "" : String(value));
  const values: ReviewFormValues | null = review
    ? {
        rating: String(review.rating),
        ratingAtmosphere: rating(review.ratingAtmosphere),
        ratingService: rating(review.ratingService),
        ratingTechnique: rating(review.ratingTechnique),
        ratingFinish: rating(review.ratingFinish),
        title: review.title,
        body: review.body,
        version: String(review.version),
      }
    : null;
  return {
    bookingId: visit.bookingId,
    bookingNumber: visit.bookingNumber,
    salon: { name: visit.salon.name, slug: visit.salon.slug },
    visitLabel: `${formatDate(start.date)} ${start.time}〜${end.time}`,
    staffName: visit.staffName,
    menus: visit.menus,
    /** "write" | "edit" | "written" (read-only) | null (cannot be reviewed). */
    action: state.action,
    /** Why there is no form, in words; null when there is one or the review is shown. */
    closedMessage:
      state.action !== null
        ? null
        : visit.status !== "completed"
          ? "口コミは、施術が完了したご予約について投稿できます。ご来店後、サロンが施術完了を記録するとこのページから投稿できるようになります。"
          : `口コミを投稿できる期間（ご来店から${REVIEW_WRITE_DAYS}日間）を過ぎています。`,
    writeUntilLabel: formatDate(
      toLocal(new Date(state.writeClosesAt.getTime() - 1), visit.salon.timeZone).date,
    ),
    editUntilLabel: state.editClosesAt ? formatDateTime(state.editClosesAt) : null,
    values,
    hidden: review?.hiddenAt != null,
  };
}
export type ReviewFormPage = Awaited<ReturnType<typeof reviewFormPage>>;
