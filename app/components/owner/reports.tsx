import type { ReactNode } from "react";
import { Form } from "react-router";
import { type CouponTarget, couponTargetLabels } from "../../../common/coupon-eligibility";
import { formatDate, formatMonthDayWeekday, formatYen } from "../../../common/format";
import type {
  ReportBucket,
  ReportHour,
  ReportWeekday,
  reportsPage,
} from "../../../server/owner/reports.server";
import { buttonClass, cellClass, headCellClass, linkClass, tableClass } from "../back-office-ui";
import { ErrorSummary, SelectField, TextField } from "../form/field";
import { ScrollRegion } from "../scroll-region";
import { cancelLabels } from "./customer-labels";
import { OwnerPage } from "./owner-frame";
import { ColumnChart, RowChart } from "./reports-charts";

type ReportsData = Awaited<ReturnType<typeof reportsPage>>;

const percent = new Intl.NumberFormat("ja-JP", { style: "percent", maximumFractionDigits: 1 });

/** 0.0534 → 5.3%; none scheduled → —. */
export function formatUtilisation(value: number | null): string {
  return value === null ? "—" : percent.format(value);
}

/** The amount axis's ticks: 5,000 under ten thousand yen, then 1.5万 (the axis says 円). */
export function formatYenTick(value: number): string {
  if (value < 10_000) return value.toLocaleString("ja-JP");
  return `${(value / 10_000).toLocaleString("ja-JP", { maximumFractionDigits: 1 })}万`;
}

/** A count of bookings: 1,234件. */
const formatCount = (value: number) => `${value.toLocaleString("ja-JP")}件`;

/** Minutes as hours with one decimal: 5040 → 84時間; 150 → 2.5時間. */
const formatHours = (minutes: number) =>
  `${(Math.round((minutes / 60) * 10) / 10).toLocaleString("ja-JP")}時間`;

/** A lead time: under an hour in minutes, under two days in hours, else in days. */
export function formatLead(hours: number | null): string {
  if (hours === null) return "—";
  if (hours < 1) return `${Math.round(hours * 60)}分`;
  if (hours < 48) return `${Math.round(hours * 10) / 10}時間`;
  return `${Math.round((hours / 24) * 10) / 10}日`;
}

const weekdayNames = ["日", "月", "火", "水", "木", "金", "土"];

/** 2026年11月 for a month; 11月23日(月)〜11月29日(日) for a week; the full date for a day. */
export function bucketLabel(bucket: Pick<ReportBucket, "from" | "to">, group: string): string {
  if (group === "month") {
    const [year, month] = bucket.from.split("-");
    return `${Number(year)}年${Number(month)}月`;
  }
  if (group === "week") {
    return `${formatMonthDayWeekday(bucket.from)}〜${formatMonthDayWeekday(bucket.to)}`;
  }
  return formatDate(bucket.from);
}

/** Short labels under a chart's bars. */
function shortLabel(bucket: ReportBucket, group: string) {
  const [, month, day] = bucket.from.split("-");
  if (group === "month") return `${Number(month)}月`;
  return `${Number(month)}/${Number(day)}`;
}

const hourLabel = (hour: number) => `${hour}時台`;

