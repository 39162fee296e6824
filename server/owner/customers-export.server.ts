import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { salonCustomers } from "../db/schema";
import type { SalonAccess } from "../salon-access/salon-access.server";
import { csvStream } from "./csv.server";
import { customerStats } from "./customers.server";

/**
 * The salon's customers as CSV for its own CRM (issue 29, point 5, the
 * customers' half): one row per person (top records; merged records counted
 * in), opened correctly by Japanese Excel (UTF-8 with BOM, CRLF; csv.server.ts).
 * Streamed in pages of 500 by id, so memory does not grow with the salon. The
 * export is audited: who took the salon's customer list, and when.
 */

const PAGE = 500;

const header = [
  "氏名",
  "フリガナ",
  "電話番号",
  "メールアドレス",
  "会員",
  "来店回数",
  "最終来店日",
  "利用金額合計（円）",
  "今後の予約",
  "お客様キャンセル",
  "お客様都合（事前連絡）",
  "サロン都合キャンセル",
  "お客様都合（当日連絡）",
  "無断キャンセル（連絡なし）",
  "無断キャンセル（来店なし）",
  "メモ",
];

/** The CSV as a stream of UTF-8 bytes, with the audit entry written first. */
export async function customersCsv(
  db: Database,
  access: SalonAccess,
  now: Date,
): Promise<ReadableStream<Uint8Array>> {
  const salonId = access.salon.id;
  await db.transaction((tx) =>
    recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "customers.export",
        targetType: "salon",
        targetId: salonId,
        salonId,
      },
      now,
    ),
  );
  let after: string | null = null;
  return csvStream(header, async () => {
    const rows = await db
      .select()
      .from(salonCustomers)
      .where(
        and(
          eq(salonCustomers.salonId, salonId),
          isNull(salonCustomers.mergedIntoId),
          after ? gt(salonCustomers.id, after) : undefined,
        ),
      )
      .orderBy(asc(salonCustomers.id))
      .limit(PAGE);
    if (rows.length === 0) return null;
    after = rows.at(-1)?.id ?? null;
    const stats = await customerStats(
      db,
      salonId,
      rows.map((row) => row.id),
      now,
    );
    return rows.map((row) => {
      const s = stats.get(row.id);
      return [
        row.name,
        row.kana,
        row.phone,
        row.email,
        row.userId ? "会員" : "",
        s?.visits ?? 0,
        s?.lastVisitAt ? toLocal(new Date(s.lastVisitAt), access.salon.timeZone).date : "",
        s?.totalSpent ?? 0,
        s?.upcoming ?? 0,
        s?.cancelledByCustomer ?? 0,
        s?.cancelledBySalon.customer_advance ?? 0,
        s?.cancelledBySalon.salon ?? 0,
        s?.cancelledBySalon.customer_same_day ?? 0,
        s?.cancelledBySalon.no_contact ?? 0,
        s?.noShows ?? 0,
        row.notes,
      ];
    });
  });
}
