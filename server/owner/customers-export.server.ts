import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { recordAudit } from "../admin/audit";
import type { Database } from "../db/client";
import { salonCustomers } from "../db/schema";
import { customerStats } from "./customers.server";
import type { SalonAccess } from "./salon-access.server";

/**
 * The salon's customers as CSV for its own CRM (issue 29, point 5, the
 * customers' half): one row per person (top records; merged records counted
 * in), opened correctly by Japanese Excel (UTF-8 with BOM, CRLF). Streamed
 * in pages of 500 by id, so memory does not grow with the salon. The export
 * is audited: who took the salon's customer list, and when.
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
  "サロン都合キャンセル",
  "お客様都合（当日連絡）",
  "無断キャンセル（連絡なし）",
  "無断キャンセル（来店なし）",
  "メモ",
];

/**
 * One CSV field: quoted when it must be, and a text that a spreadsheet would
 * run as a formula (=, +, -, @, tab, CR) is given a leading apostrophe.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (fields: (string | number)[]) => `${fields.map(csvField).join(",")}\r\n`;

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
  const encoder = new TextEncoder();
  let after: string | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${line(header)}`));
        return;
      }
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
      if (rows.length === 0) {
        controller.close();
        return;
      }
      after = rows.at(-1)?.id ?? null;
      const stats = await customerStats(
        db,
        salonId,
        rows.map((row) => row.id),
        now,
      );
      let chunk = "";
      for (const row of rows) {
        const s = stats.get(row.id);
        chunk += line([
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
          s?.cancelledBySalon.salon ?? 0,
          s?.cancelledBySalon.customer_same_day ?? 0,
          s?.cancelledBySalon.no_contact ?? 0,
          s?.noShows ?? 0,
          row.notes,
        ]);
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}
