import { Form, Link, useNavigation } from "react-router";
import { REVIEW_HIDE_NOTE_MAX } from "../../../common/reviews";
import type { ModerationReview } from "../../../server/admin/review-moderation.server";
import type {
  ModerationFormResult,
  ModerationPageData,
} from "../../../server/admin/review-moderation-form.server";
import { buttonClass, ListCount, linkClass, secondaryButtonClass } from "../back-office-ui";
import { ErrorSummary, TextAreaField } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { Pagination } from "../pagination";
import { BackOfficeReview } from "../reviews/back-office-review";
import { AdminFrame } from "./admin-frame";
import { ViewTabs } from "./view-tabs";

/**
 * /admin/reviews: the reported reviews (oldest report first), the hidden
 * ones, or every review of salons found by name; each with its reports and
 * the decisions 非表示にする / 再表示する / 問題なし with a note (decision 0056).
 */
export function ReviewModeration({
  data,
  result,
}: {
  data: ModerationPageData;
  result?: ModerationFormResult;
}) {
  const { list } = data;
  const hrefFor = (page: number) => {
    const query = new URLSearchParams({ view: list.view });
    if (list.view === "all" && list.q) query.set("q", list.q);
    if (page > 1) query.set("page", String(page));
    return `/admin/reviews?${query}`;
  };
  const tabs = [
    { view: "reported", label: `通報あり（${list.reportedCount}件）` },
    { view: "hidden", label: "非表示" },
    { view: "all", label: "サロンで探す" },
  ] as const;
  return (
    <AdminFrame title="口コミの管理">
      {data.notice && !result ? <FocusedNotice tone="brand">{data.notice}</FocusedNotice> : null}
      <p className="max-w-3xl text-sm">
        非表示にした口コミはサロンのページに出ず、評価の平均と件数から外れます（口コミ自体は残り、再表示できます）。どの操作にもメモが記録され、操作履歴に残ります。
      </p>
      <ViewTabs
        label="口コミの表示切り替え"
        path="/admin/reviews"
        tabs={tabs}
        current={list.view}
      />
      {list.view === "all" ? (
        <Form
          method="get"
          className="flex flex-wrap items-end gap-2"
          role="search"
          aria-label="口コミをサロン名で探す"
        >
          <input type="hidden" name="view" value="all" />
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor="review-salon-q" className="text-sm font-bold">
              サロン名
            </label>
            <input
              id="review-salon-q"
              name="q"
              type="search"
              maxLength={100}
              defaultValue={list.q}
              className="max-w-full rounded-lg border border-neutral-400 px-3 py-2"
            />
          </div>
          <button type="submit" className={buttonClass}>
            検索
          </button>
        </Form>
      ) : null}
      <ListCount total={list.total} page={list.page} perPage={list.perPage} />
      {list.reviews.length === 0 ? (
        <p>
          {list.view === "reported"
            ? "未対応の通報はありません。"
            : list.view === "hidden"
              ? "非表示の口コミはありません。"
              : "該当する口コミはありません。"}
        </p>
      ) : (
        <ul className="flex flex-col gap-4">
          {list.reviews.map((review) => (
            <li key={review.id}>
              <BackOfficeReview review={review}>
                <ModerationDetails review={review} />
                <DecisionForm
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
    </AdminFrame>
  );
}

function ModerationDetails({ review }: { review: ModerationReview }) {
  return (
    <div className="flex flex-col gap-2 border-t border-neutral-200 pt-3 text-sm">
      <p>
        サロン：
        <Link to={`/admin/salons/edit/${review.salon.id}`} className={`${linkClass} break-all`}>
          {review.salon.name}
        </Link>
      </p>
      {review.hiddenLabel ? (
        <p className="break-words">
          {review.hiddenLabel} に{review.hiddenByName ? `${review.hiddenByName}さんが` : ""}
          非表示：{review.hiddenNote}
        </p>
      ) : null}
      {review.reports.length > 0 ? (
        <div className="flex flex-col gap-1">
          <p className="font-bold">
            通報 {review.reports.length}件（未対応 {review.openReportCount}件）
          </p>
          <ul className="list-disc pl-5">
            {review.reports.map((report) => (
              <li key={report.id} className="break-words">
                {report.reasonLabel}（{report.reportedLabel}
                {report.resolved ? "・対応済み" : ""}）
                {report.note ? <span className="whitespace-pre-line">：{report.note}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function DecisionForm({
  review,
  result,
}: {
  review: ModerationReview;
  result?: ModerationFormResult;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("reviewId") === review.id;
  const errors = result?.errors ?? {};
  return (
    <Form method="post" noValidate className="flex flex-col gap-3 border-t border-neutral-200 pt-3">
      {result ? <ErrorSummary errors={errors} /> : null}
      <input type="hidden" name="reviewId" value={review.id} />
      <input type="hidden" name="version" value={review.version} />
      <TextAreaField
        id={`note-${review.id}`}
        name="note"
        label="メモ（操作の理由）"
        rows={2}
        maxLength={REVIEW_HIDE_NOTE_MAX}
        hint={`${REVIEW_HIDE_NOTE_MAX}文字まで。非表示・再表示には必須です。操作履歴に残ります。`}
        defaultValue={result?.note ?? ""}
        error={errors.note}
      />
      <div className="flex flex-wrap gap-2">
        {review.hidden ? (
          <button
            type="submit"
            name="intent"
            value="restore"
            className={buttonClass}
            disabled={busy}
          >
            再表示する
          </button>
        ) : (
          <button type="submit" name="intent" value="hide" className={buttonClass} disabled={busy}>
            非表示にする
          </button>
        )}
        {review.openReportCount > 0 ? (
          <button
            type="submit"
            name="intent"
            value="keep"
            className={secondaryButtonClass}
            disabled={busy}
          >
            問題なし
          </button>
        ) : null}
      </div>
    </Form>
  );
}
