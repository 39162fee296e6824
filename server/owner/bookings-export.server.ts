import { and, asc, eq, gte, lt, ne, sql } from "drizzle-orm";
import {
  type CheckoutMethod,
  checkoutMethodLabels,
  type PaymentMethod,
  taxIncluded,
} from "../../common/checkout";
import { couponTargetLabels } from "../../common/coupon-eligibility";
import {
  addDays,
  formatMinutes,
  type LocalDate,
  LocalDay,
  localToInstant,
  toLocal,
} from "../../common/local-time";
import { staffBookingLabel } from "../../common/status-labels";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import {
  type BookingSource,
  bookingMenus,
  bookings,
  checkoutPayments,
  checkouts,
  coupons,
  staff,
} from "../db/schema";
import type { SalonAccess } from "../salon-access/salon-access.server";
import { cancelCategoryLabels } from "./booking-actions.schema";
import { type BookingsExportRange, parseBookingsExportQuery } from "./bookings-export.schema";
import { type CsvValue, csvStream } from "./csv.server";

/**
 * The salon's bookings of a period as CSV for its accountant (issue 29,
 * point 5; decision 0049): one row per booking (not blocked time, not a
 * visitor's hold) whose start falls on the period's local dates in the
 * salon's zone, opened correctly by Japanese Excel (csv.server.ts: UTF-8
 * with BOM, CRLF, formulas defused). Streamed in keyset pages of 500 by
 * (starts_at, id), so memory does not grow with the period. Audited with
 * the period: who took which bookings, and when.
 *
 * The menus are the booking's own copy (booking_menus: name and price as
 * booked), so a menu renamed or retired since shows what was booked.
 * 定価 is those prices plus the 指名料; 割引 is 定価 − 金額 (a coupon's
 * discount), so 定価 − 割引 = 金額 on every row. Prices are tax included
 * (総額表示); the tax inside is floor(金額 × 10 / 110), rounded down as the
 * receipt's 内消費税 usually is. The last four columns are the 会計 (decision
 * 0079): what was actually paid and how, or 会計未登録 for a completed visit
 * without one (its 金額 then is the booked price, an estimate).
 */

const PAGE = 500;

export const bookingsCsvHeader = [
  "日付",
  "開始",
  "終了",
  "予約番号",
  "お客様名",
  "フリガナ",
  "予約経路",
  "メニュー",
  "スタッフ",
  "指名",
  "クーポン",
  // 新規・再来・全員, and the visitor's 学割 statement (decision 0087).
  "クーポン対象",
  "学割",
  "定価",
  "割引",
  "金額",
  "税込金額のうち消費税（10%）",
  "ステータス",
  "キャンセル区分",
  // 会計 (decision 0079): what was actually paid, where the salon saved it.
  "会計",
  "会計金額",
  "会計金額のうち消費税（10%）",
  "支払方法",
] as const;

const sourceLabels: Record<BookingSource, string> = {
  web: "ネット",
  phone: "電話",
  walk_in: "来店",
};

/** The booking's menus as booked, in order, joined with 「、」 (null without menus). */
const menuNames = sql<string | null>`(
  select string_agg(${bookingMenus.name}, '、' order by ${bookingMenus.position})
  from ${bookingMenus}
  where ${bookingMenus.salonId} = ${bookings.salonId} and ${bookingMenus.bookingId} = ${bookings.id}
)`;

/** The sum of the booking's menus' prices as booked. */
const menuListPrice = sql<number>`(
  select coalesce(sum(${bookingMenus.price}), 0)::integer
  from ${bookingMenus}
  where ${bookingMenus.salonId} = ${bookings.salonId} and ${bookingMenus.bookingId} = ${bookings.id}
)`.mapWith(Number);

/** 内消費税, now common/checkout.ts's (the 領収書 computes it too); exported here as before. */
export { taxIncluded };

/** A 組み合わせ's parts as "cash:5000,card:5450", largest first. */
const paymentParts = sql<string | null>`(
  select string_agg(${checkoutPayments.method} || ':' || ${checkoutPayments.amount}, ',' order by ${checkoutPayments.amount} desc)
  from ${checkoutPayments}
  where ${checkoutPayments.salonId} = ${checkouts.salonId} and ${checkoutPayments.checkoutId} = ${checkouts.id}
)`;

function methodLabel(method: CheckoutMethod | null, parts: string | null): string {
  if (!method) return "";
  if (method !== "split" || !parts) return checkoutMethodLabels[method];
  const each = parts.split(",").map((part) => {
    const [name, amount] = part.split(":");
    const label = checkoutMethodLabels[name as PaymentMethod] ?? name;
    return `${label} ${Number(amount).toLocaleString("ja-JP")}円`;
  });
  return `${checkoutMethodLabels.split}（${each.join("・")}）`;
}

/**
 * toLocal for instants read in order (the rows come by start): the day of
 * the last answer is kept, and an instant on that day is read from its
 * offsets (LocalDay) without asking Intl, which costs ~10 µs a call and
 * would otherwise be a quarter of a year's export. Another day: toLocal.
 */
function localClock(timeZone: string) {
  let day: LocalDay | null = null;
  return (instant: Date): { date: LocalDate; time: string } => {
    const ms = instant.getTime();
    const minutes = day ? day.minutesAt(ms) : -1;
    if (day && minutes >= 0 && minutes < 1440) {
      return { date: day.date, time: formatMinutes(minutes) };
    }
    const local = toLocal(instant, timeZone);
    day = new LocalDay(local.date, timeZone);
    return local;
  };
}

