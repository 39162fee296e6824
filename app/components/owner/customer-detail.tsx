import { useEffect, useRef } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { formatDate, formatDateTime, formatYen } from "../../../common/format";
import { staffBookingStatusLabels } from "../../../common/status-labels";
import type { CustomerFormOutcome } from "../../../server/owner/customer-forms.server";
import type { CustomerStats } from "../../../server/owner/customers.server";
import type { customerDetailPage } from "../../../server/owner/pages/customer-pages.server";
import { Notice } from "../accounts/account-frame";
import {
  buttonClass,
  cellClass,
  headCellClass,
  linkClass,
  secondaryButtonClass,
  tableClass,
} from "../back-office-ui";
import { ScrollRegion } from "../scroll-region";
import { cancelLabels, formatLocalDay, formatPhone } from "./customer-labels";
import { OwnerPage } from "./owner-frame";

type DetailData = Awaited<ReturnType<typeof customerDetailPage>>;
type Refused = Extract<CustomerFormOutcome, { kind: "refused" }>;

const doneMessages = {
  notes: "メモを保存しました。",
  merge: "顧客を統合しました。取り消すときは「統合した記録」の「統合を取り消す」を押してください。",
  unmerge: "統合を取り消しました。",
} as const;

const sourceLabels: Record<string, string> = { web: "ネット", phone: "電話", walk_in: "当日来店" };

const sectionClass = "flex flex-col gap-3";
const h2Class = "text-xl font-bold";

function StatsList({ stats, timeZone }: { stats: CustomerStats; timeZone: string }) {
  const items: [string, string][] = [
    ["来店回数", `${stats.visits}回`],
    ["最終来店日", formatLocalDay(stats.lastVisitAt, timeZone)],
    ["累計金額", formatYen(stats.totalSpent)],
    ["今後の予約", `${stats.upcoming}件`],
    [cancelLabels.customer, `${stats.cancelledByCustomer}件`],
    [cancelLabels.customer_advance, `${stats.cancelledBySalon.customer_advance}件`],
    [cancelLabels.customer_same_day, `${stats.cancelledBySalon.customer_same_day}件`],
    [cancelLabels.salon, `${stats.cancelledBySalon.salon}件`],
    [cancelLabels.no_contact, `${stats.cancelledBySalon.no_contact}件`],
    [cancelLabels.noShow, `${stats.noShows}件`],
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-neutral-200 p-3">
          <dt className="text-sm text-neutral-700">{label}</dt>
          <dd className="text-lg font-bold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Contact({
  customer,
}: {
  customer: { kana: string; phone: string; email: string; hasAccount: boolean };
}) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      <dt className="font-bold">フリガナ</dt>
      <dd>{customer.kana || "—"}</dd>
      <dt className="font-bold">電話番号</dt>
      <dd>{formatPhone(customer.phone) || "—"}</dd>
      <dt className="font-bold">メール</dt>
      <dd className="break-all">{customer.email || "—"}</dd>
      <dt className="font-bold">会員</dt>
      <dd>{customer.hasAccount ? "会員登録あり" : "会員登録なし（電話・来店）"}</dd>
    </dl>
  );
}

/** The category inside the status's parentheses, short: お客様キャンセル（無断・連絡なし）. */
const categoryShort: Record<string, string> = {
  salon: "サロン都合",
  customer_advance: "事前連絡",
  customer_same_day: "当日連絡",
  no_contact: "無断・連絡なし",
};

function statusLabel(status: string, cancelCategory: string | null) {
  const label = staffBookingStatusLabels[status] ?? status;
  if (status.startsWith("cancelled_") && cancelCategory) {
    return `${label}（${categoryShort[cancelCategory] ?? cancelCategory}）`;
  }
  return label;
}

/**
 * /owner/salons/{id}/customers/{customerId}: the salon's karte of one
 * person: contact, stats over every merged record, the private notes, the
 * likely duplicates to merge, the merged records to undo, the visit history.
 */
