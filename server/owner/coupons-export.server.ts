import { couponTargetLabels } from "../../common/coupon-eligibility";
import type { Database } from "../db/client";
import type { SalonAccess } from "../salon-access/salon-access.server";
import { parseBookingsExportQuery } from "./bookings-export.schema";
import { type CsvValue, csvStream } from "./csv.server";
import { salonReport } from "./reports.server";

/**
 * The coupon figures of a period as CSV (issue 41, §4; decision 0087): the
 * reports page's クーポン別, first one row per target (新規・再来・全員,
 * クーポンなし), then one per coupon, through the one CSV writer. No
 * customer's personal data is in it, so like the stylists' file it is not
 * audited; reports.read may take it.
 */

export const couponsCsvHeader = [
  "期間開始",
  "期間終了",
  "集計",
  "対象",
  "クーポン",
  "予約件数",
  "予約金額",
  "来店数（完了）",
  "売上",
] as const;

const HOW =
  "クーポン別のCSVは、期間の開始日（from）と終了日（to）を YYYY-MM-DD の形式で指定して書き出します（例: ?from=2026-11-01&to=2026-11-30）。";

/** The file, or a Japanese 400 for a bad or missing period. */
export async function couponsExportResponse(
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
  const label = (target: keyof typeof couponTargetLabels | "none" | null) =>
    target === null || target === "none" ? "クーポンなし" : couponTargetLabels[target];
  let sent = false;
  const body = csvStream(couponsCsvHeader, async () => {
    if (sent) return null;
    sent = true;
    return [
      ...report.couponTargets.map((row): CsvValue[] => [
        range.from,
        range.to,
        "対象別",
        label(row.target),
        "",
        row.bookedCount,
        row.bookedAmount,
        row.completedCount,
        row.completedAmount,
      ]),
      ...report.coupons.map((row): CsvValue[] => [
        range.from,
        range.to,
        "クーポン別",
        label(row.target),
        row.couponId ? row.title : "",
        row.bookedCount,
        row.bookedAmount,
        row.completedCount,
        row.completedAmount,
      ]),
    ];
  });
  const name = `coupons-${range.from.replaceAll("-", "")}-${range.to.replaceAll("-", "")}.csv`;
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "private, no-store",
    },
  });
}