/** bookings-20261101-20261130.csv */
export function bookingsCsvFilename(range: BookingsExportRange): string {
  return `bookings-${range.from.replaceAll("-", "")}-${range.to.replaceAll("-", "")}.csv`;
}

/**
 * The file as a stream of UTF-8 bytes, with the audit entry (and the
 * period) written first: the entry stays even if the download is abandoned.
 */
export async function bookingsCsv(
  db: Database,
  access: SalonAccess,
  range: BookingsExportRange,
  now: Date,
): Promise<ReadableStream<Uint8Array>> {
  const salonId = access.salon.id;
  const timeZone = access.salon.timeZone;
  await db.transaction((tx) =>
    recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "bookings.export",
        targetType: "salon",
        targetId: salonId,
        salonId,
        after: { from: range.from, to: range.to },
      },
      now,
    ),
  );
  // Local midnight of the first day up to local midnight after the last.
  const start = localToInstant(range.from, "00:00", timeZone);
  const end = localToInstant(addDays(range.to, 1), "00:00", timeZone);
  // The last row's (starts_at, id); starts_at as PostgreSQL's own text (with
  // its offset and microseconds), so the next page starts exactly after it.
  let after: { at: string; id: string } | null = null;
  let done = false;
  const local = localClock(timeZone);

  return csvStream(bookingsCsvHeader, async () => {
    if (done) return null;
    const rows = await db
      .select({
        id: bookings.id,
        cursor: sql<string>`${bookings.startsAt}::text`,
        startsAt: bookings.startsAt,
        endsAt: bookings.endsAt,
        bookingNumber: bookings.bookingNumber,
        customerName: bookings.customerName,
        customerKana: bookings.customerKana,
        source: bookings.source,
        staffName: staff.name,
        staffRequested: bookings.staffRequested,
        coupon: coupons.title,
        couponTarget: coupons.target,
        studentDeclared: bookings.studentDeclared,
        nominationFee: bookings.nominationFee,
        totalPrice: bookings.totalPrice,
        status: bookings.status,
        approval: bookings.approval,
        arrivedAt: bookings.arrivedAt,
        cancelCategory: bookings.cancelCategory,
        menus: menuNames,
        menuPrice: menuListPrice,
        paidTotal: checkouts.total,
        paidTax: checkouts.tax,
        paidMethod: checkouts.method,
        paidParts: paymentParts,
      })
      .from(bookings)
      .innerJoin(staff, eq(staff.id, bookings.staffId))
      .leftJoin(coupons, eq(coupons.id, bookings.couponId))
      .leftJoin(
        checkouts,
        and(eq(checkouts.salonId, bookings.salonId), eq(checkouts.bookingId, bookings.id)),
      )
      .where(
        and(
          eq(bookings.salonId, salonId),
          eq(bookings.kind, "booking"),
          ne(bookings.status, "held"),
          after
            ? sql`${bookings.startsAt} >= ${after.at}::timestamptz and (${bookings.startsAt}, ${bookings.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
            : gte(bookings.startsAt, start),
          lt(bookings.startsAt, end),
        ),
      )
      .orderBy(asc(bookings.startsAt), asc(bookings.id))
      .limit(PAGE);
    const last = rows.at(-1);
    if (!last) return null;
    after = { at: last.cursor, id: last.id };
    if (rows.length < PAGE) done = true;
    return rows.map((row): CsvValue[] => {
      const begins = local(row.startsAt);
      const listPrice = row.menuPrice + row.nominationFee;
      return [
        begins.date,
        begins.time,
        local(row.endsAt).time,
        row.bookingNumber,
        row.customerName,
        row.customerKana,
        sourceLabels[row.source] ?? row.source,
        row.menus ?? "",
        row.staffName,
        row.staffRequested ? "指名あり" : "指名なし",
        row.coupon ?? "",
        row.couponTarget ? couponTargetLabels[row.couponTarget] : "",
        row.studentDeclared ? "学生" : "",
        listPrice,
        listPrice - row.totalPrice,
        row.totalPrice,
        taxIncluded(row.totalPrice),
        staffBookingLabel({ ...row, arrived: row.arrivedAt !== null }),
        // The reason the salon recorded, else the customer's own (web) cancellation.
        row.cancelCategory && row.status.startsWith("cancelled_")
          ? cancelCategoryLabels[row.cancelCategory]
          : row.status === "cancelled_by_user"
            ? "お客様"
            : "",
        row.paidTotal !== null
          ? "会計済み"
          : row.status === "completed"
            ? "会計未登録（金額は予約時の見込み）"
            : "",
        row.paidTotal ?? "",
        row.paidTax ?? "",
        methodLabel(row.paidMethod, row.paidParts),
      ];
    });
  });
}

/**
 * What the route answers: the file, or a 400 in Japanese plain text saying
 * what is wrong with the period and how to write it (never a 5xx).
 */
export async function bookingsExportResponse(
  db: Database,
  access: SalonAccess,
  url: URL,
  now: Date,
): Promise<Response> {
  const parsed = parseBookingsExportQuery(url.searchParams);
  if (!parsed.ok) {
    return new Response(`${parsed.messages.join("\n")}\n`, {
      status: 400,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "private, no-store",
      },
    });
  }
  const body = await bookingsCsv(db, access, parsed.range, now);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${bookingsCsvFilename(parsed.range)}"`,
      "cache-control": "private, no-store",
    },
  });
}
