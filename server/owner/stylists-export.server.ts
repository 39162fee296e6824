import type { Database } from "../db/client";
import type { SalonAccess } from "../salon-access/salon-access.server";
import { parseBookingsExportQuery } from "./bookings-export.schema";
import { type CsvValue, csvStream } from "./csv.server";
import { type ReportStylist, salonReport } from "./reports.server";

/**
 * The stylist figures of a period as CSV (issue 40 §4; decision 0082): one
 * row per stylist, the same figures as the reports page's スタッフ別の指標
 * (salonReport), written through the one CSV writer (BOM, CRLF, formulas
 * defused). No customer's personal data is in it, so unlike the bookings'
 * and the customers' files it is not audited; reports.read may take it.
 */

export const stylistsCsvHeader = [
  "期間開始",
  "期間終了",
  "スタッフ",
  "予約件数",
  "指名数",
  "指名率（%）",
  "新規客数",
  "再来客数",
  "来店数（完了）",
  "売上",
  "技術売上",
  "店販売上",
  "会計未登録の件数",
  "会計未登録の金額（予約時の見込み）",
  "客単価",
] as const;

const HOW =
  "スタッフ別のCSVは、期間の開始日（from）と終了日（to）を YYYY-MM-DD の形式で指定して書き出します（例: ?from=2026-11-01&to=2026-11-30）。";

/** 指名率 as a percentage with one decimal, empty without bookings. */
const percent = (rate: number | null): CsvValue =>
  rate === null ? "" : Math.round(rate * 1000) / 10;

export function stylistsCsvRow(
  range: { from: string; to: string },
  stylist: ReportStylist,
): CsvValue[] {
  return [
    range.from,
    range.to,
    `${stylist.staffName}${stylist.active ? "" : "（退職・非表示）"}`,
    stylist.bookedCount,
    stylist.nominatedCount,
    percent(stylist.nominationRate),
    stylist.newCustomers,
    stylist.returningCustomers,
    stylist.completedCount,
    stylist.completedAmount,
    stylist.serviceAmount,
    stylist.retailAmount,
    stylist.unpaidCount,
    stylist.unpaidAmount,
    stylist.averageSpend ?? "",
  ];
}

/** The file, or a Japanese 400 for a bad or missing period. */
export async function stylistsExportResponse(
  db: Database,
  access: SalonAccess,
  url: URL,
): Promise<Response> {
  const parsed = parseBookingsExportQuery(url.searchParams, HOW);
  if (!parsed.ok) {
    return new Response(`${parsed.messages.join("\n")}\n`, {
      status: 400,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "private, no-store",
      },
    });
  }
  const { range } = parsed;
  const report = await salonReport(db, access.salon, { ...range, group: "month" });
  let sent = false;
  const body = csvStream(stylistsCsvHeader, async () => {
    if (sent) return null;
    sent = true;
    return report.stylists.map((stylist) => stylistsCsvRow(range, stylist));
  });
  const name = `stylists-${range.from.replaceAll("-", "")}-${range.to.replaceAll("-", "")}.csv`;
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "private, no-store",
    },
  });
}
