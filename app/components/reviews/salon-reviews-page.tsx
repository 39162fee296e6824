import { Form } from "react-router";
import { reviewListHref } from "../../../common/review-list-query";
import { reviewSortLabels, reviewSorts } from "../../../common/reviews";
import type { SalonReviewsPage } from "../../../server/salons/salon-reviews-page";
import type { BookingVia } from "../../../server/salons/salon-sections";
import { Pagination } from "../pagination";
import { ReviewSummaryPanel, SalonReview } from "./salon-review";

const control = "min-h-11 w-full rounded-lg border border-neutral-400 bg-white px-3 py-2";

function Select({
  id,
  name,
  label,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-bold">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={control}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * /salons/:id/reviews: every shown review of the salon, sorted and filtered
 * by a GET form (it works without JavaScript), ten a page, inside the
 * salon's header and tabs (the layout route's SalonFrameView).
 */
export function SalonReviewsPageView({
  data,
  via,
}: {
  data: SalonReviewsPage;
  /** A coupon or menu the visitor came with stays with the filters and pages (decision 0057). */
  via: BookingVia | null;
}) {
  const { salon, summary, choices, filters, items, total, page, pageSize } = data;
  const withVia = (href: string) =>
    via
      ? `${href}${href.includes("?") ? "&" : "?"}${via.kind}=${encodeURIComponent(via.id)}`
      : href;
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <div className="max-w-4xl">
      {summary.count === 0 ? (
        <p className="mt-6">まだ口コミはありません。</p>
      ) : (
        <>
          <section aria-labelledby="review-summary" className="mt-6">
            <h2 id="review-summary" className="text-xl font-bold">
              評価（口コミ{summary.count}件）
            </h2>
            <ReviewSummaryPanel summary={summary} />
          </section>
          <section aria-labelledby="review-list" className="mt-8">
            <h2 id="review-list" className="text-xl font-bold">
              口コミ一覧
            </h2>
            <Form
              method="get"
              action={`/salons/${salon.slug}/reviews`}
              aria-label="口コミの並び替えと絞り込み"
              className="mt-4 grid grid-cols-1 items-end gap-3 sm:grid-cols-4"
            >
              <Select
                id="review-sort"
                name="sort"
                label="並び順"
                value={filters.sort}
                options={reviewSorts.map((sort) => ({
                  value: sort,
                  label: reviewSortLabels[sort],
                }))}
              />
              <Select
                id="review-staff"
                name="staff"
                label="スタイリスト"
                value={filters.staff ?? ""}
                options={[
                  { value: "", label: "すべてのスタイリスト" },
                  ...choices.stylists.map((stylist) => ({
                    value: stylist.slug,
                    label: stylist.name,
                  })),
                ]}
              />
              <Select
                id="review-genre"
                name="genre"
                label="メニュー"
                value={filters.genre ?? ""}
                options={[
                  { value: "", label: "すべてのメニュー" },
                  ...choices.genres.map((genre) => ({ value: genre, label: genre })),
                ]}
              />
              {via ? <input type="hidden" name={via.kind} value={via.id} /> : null}
              <button
                type="submit"
                className="min-h-11 rounded-lg bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800"
              >
                この条件で表示
              </button>
            </Form>
            <p className="mt-4 text-sm" aria-live="polite">
              {total === 0
                ? "条件に合う口コミはありません。"
                : `${total}件中 ${first}〜${last}件目（${reviewSortLabels[filters.sort]}）`}
            </p>
            <ul className="mt-2 flex flex-col gap-4">
              {items.map((review) => (
                <li key={review.id}>
                  <SalonReview review={review} headingLevel={3} />
                </li>
              ))}
            </ul>
            <Pagination
              page={page}
              total={total}
              pageSize={pageSize}
              label="口コミのページ送り"
              hrefFor={(n) => withVia(reviewListHref(salon.slug, { ...filters, page: n }))}
            />
          </section>
        </>
      )}
    </div>
  );
}