export function CustomerDetailView({
  data,
  refused,
}: {
  data: DetailData;
  refused: Refused | undefined;
}) {
  const { salon, detail, timeZone, done } = data;
  const { customer } = detail;
  const base = `/owner/salons/${salon.id}`;
  const self = `${base}/customers/${customer.id}`;
  const busy = useNavigation().state === "submitting";
  const errorRef = useRef<HTMLDivElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  const { key } = useLocation();
  // After a post the button pressed may be gone (a merged suggestion): focus goes to what happened.
  useEffect(() => {
    if (refused) errorRef.current?.focus();
  }, [refused]);
  useEffect(() => {
    if (done && key !== "default") doneRef.current?.focus();
  }, [done, key]);
  const notesValue =
    refused?.intent === "notes" ? (refused.notes ?? customer.notes) : customer.notes;
  return (
    <OwnerPage title={`${customer.name || "（お名前なし）"} 様`}>
      <p>
        <Link to={`${base}/customers`} className={linkClass}>
          顧客一覧に戻る
        </Link>
      </p>
      {refused ? (
        <div ref={errorRef} tabIndex={-1} className="outline-none">
          <Notice tone="error">{refused.error}</Notice>
        </div>
      ) : null}
      {done && !refused ? (
        <div ref={doneRef} tabIndex={-1} className="outline-none">
          <Notice>{doneMessages[done]}</Notice>
        </div>
      ) : null}
      {detail.mergedInto ? (
        <Notice>
          この記録は{" "}
          <Link to={`${base}/customers/${detail.mergedInto.id}`} className={linkClass}>
            {detail.mergedInto.name || "（お名前なし）"} 様
          </Link>{" "}
          に統合されています。来店の記録は統合先でまとめて見られます。
        </Notice>
      ) : null}

      <section aria-labelledby="customer-contact" className={sectionClass}>
        <h2 id="customer-contact" className={h2Class}>
          連絡先
        </h2>
        <Contact customer={customer} />
      </section>

      <section aria-labelledby="customer-stats" className={sectionClass}>
        <h2 id="customer-stats" className={h2Class}>
          来店とキャンセル
        </h2>
        {detail.merged.length > 0 ? (
          <p className="text-sm text-neutral-700">統合した記録の予約も含めています。</p>
        ) : null}
        <StatsList stats={detail.stats} timeZone={timeZone} />
      </section>

      <section aria-labelledby="customer-notes" className={sectionClass}>
        <h2 id="customer-notes" className={h2Class}>
          サロンのメモ
        </h2>
        <Form method="post" action={self} className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="notes" />
          <input type="hidden" name="seenNotes" value={customer.notes} />
          <label htmlFor="customer-notes-text" className="font-bold">
            メモ（お客様や他のサロンには表示されません）
          </label>
          <textarea
            id="customer-notes-text"
            name="notes"
            rows={6}
            maxLength={2000}
            defaultValue={notesValue}
            key={`${customer.notes}|${refused?.intent === "notes" ? refused.notes : ""}`}
            aria-describedby="customer-notes-hint"
            aria-invalid={refused?.intent === "notes" ? true : undefined}
            className="w-full rounded-lg border border-neutral-400 px-3 py-2"
          />
          <p id="customer-notes-hint" className="text-sm text-neutral-700">
            2000文字まで。好み・アレルギー・前回の施術など、スタッフで共有したいことを書けます。最終更新：
            {formatDateTime(customer.updatedAt)}
          </p>
          <div>
            <button type="submit" disabled={busy} className={buttonClass}>
              メモを保存する
            </button>
          </div>
        </Form>
      </section>

      {detail.mergedInto ? null : (
        <section aria-labelledby="customer-suggestions" className={sectionClass}>
          <h2 id="customer-suggestions" className={h2Class}>
            同じ方かもしれない顧客
          </h2>
          {detail.suggestions.length === 0 ? (
            <p>電話番号・メールアドレス・お名前が同じ顧客はいません。</p>
          ) : (
            <>
              <p className="text-sm text-neutral-700">
                統合すると、その顧客の予約と来店の記録がこの顧客にまとまります。予約そのものは変わらず、あとから取り消せます。
              </p>
              <ul className="flex flex-col gap-3">
                {detail.suggestions.map((other) => (
                  <li key={other.id} className="rounded-lg border border-neutral-300 p-3">
                    <p>
                      <Link to={`${base}/customers/${other.id}`} className={linkClass}>
                        {other.name || "（お名前なし）"} 様
                      </Link>{" "}
                      <span className="text-sm">
                        （
                        {[
                          other.samePhone ? "電話番号が同じ" : "",
                          other.sameEmail ? "メールアドレスが同じ" : "",
                          other.sameName ? "お名前とフリガナが同じ" : "",
                        ]
                          .filter(Boolean)
                          .join("・")}
                        ）
                      </span>
                    </p>
                    <p className="text-sm">
                      {[other.kana, formatPhone(other.phone), other.email]
                        .filter(Boolean)
                        .join(" / ")}
                      {` / 来店${other.stats.visits}回`}
                    </p>
                    <Form method="post" action={self} className="mt-2">
                      <input type="hidden" name="intent" value="merge" />
                      <input type="hidden" name="otherId" value={other.id} />
                      <button type="submit" disabled={busy} className={secondaryButtonClass}>
                        統合する
                        <span className="sr-only">
                          （{other.name || "お名前なし"}様をこの顧客に）
                        </span>
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}

      {detail.merged.length > 0 ? (
        <section aria-labelledby="customer-merged" className={sectionClass}>
          <h2 id="customer-merged" className={h2Class}>
            統合した記録
          </h2>
          <ul className="flex flex-col gap-3">
            {detail.merged.map((record) => (
              <li key={record.id} className="rounded-lg border border-neutral-300 p-3">
                <p className="font-bold">{record.name || "（お名前なし）"} 様</p>
                <p className="text-sm">
                  {[record.kana, formatPhone(record.phone), record.email]
                    .filter(Boolean)
                    .join(" / ")}
                  {record.mergedAt ? ` / ${formatDateTime(record.mergedAt)}に統合` : ""}
                </p>
                {record.notes ? (
                  <p className="mt-1 whitespace-pre-wrap text-sm">メモ：{record.notes}</p>
                ) : null}
                <Form method="post" action={self} className="mt-2">
                  <input type="hidden" name="intent" value="unmerge" />
                  <input type="hidden" name="otherId" value={record.id} />
                  <button type="submit" disabled={busy} className={secondaryButtonClass}>
                    統合を取り消す
                    <span className="sr-only">（{record.name || "お名前なし"}様）</span>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="customer-visits" className={sectionClass}>
        <h2 id="customer-visits" className={h2Class}>
          予約・来店履歴
        </h2>
        <p>
          {detail.visitTotal}件
          {detail.visitTotal > detail.visits.length
            ? `（新しい${detail.visits.length}件を表示）`
            : ""}
        </p>
        {detail.visits.length === 0 ? (
          <p>まだ予約はありません。</p>
        ) : (
          <ScrollRegion
            aria-labelledby="customer-visits-caption"
            className="border border-neutral-200"
          >
            <table className={`${tableClass} min-w-[44rem]`}>
              <caption id="customer-visits-caption" className="sr-only">
                予約・来店履歴（新しい順）
              </caption>
              <thead>
                <tr>
                  <th scope="col" className={headCellClass}>
                    日時
                  </th>
                  <th scope="col" className={headCellClass}>
                    メニュー
                  </th>
                  <th scope="col" className={headCellClass}>
                    スタイリスト
                  </th>
                  <th scope="col" className={headCellClass}>
                    状態
                  </th>
                  <th scope="col" className={`${headCellClass} text-right`}>
                    金額
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.visits.map((visit) => (
                  <tr key={visit.id}>
                    <th scope="row" className={`${cellClass} font-normal`}>
                      <Link to={`${base}/bookings/${visit.id}`} className={linkClass}>
                        {formatDate(visit.localDate)} {visit.localStart}〜{visit.localEnd}
                      </Link>
                      <span className="block text-xs">
                        予約番号 {visit.bookingNumber}・{sourceLabels[visit.source] ?? visit.source}
                      </span>
                    </th>
                    <td className={cellClass}>{visit.menus.join("、") || "—"}</td>
                    <td className={cellClass}>
                      {visit.stylist}
                      <span className="block text-xs">
                        {visit.staffRequested ? "指名" : "指名なし"}
                      </span>
                    </td>
                    <td className={cellClass}>{statusLabel(visit.status, visit.cancelCategory)}</td>
                    <td className={`${cellClass} text-right`}>{formatYen(visit.totalPrice)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>
    </OwnerPage>
  );
}
