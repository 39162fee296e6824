import { Form, Link } from "react-router";
import { formatYen } from "../../../common/format";
import type { customerListPage } from "../../../server/owner/pages/customer-pages.server";
import { buttonClass, cellClass, headCellClass, linkClass, tableClass } from "../back-office-ui";
import { Pagination } from "../pagination";
import { ScrollRegion } from "../scroll-region";
import { formatLocalDay, formatPhone } from "./customer-labels";
import { OwnerPage } from "./owner-frame";

type CustomerListData = Awaited<ReturnType<typeof customerListPage>>;

/** A total, and below it the kinds that are not zero (お客様1・当日連絡1). */
function CountWithBreakdown({ parts }: { parts: readonly (readonly [string, number])[] }) {
  const total = parts.reduce((sum, [, n]) => sum + n, 0);
  const shown = parts.filter(([, n]) => n > 0);
  return (
    <>
      {total}件
      {shown.length > 0 ? (
        <span className="block text-xs">
          {shown.map(([label, n]) => `${label}${n}`).join("・")}
        </span>
      ) : null}
    </>
  );
}

/**
 * /owner/salons/{id}/customers: the search (name, kana, phone), the count
 * announced to screen readers, one page of customers with their visits,
 * spending, cancellations and no-shows, and the pages.
 */
export function CustomerList({ data }: { data: CustomerListData }) {
  const { salon, list } = data;
  const { customers, total, page, pageSize, q } = list;
  const base = `/owner/salons/${salon.id}/customers`;
  const hrefFor = (n: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (n > 1) params.set("page", String(n));
    const text = params.toString();
    return `${base}${text ? `?${text}` : ""}`;
  };
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  return (
    <OwnerPage
      title="顧客"
      actions={
        <a
          href={`/owner/salons/${salon.id}/customers.csv`}
          download
          className="font-bold text-brand-700 underline underline-offset-4"
        >
          顧客一覧をCSVで書き出す
        </a>
      }
    >
      <Form
        method="get"
        action={base}
        role="search"
        aria-label="顧客の検索"
        className="flex flex-wrap items-end gap-3"
      >
        <div className="flex min-w-0 flex-1 basis-64 flex-col gap-1">
          <label htmlFor="customer-q" className="font-bold">
            お名前・フリガナ・電話番号で検索
          </label>
          <input
            id="customer-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            aria-describedby="customer-q-hint"
            className="rounded-lg border border-neutral-400 px-3 py-2"
          />
          <p id="customer-q-hint" className="text-sm text-neutral-700">
            ひらがな・カタカナのどちらでも、電話番号は一部だけでも探せます。
          </p>
        </div>
        <button type="submit" className={buttonClass}>
          検索する
        </button>
        {q ? (
          <Link to={base} className={linkClass}>
            検索をやめる
          </Link>
        ) : null}
      </Form>
      <p aria-live="polite" aria-atomic="true" className="font-bold">
        {q ? `「${q}」の検索結果：` : "顧客："}
        {total.toLocaleString("ja-JP")}件{total > 0 ? `（${first}〜${last}件目）` : ""}
      </p>
      {customers.length === 0 ? (
        <div className="rounded-lg bg-neutral-100 p-4">
          {q ? (
            <p>
              「{q}
              」に一致する顧客はいません。お名前の一部、フリガナ、電話番号の一部でもお試しください。
            </p>
          ) : (
            <p>
              まだ顧客はいません。ネット予約が確定したときや、電話・来店の予約を入力したときに、ここに追加されます。
            </p>
          )}
        </div>
      ) : (
        <ScrollRegion
          aria-labelledby="customer-table-caption"
          className="border border-neutral-200"
        >
          <table className={`${tableClass} min-w-[44rem]`}>
            <caption id="customer-table-caption" className="sr-only">
              顧客一覧（フリガナ順）
            </caption>
            <thead>
              <tr>
                <th scope="col" className={headCellClass}>
                  お名前
                </th>
                <th scope="col" className={headCellClass}>
                  電話番号
                </th>
                <th scope="col" className={`${headCellClass} text-right`}>
                  来店回数
                </th>
                <th scope="col" className={headCellClass}>
                  最終来店日
                </th>
                <th scope="col" className={`${headCellClass} text-right`}>
                  累計金額
                </th>
                <th scope="col" className={`${headCellClass} text-right`}>
                  キャンセル
                </th>
                <th scope="col" className={`${headCellClass} text-right`}>
                  無断キャンセル
                </th>
              </tr>
            </thead>
            <tbody>
              {customers.map((customer) => {
                const s = customer.stats;
                const cancels = [
                  ["ネット", s.cancelledByCustomer],
                  ["事前連絡", s.cancelledBySalon.customer_advance],
                  ["当日連絡", s.cancelledBySalon.customer_same_day],
                  ["サロン都合", s.cancelledBySalon.salon],
                ] as const;
                const noShows = [
                  ["連絡なし", s.cancelledBySalon.no_contact],
                  ["来店なし", s.noShows],
                ] as const;
                return (
                  <tr key={customer.id}>
                    <th scope="row" className={`${cellClass} font-normal`}>
                      <Link to={`${base}/${customer.id}`} className={linkClass}>
                        {customer.name || "（お名前なし）"}
                      </Link>
                      {customer.kana ? (
                        <span className="block text-xs">{customer.kana}</span>
                      ) : null}
                    </th>
                    <td className={cellClass}>{formatPhone(customer.phone) || "—"}</td>
                    <td className={`${cellClass} text-right`}>{s.visits}回</td>
                    <td className={cellClass}>{formatLocalDay(s.lastVisitAt, data.timeZone)}</td>
                    <td className={`${cellClass} text-right`}>{formatYen(s.totalSpent)}</td>
                    <td className={`${cellClass} text-right`}>
                      <CountWithBreakdown parts={cancels} />
                    </td>
                    <td className={`${cellClass} text-right`}>
                      <CountWithBreakdown parts={noShows} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <Pagination
        page={page}
        total={total}
        pageSize={pageSize}
        hrefFor={hrefFor}
        label="顧客一覧のページ送り"
      />
    </OwnerPage>
  );
}
