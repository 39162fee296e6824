import { useMemo } from "react";
import { Form, Link, useNavigation } from "react-router";
import { formatYen } from "../../../common/format";
import type { DayClosePageData, DayFigures } from "../../../server/owner/day-close.server";
import {
  buttonClass,
  cellClass,
  headCellClass,
  linkClass,
  secondaryButtonClass,
  tableClass,
} from "../back-office-ui";
import { ErrorSummary, TextAreaField, TextField } from "../form/field";
import { FocusedNotice } from "../form/focused-notice";
import { OwnerPage } from "./owner-frame";

export type DayCloseResult = { errors: Record<string, string>; values: Record<string, string> };

const sectionClass = "rounded-lg border border-neutral-300 p-4";
const headingClass = "mb-3 text-lg font-bold";

/** 過不足 in words: ￥500 多い（過剰）, ￥300 少ない（不足）, 過不足なし. */
export function differenceLabel(difference: number): string {
  if (difference === 0) return `過不足なし（${formatYen(0)}）`;
  return difference > 0
    ? `${formatYen(difference)} 多い（過剰）`
    : `${formatYen(-difference)} 少ない（不足）`;
}

function Amounts({
  figures,
  extra,
  caption,
}: {
  figures: DayFigures;
  extra?: [string, string][];
  caption: string;
}) {
  const rows: [string, string][] = [
    ["会計の件数", `${figures.checkoutCount}件`],
    ["売上合計", formatYen(figures.salesTotal)],
    ["現金", formatYen(figures.cashAmount)],
    ["カード", formatYen(figures.cardAmount)],
    ["QR決済", formatYen(figures.qrAmount)],
    // Paid online before the visit (decision 0085): never in the drawer.
    ["事前決済（オンライン・レジ外）", formatYen(figures.prepaidAmount)],
    ["現金のお預かり", formatYen(figures.cashReceived)],
    ["お釣り", formatYen(figures.changeGiven)],
    ["返金（オンライン・レジ外）", `${figures.refundCount}件 ${formatYen(figures.refundAmount)}`],
    ...(extra ?? []),
  ];
  return (
    // A label and its yen side by side: at desktop widths they stay near each other.
    <table className={`${tableClass} max-w-xl`}>
      <caption className="mb-2 text-left text-sm text-neutral-700">{caption}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row" className={`${cellClass} font-bold`}>
              {label}
            </th>
            <td className={`${cellClass} text-right tabular-nums`}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * 日計 (decision 0082): the day's 会計 by method, the close form (釣銭準備金,
 * the cash counted, a note) or the close as stored (who, when, 過不足), and
 * the day's 会計 one by one.
 */
export function DayCloseView({
  data,
  result,
}: {
  data: DayClosePageData;
  result: DayCloseResult | undefined;
}) {
  const busy = useNavigation().state === "submitting";
  const errors = result?.errors ?? {};
  // One object per answer, so the summary takes focus once when it appears.
  const dateError = data.dateError;
  const summary = useMemo(
    () => result?.errors ?? (dateError ? { date: dateError } : {}),
    [result, dateError],
  );
  const typed = (name: string, fallback: string) => result?.values[name] ?? fallback;
  const close = data.close;
  const base = `/owner/salons/${data.salon.id}`;
  return (
    <OwnerPage title="日計">
      <div className="mt-4 flex flex-col gap-6">
        {data.saved && !result ? <FocusedNotice>{data.saved}</FocusedNotice> : null}
        <ErrorSummary errors={summary} />

        <Form method="get" className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor="day-close-date" className="font-bold">
              日付
            </label>
            <input
              id="day-close-date"
              type="date"
              name="date"
              defaultValue={data.date}
              max={data.today}
              className="rounded-lg border border-neutral-400 px-3 py-2"
            />
          </div>
          <button type="submit" className={secondaryButtonClass}>
            表示
          </button>
          {data.date !== data.today ? (
            <Link to={`${base}/day-close`} className={linkClass}>
              今日
            </Link>
          ) : null}
        </Form>

        <h2 className="text-xl font-bold">{data.dateLabel}</h2>

        {close ? (
          <section className={sectionClass} aria-labelledby="close-heading">
            <h2 id="close-heading" className={headingClass}>
              {close.status === "closed" ? "締め済み" : "締めを取り消し中"}
            </h2>
            <p className="mb-3">
              {close.closedAtLabel}に{close.closedBy}が締めました。
              {close.reopenedAtLabel
                ? ` ${close.reopenedAtLabel}に${close.reopenedBy}が締めを取り消しました。`
                : null}
            </p>
            {close.changedSince ? (
              <p className="mb-3 rounded-lg border-2 border-amber-700 bg-amber-50 p-3 font-bold">
                締めた後にこの日の会計が変わりました。下の「今の金額」と比べ、締め直してください。
              </p>
            ) : null}
            <Amounts
              figures={close.figures}
              caption="締めた時点の金額"
              extra={[
                ["釣銭準備金", formatYen(close.figures.openingFloat)],
                ["現金の予定額（準備金＋現金売上）", formatYen(close.figures.expectedCash)],
                ["実際の現金", formatYen(close.countedCash)],
                ["過不足", differenceLabel(close.difference)],
                ...(close.note ? ([["メモ", close.note]] as [string, string][]) : []),
              ]}
            />
            {close.status === "closed" ? (
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="reopen" />
                <input type="hidden" name="date" value={data.date} />
                <button type="submit" className={secondaryButtonClass} disabled={busy}>
                  締めを取り消す
                </button>
              </Form>
            ) : null}
          </section>
        ) : null}

        {data.isFuture ? (
          <p>まだ来ていない日です。締めは今日までの日について行えます。</p>
        ) : (
          <section className={sectionClass} aria-labelledby="now-heading">
            <h2 id="now-heading" className={headingClass}>
              今の金額
            </h2>
            {data.figures.checkoutCount === 0 ? (
              <p className="mb-3 text-neutral-700">この日の会計はまだありません。</p>
            ) : null}
            <Amounts figures={data.figures} caption="支払方法ごとの合計（組み合わせは内訳ごと）" />
            {close?.status === "closed" ? null : (
              <Form method="post" noValidate className="mt-4 flex max-w-xl flex-col gap-3">
                <input type="hidden" name="intent" value="close" />
                <input type="hidden" name="date" value={data.date} />
                <input type="hidden" name="seen" value={data.seen} />
                <TextField
                  id="opening-float"
                  name="openingFloat"
                  label="釣銭準備金（円）"
                  hint="開店時にレジに入れた現金。なければ空欄のまま（0円）。"
                  inputMode="numeric"
                  autoComplete="off"
                  defaultValue={typed("openingFloat", "")}
                  error={errors.openingFloat}
                />
                <TextField
                  id="counted-cash"
                  name="countedCash"
                  label="実際の現金（円）"
                  hint={`レジの現金を数えた額。予定額は 釣銭準備金 ＋ 現金売上 ${formatYen(data.figures.cashAmount)} です。`}
                  required
                  inputMode="numeric"
                  autoComplete="off"
                  defaultValue={typed("countedCash", "")}
                  error={errors.countedCash}
                />
                <TextAreaField
                  id="close-note"
                  name="note"
                  label="メモ（過不足の理由など）"
                  rows={2}
                  maxLength={200}
                  defaultValue={typed("note", "")}
                  error={errors.note}
                />
                <p>
                  <button type="submit" className={buttonClass} disabled={busy}>
                    この日を締める
                  </button>
                </p>
              </Form>
            )}
          </section>
        )}

        <section className={sectionClass} aria-labelledby="list-heading">
          <h2 id="list-heading" className={headingClass}>
            この日の会計（{data.checkouts.length}件）
          </h2>
          {data.checkouts.length === 0 ? (
            <p className="text-sm text-neutral-700">ありません。</p>
          ) : (
            <div className="overflow-x-auto">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th scope="col" className={headCellClass}>
                      時刻
                    </th>
                    <th scope="col" className={headCellClass}>
                      お客様
                    </th>
                    <th scope="col" className={`${headCellClass} text-right`}>
                      金額
                    </th>
                    <th scope="col" className={headCellClass}>
                      支払方法
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.checkouts.map((checkout) => (
                    <tr key={checkout.bookingId}>
                      <td className={cellClass}>{checkout.time}</td>
                      <td className={cellClass}>
                        <Link
                          to={`${base}/bookings/${checkout.bookingId}/receipt`}
                          className={linkClass}
                        >
                          {checkout.customerName || checkout.bookingNumber}
                        </Link>
                      </td>
                      <td className={`${cellClass} text-right tabular-nums`}>
                        {checkout.totalLabel}
                      </td>
                      <td className={cellClass}>{checkout.methodLabel}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </OwnerPage>
  );
}
