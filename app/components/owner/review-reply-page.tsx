import { Form, Link, useNavigation } from "react-router";
import { REVIEW_REPLY_MAX } from "../../../common/reviews";
import type { OwnerReview } from "../../../server/reviews/review-replies.server";
import type {
  ReplyFormResult,
  ReviewReplyPageData,
} from "../../../server/reviews/review-reply-page.server";
import { buttonClass, ListCount } from "../back-office-ui";
import { ErrorSummary, TextAreaField } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { Pagination } from "../pagination";
import { BackOfficeReview } from "../reviews/back-office-review";
import { OwnerPage } from "./owner-frame";

/**
 * /owner/salons/{id}/reviews: the salon's reviews, newest first, each with
 * its reply form (返信する, or 返信を更新する once answered); 未返信のみ
 * narrows the list to those still waiting (decision 0056).
 */
export function ReviewReplyPage({
  data,
  result,
}: {
  data: ReviewReplyPageData;
  result?: ReplyFormResult;
}) {
  const { list } = data;
  const base = `/owner/salons/${data.salon.id}/reviews`;
  const hrefFor = (page: number) => {
    const query = new URLSearchParams();
    if (list.filter === "unanswered") query.set("filter", "unanswered");
    if (page > 1) query.set("page", String(page));
    const text = query.toString();
    return text ? `${base}?${text}` : base;
  };
  const filters = [
    { to: base, label: `すべて（${list.allCount}件）`, current: list.filter === "all" },
    {
      to: `${base}?filter=unanswered`,
      label: `未返信のみ（${list.unansweredCount}件）`,
      current: list.filter === "unanswered",
    },
  ];
  return (
    <OwnerPage title="口コミ">
      {data.notice && !result && !list.reviews.some((review) => review.id === data.answered) ? (
        <FocusedNotice>{data.notice}</FocusedNotice>
      ) : null}
      <p className="max-w-3xl text-sm">
        返信は口コミの下に「サロンからの返信」として公開されます。1件の口コミに返信は1つで、あとから更新できます。運営が非表示にした口コミは公開ページに出ず、評価の平均にも入りません。
      </p>
      <nav aria-label="口コミの絞り込み">
        <ul className="flex flex-wrap gap-2">
          {filters.map((filter) => (
            <li key={filter.to}>
              <Link
                to={filter.to}
                aria-current={filter.current ? "page" : undefined}
                className={`inline-block rounded-lg border px-3 py-2 font-bold ${
                  filter.current
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-neutral-400 hover:bg-neutral-100"
                }`}
              >
                {filter.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ListCount total={list.total} page={list.page} perPage={list.perPage} />
      {list.reviews.length === 0 ? (
        <p>
          {list.filter === "unanswered"
            ? "未返信の口コミはありません。"
            : "まだ口コミはありません。来店が完了したお客様にご案内のメールが届きます。"}
        </p>
      ) : (
        <ul className="flex flex-col gap-4">
          {list.reviews.map((review) => (
            <li key={review.id}>
              <BackOfficeReview review={review}>
                {data.notice && !result && review.id === data.answered ? (
                  <FocusedNotice>{data.notice}</FocusedNotice>
                ) : null}
                <ReplyForm
                  review={review}
                  result={result?.reviewId === review.id ? result : undefined}
                />
              </BackOfficeReview>
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={list.page}
        total={list.total}
        pageSize={list.perPage}
        hrefFor={hrefFor}
        label="口コミのページ送り"
      />
    </OwnerPage>
  );
}

function ReplyForm({ review, result }: { review: OwnerReview; result?: ReplyFormResult }) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("reviewId") === review.id;
  if (review.hidden) {
    return <p className="text-sm">運営が非表示にした口コミのため、返信はできません。</p>;
  }
  const errors = result?.errors ?? {};
  const id = `reply-${review.id}`;
  return (
    <Form method="post" noValidate className="flex flex-col gap-3 border-t border-neutral-200 pt-3">
      {result ? <ErrorSummary errors={errors} /> : null}
      <input type="hidden" name="reviewId" value={review.id} />
      <input type="hidden" name="version" value={review.version} />
      <TextAreaField
        id={id}
        name="body"
        label={review.reply ? "返信を編集" : "返信"}
        rows={4}
        required
        maxLength={REVIEW_REPLY_MAX}
        hint={`${REVIEW_REPLY_MAX}文字まで。URLはリンクになりません。`}
        defaultValue={result?.body ?? review.reply?.body ?? ""}
        error={errors.body}
      />
      <div>
        <button type="submit" className={buttonClass} disabled={busy}>
          {review.reply ? "返信を更新する" : "返信する"}
        </button>
      </div>
    </Form>
  );
}