/** Every hour from the first to the last with bookings (none between: no bar), for the chart. */
function hourRange(hours: readonly ReportHour[]) {
  const first = hours[0]?.hour ?? 0;
  const last = hours[hours.length - 1]?.hour ?? -1;
  const byHour = new Map(hours.map((hour) => [hour.hour, hour]));
  return Array.from({ length: last - first + 1 }, (_, index) => {
    const hour = first + index;
    return byHour.get(hour) ?? { hour, medianLeadHours: null };
  });
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A table in its own sideways-scrolling region, captioned (the caption names the region). */
function ReportTable({
  id,
  caption,
  head,
  children,
  minWidth = "min-w-[32rem]",
}: {
  id: string;
  caption: string;
  head: readonly string[];
  children: ReactNode;
  minWidth?: string;
}) {
  return (
    <ScrollRegion aria-labelledby={`${id}-caption`} className="border border-neutral-200">
      <table className={`${tableClass} ${minWidth}`}>
        <caption id={`${id}-caption`} className="sr-only">
          {caption}
        </caption>
        <thead>
          <tr>
            {head.map((label, index) => (
              <th
                key={label}
                scope="col"
                className={`${headCellClass} ${index > 0 ? "text-right" : ""}`}
              >
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollRegion>
  );
}

const numberCell = `${cellClass} text-right tabular-nums`;

function Row({ head, cells }: { head: ReactNode; cells: readonly ReactNode[] }) {
  return (
    <tr>
      <th scope="row" className={`${cellClass} font-normal`}>
        {head}
      </th>
      {cells.map((cell, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns
        <td key={index} className={numberCell}>
          {cell}
        </td>
      ))}
    </tr>
  );
}

function PeriodForm({ data }: { data: ReportsData }) {
  const { salon, values, errors } = data;
  const errorOf = (field: string) => errors.find((error) => error.field === field)?.message;
  const summary = Object.fromEntries(
    errors.map((error) => [
      error.field,
      `${error.message}（入力：「${values[error.field] || "なし"}」）`,
    ]),
  );
  const groupOptions = [
    { value: "day", label: "日ごと" },
    { value: "week", label: "週ごと（月曜始まり）" },
    { value: "month", label: "月ごと" },
  ];
  return (
    <Form
      method="get"
      action={`/owner/salons/${salon.id}/reports`}
      aria-label="集計する期間"
      className="flex flex-col gap-3 rounded-lg border border-neutral-200 p-4"
    >
      <ErrorSummary errors={summary} />
      {errors.length > 0 ? (
        <p className="text-sm">下は今月の集計です。期間を直して「集計する」を押してください。</p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          id="report-from"
          name="from"
          type="date"
          label="開始日"
          defaultValue={values.from}
          error={errorOf("from")}
          required
        />
        <TextField
          id="report-to"
          name="to"
          type="date"
          label="終了日"
          hint="366日まで"
          defaultValue={values.to}
          error={errorOf("to")}
          required
        />
        <SelectField
          id="report-group"
          name="group"
          label="集計の単位"
          options={groupOptions}
          defaultValue={
            groupOptions.some((option) => option.value === values.group) ? values.group : "day"
          }
          error={errorOf("group")}
        />
      </div>
      <div>
        <button type="submit" className={buttonClass}>
          集計する
        </button>
      </div>
    </Form>
  );
}

function Totals({ data }: { data: ReportsData }) {
  const { totals, cancellations } = data.report;
  const items: [string, string][] = [
    ["予約金額", formatYen(totals.bookedAmount)],
    ["完了金額（売上）", formatYen(totals.completedAmount)],
    // Sales come from 会計 where it was saved (decision 0079); the rest is the booked price.
    ["うち会計登録済み", `${formatYen(totals.paidAmount)}（${formatCount(totals.paidCount)}）`],
    [
      "うち会計未登録（予約金額による見込み）",
      `${formatYen(totals.unpaidAmount)}（${formatCount(totals.unpaidCount)}）`,
    ],
    ["予約件数", formatCount(totals.bookedCount)],
    ["完了件数", formatCount(totals.completedCount)],
    ["稼働率", formatUtilisation(totals.utilisation)],
    ["キャンセル", formatCount(totals.cancelledCount)],
    [cancelLabels.noShow, formatCount(cancellations.noShow)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-lg bg-neutral-100 p-3">
          <dt className="text-sm text-neutral-700">{label}</dt>
          <dd className="text-base font-bold tabular-nums [overflow-wrap:anywhere] sm:text-lg">
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Series({ data }: { data: ReportsData }) {
  const { buckets, query } = data.report;
  const top = buckets.reduce((best, bucket) => Math.max(best, bucket.bookedAmount), 0);
  const busiest = buckets.find((bucket) => bucket.bookedAmount === top && top > 0);
  const unit = { day: "日", week: "週", month: "月" }[query.group];
  return (
    <Section id="report-series" title={`${unit}ごとの売上と稼働率`}>
      <ColumnChart
        title={`${unit}ごとの予約金額（うち完了金額）と稼働率`}
        description={
          busiest
            ? `${buckets.length}${{ day: "日", week: "週", month: "か月" }[query.group]}分。最も多いのは${bucketLabel(busiest, query.group)}の${formatYen(busiest.bookedAmount)}。数値は下の表にあります。`
            : "この期間の予約はありません。"
        }
        bars={buckets.map((bucket) => ({
          key: bucket.from,
          label: shortLabel(bucket, query.group),
          value: bucket.bookedAmount,
          inner: bucket.completedAmount,
          line: bucket.utilisation,
        }))}
        formatLeft={formatYenTick}
        leftTitle="予約金額（円）"
        formatRight={(value) => `${Math.round(value * 100)}%`}
        rightTitle="稼働率（%）"
        rightMin={1}
        legend={[
          { kind: "bar", label: "予約金額（確定・完了）" },
          { kind: "inner", label: "うち完了した金額" },
          { kind: "line", label: "稼働率（右の目盛り）" },
        ]}
      />
      <ReportTable
        id="report-series-table"
        caption={`${unit}ごとの予約件数・金額・稼働率`}
        head={[
          "期間",
          "予約件数",
          "予約金額",
          "完了金額",
          "稼働率",
          "キャンセル",
          cancelLabels.noShow,
        ]}
        minWidth="min-w-[44rem]"
      >
        {buckets.map((bucket) => (
          <Row
            key={bucket.from}
            head={bucketLabel(bucket, query.group)}
            cells={[
              formatCount(bucket.bookedCount),
              formatYen(bucket.bookedAmount),
              formatYen(bucket.completedAmount),
              formatUtilisation(bucket.utilisation),
              formatCount(bucket.cancelledCount),
              formatCount(bucket.noShowCount),
            ]}
          />
        ))}
      </ReportTable>
    </Section>
  );
}

function Stylists({ data }: { data: ReportsData }) {
  const { stylists, totals } = data.report;
  return (
    <Section id="report-stylists" title="スタッフ別">
      {stylists.length === 0 ? (
        <p>スタッフがいません。</p>
      ) : (
        <RowChart
          title="スタッフ別の稼働率"
          description={`全体の稼働率は${formatUtilisation(totals.utilisation)}。スタッフごとの数値は下の表にあります。`}
          bars={stylists.map((stylist) => ({
            key: stylist.staffId,
            label: stylist.staffName,
            value: stylist.utilisation ?? 0,
          }))}
          max={Math.max(1, ...stylists.map((stylist) => stylist.utilisation ?? 0))}
          formatValue={(value) => percent.format(value)}
        />
      )}
      <ReportTable
        id="report-stylists-table"
        caption="スタッフ別の予約件数・金額・稼働率"
        head={["スタッフ", "予約件数", "予約金額", "完了金額", "予約時間", "勤務予定", "稼働率"]}
        minWidth="min-w-[44rem]"
      >
        {stylists.map((stylist) => (
          <Row
            key={stylist.staffId}
            head={`${stylist.staffName}${stylist.active ? "" : "（退職・非表示）"}`}
            cells={[
              formatCount(stylist.bookedCount),
              formatYen(stylist.bookedAmount),
              formatYen(stylist.completedAmount),
              formatHours(stylist.bookedMinutes),
              formatHours(stylist.scheduledMinutes),
              formatUtilisation(stylist.utilisation),
            ]}
          />
        ))}
        <Row
          head="合計"
          cells={[
            formatCount(totals.bookedCount),
            formatYen(totals.bookedAmount),
            formatYen(totals.completedAmount),
            formatHours(totals.bookedMinutes),
            formatHours(totals.scheduledMinutes),
            formatUtilisation(totals.utilisation),
          ]}
        />
      </ReportTable>
      <p className="text-sm text-neutral-700">
        稼働率＝予約時間（確定・完了の予約の開始から終了まで）÷勤務予定（週の勤務時間、日付ごとの例外、休業日・祝日を反映）。勤務時間外の予約があると100%を超えることがあります。
      </p>
      <StylistFigures data={data} />
    </Section>
  );
}

/** 指名数・指名率, 新規/再来, 客単価, 技術/店販 per stylist (decision 0082). */
function StylistFigures({ data }: { data: ReportsData }) {
  const { stylists } = data.report;
  return (
    <>
      <h3 id="report-stylist-figures" className="text-lg font-bold">
        スタッフ別の指標
      </h3>
      <ReportTable
        id="report-stylist-figures-table"
        caption="スタッフ別の指名数・指名率・新規と再来・客単価・技術と店販の売上"
        head={[
          "スタッフ",
          "指名数",
          "指名率",
          "新規",
          "再来",
          "来店数",
          "客単価",
          "技術売上",
          "店販売上",
          "会計未登録",
        ]}
        minWidth="min-w-[56rem]"
      >
        {stylists.map((stylist) => (
          <Row
            key={stylist.staffId}
            head={`${stylist.staffName}${stylist.active ? "" : "（退職・非表示）"}`}
            cells={[
              formatCount(stylist.nominatedCount),
              formatUtilisation(stylist.nominationRate),
              `${stylist.newCustomers}人`,
              `${stylist.returningCustomers}人`,
              formatCount(stylist.completedCount),
              stylist.averageSpend === null ? "—" : formatYen(stylist.averageSpend),
              formatYen(stylist.serviceAmount),
              formatYen(stylist.retailAmount),
              stylist.unpaidCount > 0
                ? `${formatCount(stylist.unpaidCount)}（${formatYen(stylist.unpaidAmount)}）`
                : "—",
            ]}
          />
        ))}
      </ReportTable>
      <p className="text-sm text-neutral-700">
        指名数は確定・完了の予約のうちお客様がスタッフを指名したもの、指名率＝指名数÷予約件数。新規はサロンへの初めての来店（確定・完了の最初の予約）がこの期間にこのスタッフだったお客様、再来はそれ以外の来店があったお客様の人数です。客単価＝完了金額（売上）÷来店数（完了）。店販売上は会計の店販商品、技術売上は会計のそれ以外（割引を含む）と、会計未登録の完了予約の予約時の金額（見込み）です。
      </p>
    </>
  );
}

function Menus({ data }: { data: ReportsData }) {
  const { menus } = data.report;
  return (
    <Section id="report-menus" title="メニュー別">
      {menus.length === 0 ? (
        <p>この期間のメニューの予約はありません。</p>
      ) : (
        <ReportTable
          id="report-menus-table"
          caption="メニュー別の予約件数と金額（予約時の名前と価格）"
          head={["メニュー", "予約件数", "予約金額", "完了件数", "完了金額"]}
        >
          {menus.map((item) => (
            <Row
              key={item.menuId}
              head={item.name}
              cells={[
                formatCount(item.bookedCount),
                formatYen(item.bookedAmount),
                formatCount(item.completedCount),
                formatYen(item.completedAmount),
              ]}
            />
          ))}
        </ReportTable>
      )}
      <p className="text-sm text-neutral-700">
        金額はメニューの予約時の価格です（クーポンの割引や指名料は含みません）。
      </p>
    </Section>
  );
}

/** By coupon and by its target 新規・再来・全員 (decision 0087). */
function Coupons({ data }: { data: ReportsData }) {
  const { coupons, couponTargets } = data.report;
  const targetLabel = (target: CouponTarget | "none" | null) =>
    target === null || target === "none" ? "クーポンなし" : couponTargetLabels[target];
  return (
    <Section id="report-coupons" title="クーポン別">
      <ReportTable
        id="report-coupon-targets-table"
        caption="クーポンの対象（新規・再来・全員）別の予約件数と売上"
        head={["対象", "予約件数", "予約金額", "完了件数", "売上"]}
      >
        {couponTargets.map((item) => (
          <Row
            key={item.target}
            head={targetLabel(item.target)}
            cells={[
              formatCount(item.bookedCount),
              formatYen(item.bookedAmount),
              formatCount(item.completedCount),
              formatYen(item.completedAmount),
            ]}
          />
        ))}
      </ReportTable>
      {coupons.length === 0 ? (
        <p>この期間の予約はありません。</p>
      ) : (
        <ReportTable
          id="report-coupons-table"
          caption="クーポン別の予約件数と売上"
          head={["クーポン", "予約件数", "予約金額", "完了件数", "売上"]}
        >
          {coupons.map((item) => (
            <Row
              key={item.couponId ?? "none"}
              head={item.couponId ? `【${targetLabel(item.target)}】${item.title}` : item.title}
              cells={[
                formatCount(item.bookedCount),
                formatYen(item.bookedAmount),
                formatCount(item.completedCount),
                formatYen(item.completedAmount),
              ]}
            />
          ))}
        </ReportTable>
      )}
      <p className="text-sm text-neutral-700">
        金額は割引後の予約金額、売上は完了した予約の合計です。対象はクーポンの現在の設定で数えます。
      </p>
    </Section>
  );
}

function Cancellations({ data }: { data: ReportsData }) {
  const { cancellations } = data.report;
  const rows: [string, number][] = [
    [cancelLabels.customer, cancellations.customer],
    [cancelLabels.customer_advance, cancellations.customer_advance],
    [cancelLabels.customer_same_day, cancellations.customer_same_day],
    [cancelLabels.no_contact, cancellations.no_contact],
    [cancelLabels.salon, cancellations.salon],
    [cancelLabels.noShow, cancellations.noShow],
  ];
  return (
    <Section id="report-cancellations" title="キャンセル・来店なし">
      <ReportTable
        id="report-cancellations-table"
        caption="キャンセルの区分ごとの件数と来店なし"
        head={["区分", "件数"]}
        minWidth="min-w-[16rem]"
      >
        {rows.map(([label, value]) => (
          <Row key={label} head={label} cells={[formatCount(value)]} />
        ))}
      </ReportTable>
    </Section>
  );
}

function Customers({ data }: { data: ReportsData }) {
  const { customers } = data.report;
  return (
    <Section id="report-customers" title="新規・再来">
      <ReportTable
        id="report-customers-table"
        caption="新規と再来のお客様の人数と予約件数"
        head={["区分", "人数", "予約件数"]}
        minWidth="min-w-[20rem]"
      >
        <Row
          head="新規"
          cells={[`${customers.newCustomers}人`, formatCount(customers.newBookings)]}
        />
        <Row
          head="再来"
          cells={[`${customers.returningCustomers}人`, formatCount(customers.returningBookings)]}
        />
        {customers.unknownBookings > 0 ? (
          <Row head="顧客情報なし" cells={["—", formatCount(customers.unknownBookings)]} />
        ) : null}
      </ReportTable>
      <p className="text-sm text-neutral-700">
        新規＝このサロンで初めての来店（確定・完了の予約）、再来＝2回目以降の来店。期間より前に来店したことのあるお客様は再来です。期間内に初めて来店して再び来たお客様は、新規と再来の両方に数えます。統合した顧客は統合先の1人として数えます。
      </p>
    </Section>
  );
}

function Hours({ data }: { data: ReportsData }) {
  const { hours, weekdays } = data.report;
  const ranked = hours
    .filter((hour): hour is ReportHour & { rank: number } => hour.rank !== null)
    .sort((x, y) => x.rank - y.rank);
  const first = ranked[0];
  const weekdayRow = (row: ReportWeekday) => (
    <Row
      key={row.weekday}
      head={`${weekdayNames[row.weekday]}曜日`}
      cells={[
        formatCount(row.bookings),
        formatCount(row.bookedAhead),
        formatLead(row.medianLeadHours),
      ]}
    />
  );
  return (
    <Section id="report-hours" title="埋まりやすい時間帯">
      <p className="text-sm text-neutral-700">
        予約が入ってから来店までの時間（中央値）が長い時間帯ほど、早く埋まります。当日の来店（ウォークイン）は除きます。
      </p>
      {ranked.length === 0 ? (
        <p>この期間の事前予約はありません。</p>
      ) : (
        <>
          <ColumnChart
            title="開始時刻ごとの、予約から来店までの時間（中央値）"
            description={
              first
                ? `最も早く埋まるのは${hourLabel(first.hour)}で、中央値${formatLead(first.medianLeadHours)}前に予約されています。数値は下の表にあります。`
                : ""
            }
            bars={hourRange(hours).map((hour) => ({
              key: String(hour.hour),
              label: `${hour.hour}時`,
              value: hour.medianLeadHours ?? 0,
            }))}
            formatLeft={(value) => String(value)}
            leftTitle="予約から来店まで（時間）"
          />
          <ReportTable
            id="report-hours-table"
            caption="埋まりやすい順の時間帯（予約から来店までの時間の中央値）"
            head={["時間帯", "順位", "予約件数", "うち事前予約", "予約から来店まで（中央値）"]}
            minWidth="min-w-[36rem]"
          >
            {ranked.map((hour) => (
              <Row
                key={hour.hour}
                head={hourLabel(hour.hour)}
                cells={[
                  `${hour.rank}位`,
                  formatCount(hour.bookings),
                  formatCount(hour.bookedAhead),
                  formatLead(hour.medianLeadHours),
                ]}
              />
            ))}
          </ReportTable>
        </>
      )}
      {weekdays.length > 0 ? (
        <ReportTable
          id="report-weekdays-table"
          caption="曜日ごとの予約件数と予約から来店までの時間（中央値）"
          head={["曜日", "予約件数", "うち事前予約", "予約から来店まで（中央値）"]}
        >
          {weekdays.map(weekdayRow)}
        </ReportTable>
      ) : null}
    </Section>
  );
}

/**
 * /owner/salons/{id}/reports: the period form (GET, works without
 * JavaScript), the CSV links, the totals, and each figure as a chart with
 * its table.
 */
export function ReportsPage({ data }: { data: ReportsData }) {
  const { salon, report } = data;
  const { query } = report;
  const period = new URLSearchParams({ from: query.from, to: query.to });
  const csv = `/owner/salons/${salon.id}/bookings.csv?${period}`;
  return (
    <OwnerPage title="レポート">
      <PeriodForm data={data} />
      <p className="font-bold" aria-live="polite">
        集計期間：{formatDate(query.from)}〜{formatDate(query.to)}
      </p>
      <ul className="flex flex-wrap gap-x-6 gap-y-2">
        <li>
          <a href={csv} download className={linkClass}>
            予約データをCSVでダウンロード
          </a>
          <span className="text-sm text-neutral-700">（この期間）</span>
        </li>
        <li>
          <a
            href={`/owner/salons/${salon.id}/stylists.csv?${period}`}
            download
            className={linkClass}
          >
            スタッフ別の指標をCSVでダウンロード
          </a>
          <span className="text-sm text-neutral-700">（この期間）</span>
        </li>
        <li>
          <a
            href={`/owner/salons/${salon.id}/coupons.csv?${period}`}
            download
            className={linkClass}
          >
            クーポン別の集計をCSVでダウンロード
          </a>
          <span className="text-sm text-neutral-700">（この期間）</span>
        </li>
        <li>
          <a href={`/owner/salons/${salon.id}/customers.csv`} download className={linkClass}>
            顧客一覧をCSVでダウンロード
          </a>
        </li>
      </ul>
      <Totals data={data} />
      <p className="text-sm text-neutral-700">
        予約金額・件数は確定（承認待ちの仮予約を含む）と完了の予約、完了金額（売上）は完了した予約の合計（税込）で、会計を登録した予約は実際のお支払い（店販を含む）、会計未登録の予約は予約時の金額（見込み）で数えます。メニュー別は予約時の価格です。日付はサロンの現地時刻で数えます。
      </p>
      <Series data={data} />
      <Stylists data={data} />
      <Menus data={data} />
      <Coupons data={data} />
      {/* grid-cols-1: an implicit column grows to its widest table (a phone scrolled sideways). */}
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <Cancellations data={data} />
        <Customers data={data} />
      </div>
      <Hours data={data} />
    </OwnerPage>
  );
}
