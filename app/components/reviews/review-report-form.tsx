import { Form, Link } from "react-router";
import { formatDate } from "../../../common/format";
import { REVIEW_REPORT_NOTE_MAX, reviewReportReasonLabels } from "../../../common/reviews";
import { linkClass, Notice, SubmitButton } from "../accounts/account-frame";
import { ErrorSummary, TextAreaField } from "../form/field";
import { Stars } from "./salon-review";

/**
 * 口コミを通報する (/reviews/:reviewId/report; issue 30, point 2): the review
 * quoted, the reason as a radio group and an optional note; a thanks notice
 * after sending. One's own review, or one already reported, gets a message
 * instead of the form.
 */

export type ReportedReview = {
  id: string;
  rating: number;
  title: string;
  body: string;
  authorLabel: string;
  visitedOn: string;
  salon: { name: string; slug: string };
  own: boolean;
  alreadyReported: boolean;
};

export type ReviewReportResult = {
  errors: Partial<Record<"reason" | "note" | "form", string>>;
  values: { reason: string; note: string };
};

const reasons = Object.entries(reviewReportReasonLabels);

function QuotedReview({ review }: { review: ReportedReview }) {
  return (
    <figure className="rounded-lg border border-neutral-300 p-4">
      <blockquote className="flex flex-col gap-1">
        <p>
          <Stars rating={review.rating} />
        </p>
        {review.title ? <p className="font-bold">{review.title}</p> : null}
        <p className="whitespace-pre-line break-words">{review.body}</p>
      </blockquote>
      <figcaption className="mt-2 text-sm text-neutral-700">
        {review.authorLabel}・{formatDate(review.visitedOn)}来店・
        <Link to={`/salons/${review.salon.slug}`} className={linkClass}>
          {review.salon.name}
        </Link>
      </figcaption>
    </figure>
  );
}

export function ReviewReportForm({
  review,
  sent,
  result,
  busy,
}: {
  review: ReportedReview;
  sent: boolean;
  result?: ReviewReportResult;
  busy: boolean;
}) {
  const errors = result?.errors ?? {};
  const values = result?.values ?? { reason: "", note: "" };
  const back = `/salons/${review.salon.slug}/reviews`;
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8">
      <h1 id="report-heading" className="text-2xl font-bold">
        口コミを通報する
      </h1>
      {sent ? (
        <div id="report-sent" tabIndex={-1}>
          <Notice>
            通報を受け付けました。ご協力ありがとうございます。内容を確認し、利用規約に反する口コミは非表示にします（結果のご連絡はしていません）。
          </Notice>
        </div>
      ) : null}
      <QuotedReview review={review} />
      {sent ? null : review.own ? (
        <p className="rounded-lg bg-neutral-100 p-4">ご自身の口コミは通報できません。</p>
      ) : review.alreadyReported ? (
        <p className="rounded-lg bg-neutral-100 p-4">この口コミはすでに通報済みです。</p>
      ) : (
        <Form
          method="post"
          noValidate
          className="flex flex-col gap-5"
          aria-labelledby="report-heading"
        >
          <ErrorSummary errors={errors} />
          <fieldset
            className="flex flex-col gap-2"
            aria-describedby={errors.reason ? "report-reason-error" : undefined}
          >
            <legend className="font-bold">
              通報の理由
              <span className="ml-2 rounded bg-brand-700 px-1.5 py-0.5 text-xs text-white">
                必須
              </span>
            </legend>
            {reasons.map(([value, label]) => (
              <label key={value} className="flex min-h-11 items-center gap-2">
                <input
                  type="radio"
                  name="reason"
                  value={value}
                  defaultChecked={values.reason === value}
                  required
                />
                {label}
              </label>
            ))}
            {errors.reason ? (
              <p id="report-reason-error" className="text-sm font-bold text-red-700">
                {errors.reason}
              </p>
            ) : null}
          </fieldset>
          <TextAreaField
            id="report-note"
            name="note"
            label="補足（任意）"
            hint={`${REVIEW_REPORT_NOTE_MAX}文字以内。どこが問題か、わかる範囲でお書きください。`}
            rows={4}
            defaultValue={values.note}
            error={errors.note}
          />
          <SubmitButton busy={busy}>通報する</SubmitButton>
        </Form>
      )}
      <p>
        <Link to={back} className={linkClass}>
          {review.salon.name}の口コミへ戻る
        </Link>
      </p>
    </div>
  );
}
