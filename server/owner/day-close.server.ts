import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import { type CheckoutMethod, checkoutMethodLabels } from "../../common/checkout";
import { dayCloseBounds } from "../../common/day-close";
import { formatDate, formatDateTime, formatYen } from "../../common/format";
import { addDays, type LocalDate, localToInstant, toLocal } from "../../common/local-time";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import { dayCloses, users } from "../db/schema";
import { sqlState, UNIQUE_VIOLATION } from "../db/sql-state";
import { DomainError } from "../errors/domain-error";
import { ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";
import { isPeriodDate } from "./period.schema";

/**
 * 日計 (end of day; issue 40 §4, decision 0082). A salon day is the local
 * date in the salon's zone; its 会計 are the checkouts saved on that day
 * (checkouts.created_at, by checkouts_salon_idx), whatever day the visit was
 * booked for, since that is when the money came in. The totals by method
 * add each 組み合わせ's parts to their methods (checkout_payments). Cash
 * expected = the opening float + the day's cash parts (お預かり − お釣り);
 * the counted cash is entered, and 過不足 = counted − expected. Online
 * refunds made that day are shown apart: they never touch the drawer.
 *
 * Closing (owner, manager, admin: capability dayclose.act) stores the
 * figures as they were then, with who and when, audited; a second close of
 * the same day is refused (two managers at once meet the primary key), and
 * a close whose figures moved since the page was read is refused so that
 * the cash is counted against what is stored. Reopening (audited) lets the
 * day be closed again.
 */

type Reader = Pick<Database, "execute">;

export type DayFigures = {
  checkoutCount: number;
  salesTotal: number;
  cashAmount: number;
  cardAmount: number;
  qrAmount: number;
  prepaidAmount: number;
  cashReceived: number;
  changeGiven: number;
  refundCount: number;
  refundAmount: number;
};

export type DayCheckout = {
  bookingId: string;
  bookingNumber: string;
  customerName: string;
  time: string;
  total: number;
  method: CheckoutMethod;
};

const int = z.coerce.number().int();
const figuresSchema = z.object({
  checkout_count: int,
  sales_total: int,
  cash_amount: int,
  card_amount: int,
  qr_amount: int,
  prepaid_amount: int,
  cash_received: int,
  change_given: int,
  refund_count: int,
  refund_amount: int,
  checkouts: z
    .array(
      z.object({
        booking_id: z.string(),
        booking_number: z.string(),
        customer_name: z.string(),
        created_at: z.string(),
        total: int,
        method: z.string(),
      }),
    )
    .nullable(),
});

/** The instants of a salon's local date: [its midnight, the next midnight). */
function dayBounds(date: LocalDate, timeZone: string) {
  return {
    from: localToInstant(date, "00:00", timeZone),
    to: localToInstant(addDays(date, 1), "00:00", timeZone),
  };
}

/** The day's figures, added up in one statement. */
export async function dayFigures(
  db: Reader,
  salonId: string,
  timeZone: string,
  date: LocalDate,
): Promise<DayFigures & { checkouts: DayCheckout[] }> {
  const { from, to } = dayBounds(date, timeZone);
  const fromAt = sql`${from.toISOString()}::timestamptz`;
  const toAt = sql`${to.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    with day as (
      select c.id, c.booking_id, c.total, c.method, c.cash_received, c.change, c.created_at
        from checkouts c
       where c.salon_id = ${salonId}::uuid and c.created_at >= ${fromAt} and c.created_at < ${toAt}
    ),
    parts as (
      select p.method, sum(p.amount)::bigint as amount
        from day join checkout_payments p on p.salon_id = ${salonId}::uuid and p.checkout_id = day.id
       group by p.method
    ),
    refunds as (
      select count(*)::int as n, coalesce(sum(r.amount), 0)::bigint as amount
        from payments r
       where r.salon_id = ${salonId}::uuid and r.kind = 'refund' and r.status = 'succeeded'
         and r.settled_at >= ${fromAt} and r.settled_at < ${toAt}
    )
    select json_build_object(
      'checkout_count', (select count(*) from day),
      'sales_total', (select coalesce(sum(total), 0) from day),
      'cash_amount', coalesce((select amount from parts where method = 'cash'), 0),
      'card_amount', coalesce((select amount from parts where method = 'card'), 0),
      'qr_amount', coalesce((select amount from parts where method = 'qr'), 0),
      'prepaid_amount', coalesce((select amount from parts where method = 'prepaid'), 0),
      'cash_received', (select coalesce(sum(cash_received), 0) from day),
      'change_given', (select coalesce(sum(change), 0) from day),
      'refund_count', (select n from refunds),
      'refund_amount', (select amount from refunds),
      'checkouts', (select json_agg(x order by x.created_at, x.booking_number) from (
          select day.booking_id, b.booking_number, b.customer_name, day.created_at, day.total,
                 day.method
            from day join bookings b on b.salon_id = ${salonId}::uuid and b.id = day.booking_id) x)
    )::text as figures`);
  const [row] = (result as unknown as { rows: { figures: string }[] }).rows;
  const f = figuresSchema.parse(JSON.parse(row?.figures ?? "{}"));
  return {
    checkoutCount: f.checkout_count,
    salesTotal: f.sales_total,
    cashAmount: f.cash_amount,
    cardAmount: f.card_amount,
    qrAmount: f.qr_amount,
    prepaidAmount: f.prepaid_amount,
    cashReceived: f.cash_received,
    changeGiven: f.change_given,
    refundCount: f.refund_count,
    refundAmount: f.refund_amount,
    checkouts: (f.checkouts ?? []).map((c) => ({
      bookingId: c.booking_id,
      bookingNumber: c.booking_number,
      customerName: c.customer_name,
      time: toLocal(new Date(c.created_at), timeZone).time,
      total: c.total,
      method: c.method as CheckoutMethod,
    })),
  };
}

/**
 * What the page and the close form agree on: the figures the cash was
 * counted against. A close whose fingerprint differs is refused.
 */
export const figuresFingerprint = (f: DayFigures) =>
  [
    f.checkoutCount,
    f.salesTotal,
    f.cashAmount,
    f.cardAmount,
    f.qrAmount,
    f.prepaidAmount,
    f.refundCount,
    f.refundAmount,
  ].join(":");

const sameFigures = (a: DayFigures, b: DayFigures) =>
  figuresFingerprint(a) === figuresFingerprint(b);

/** Half- or full-width digits, commas and a trailing 円; else null. */
function yenOf(raw: string): number | null {
  const text = raw
    .trim()
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[,，]/g, "")
    .replace(/円$/, "");
  if (!/^\d{1,12}$/.test(text)) return null;
  return Number(text);
}

const yenRange = (max: number) => `0〜${max.toLocaleString("ja-JP")}円`;

const DATE_MESSAGE = "日付は 2026-11-23 のような実在する日付（2000年〜2099年）で指定してください。";
const FUTURE_MESSAGE = "まだ来ていない日は締められません。今日までの日付を選んでください。";

/** The asked date (?date=), today when none; an error for a bad one. */
export function readDate(
  raw: string | null,
  today: LocalDate,
): { date: LocalDate; error: string | null } {
  const value = raw?.trim() ?? "";
  if (value === "") return { date: today, error: null };
  if (!isPeriodDate(value)) return { date: today, error: DATE_MESSAGE };
  return { date: value, error: null };
}

export type DayCloseInput = {
  date: string;
  openingFloat: string;
  countedCash: string;
  note: string;
  /** figuresFingerprint of what the page showed. */
  seen: string;
};

export type DayCloseErrors = Record<string, string>;

/** The entered amounts checked, field by field (Japanese messages). Pure. */
export function readCloseInput(
  input: DayCloseInput,
  today: LocalDate,
):
  | { ok: true; date: LocalDate; openingFloat: number; countedCash: number; note: string }
  | { ok: false; errors: DayCloseErrors } {
  const errors: DayCloseErrors = {};
  const date = input.date.trim();
  if (!isPeriodDate(date)) errors.date = DATE_MESSAGE;
  else if (date > today) errors.date = FUTURE_MESSAGE;
  const float = input.openingFloat.trim() === "" ? 0 : yenOf(input.openingFloat);
  const { openingFloat, countedCash, note } = dayCloseBounds;
  if (float === null || float > openingFloat.max) {
    errors.openingFloat = `釣銭準備金は${yenRange(openingFloat.max)}の整数（半角数字）で入力してください。`;
  }
  const counted = input.countedCash.trim() === "" ? null : yenOf(input.countedCash);
  if (input.countedCash.trim() === "") {
    errors.countedCash = "実際に数えた現金の額を入力してください。";
  } else if (counted === null || counted > countedCash.max) {
    errors.countedCash = `実際の現金は${yenRange(countedCash.max)}の整数（半角数字）で入力してください。`;
  }
  const text = input.note.trim();
  if (text.length > note.max) errors.note = `メモは${note.max}文字以内で入力してください。`;
  if (Object.keys(errors).length > 0 || float === null || counted === null) {
    return { ok: false, errors };
  }
  return { ok: true, date, openingFloat: float, countedCash: counted, note: text };
}

/** A close or reopen the day's state refuses (its Japanese message, the status to answer). */
export class DayCloseRefusedError extends DomainError {
  constructor(message: string, status: number) {
    super("day_close_refused", message, status);
  }
}

const ALREADY_CLOSED =
  "この日はすでに締められています。締め直すには、先に「締めを取り消す」を押してください。";
const MOVED =
  "画面を表示した後に会計が登録されたため、金額が変わりました。表示し直した金額で、現金を数え直して締めてください。";

/** Closes the day: the figures added up again in the transaction, stored with what was entered. */
export async function closeDay(db: Database, access: SalonAccess, input: DayCloseInput, now: Date) {
  const salonId = access.salon.id;
  const today = toLocal(now, access.salon.timeZone).date;
  const read = readCloseInput(input, today);
  if (!read.ok) return read;
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ status: dayCloses.status })
        .from(dayCloses)
        .where(and(eq(dayCloses.salonId, salonId), eq(dayCloses.date, read.date)))
        .for("update");
      if (existing?.status === "closed") throw new DayCloseRefusedError(ALREADY_CLOSED, 409);
      const { checkouts: _list, ...f } = await dayFigures(
        tx,
        salonId,
        access.salon.timeZone,
        read.date,
      );
      if (input.seen !== figuresFingerprint(f)) throw new DayCloseRefusedError(MOVED, 409);
      const expectedCash = read.openingFloat + f.cashAmount;
      const values = {
        ...f,
        status: "closed" as const,
        openingFloat: read.openingFloat,
        expectedCash,
        countedCash: read.countedCash,
        difference: read.countedCash - expectedCash,
        note: read.note,
        closedBy: access.user.id,
        closedAt: now,
      };
      if (existing) {
        const updated = await tx
          .update(dayCloses)
          .set(values)
          .where(
            and(
              eq(dayCloses.salonId, salonId),
              eq(dayCloses.date, read.date),
              eq(dayCloses.status, "reopened"),
            ),
          )
          .returning({ date: dayCloses.date });
        if (updated.length === 0) throw new DayCloseRefusedError(ALREADY_CLOSED, 409);
      } else {
        await tx.insert(dayCloses).values({ salonId, date: read.date, ...values });
      }
      await recordAudit(
        tx,
        {
          actorUserId: access.user.id,
          action: "dayclose.close",
          targetType: "salon",
          targetId: salonId,
          salonId,
          after: {
            date: read.date,
            ...f,
            openingFloat: read.openingFloat,
            expectedCash,
            countedCash: read.countedCash,
            difference: values.difference,
            note: read.note,
            again: existing !== undefined,
          },
        },
        now,
      );
      return { ok: true as const, date: read.date };
    });
  } catch (error) {
    // Two managers at once: the primary key (salon, date) lets one through.
    if (sqlState(error) === UNIQUE_VIOLATION) throw new DayCloseRefusedError(ALREADY_CLOSED, 409);
    throw error;
  }
}

/** Reopens a closed day (a correction): audited with the figures it had. */
export async function reopenDay(db: Database, access: SalonAccess, rawDate: string, now: Date) {
  const salonId = access.salon.id;
  const date = rawDate.trim();
  if (!isPeriodDate(date)) throw new DayCloseRefusedError(DATE_MESSAGE, 400);
  return db.transaction(async (tx) => {
    const [before] = await tx
      .update(dayCloses)
      .set({ status: "reopened", reopenedBy: access.user.id, reopenedAt: now })
      .where(
        and(
          eq(dayCloses.salonId, salonId),
          eq(dayCloses.date, date),
          eq(dayCloses.status, "closed"),
        ),
      )
      .returning();
    if (!before) {
      throw new DayCloseRefusedError(
        "この日は締められていません。画面を読み込み直してください。",
        409,
      );
    }
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "dayclose.reopen",
        targetType: "salon",
        targetId: salonId,
        salonId,
        before: {
          date,
          salesTotal: before.salesTotal,
          expectedCash: before.expectedCash,
          countedCash: before.countedCash,
          difference: before.difference,
        },
      },
      now,
    );
    return { ok: true as const, date };
  });
}

const closers = alias(users, "closers");
const reopeners = alias(users, "reopeners");

type Amounts = DayFigures & { openingFloat: number; expectedCash: number };

export type DayClosePageData = {
  salon: ReturnType<typeof ownerPageSalon>;
  date: LocalDate;
  dateLabel: string;
  today: LocalDate;
  isFuture: boolean;
  /** The day as it is now. */
  figures: DayFigures;
  seen: string;
  checkouts: (DayCheckout & { totalLabel: string; methodLabel: string })[];
  close: {
    status: "closed" | "reopened";
    figures: Amounts;
    countedCash: number;
    difference: number;
    note: string;
    closedBy: string;
    closedAtLabel: string;
    reopenedBy: string | null;
    reopenedAtLabel: string | null;
    /** The day's 会計 changed since it was closed. */
    changedSince: boolean;
  } | null;
  dateError: string | null;
  saved: string | null;
};

const savedMessages: Record<string, string> = {
  closed: "日計を締めました。",
  reopened: "締めを取り消しました。金額を確認して、もう一度締めてください。",
};

/** The page: the asked day's figures now, and its close if there is one. */
export async function dayClosePage(
  db: Database,
  access: SalonAccess,
  url: URL,
  now: Date,
): Promise<DayClosePageData> {
  const salonId = access.salon.id;
  const timeZone = access.salon.timeZone;
  const today = toLocal(now, timeZone).date;
  const { date, error } = readDate(url.searchParams.get("date"), today);
  const [{ checkouts, ...figures }, [row]] = await Promise.all([
    dayFigures(db, salonId, timeZone, date),
    db
      .select({
        close: dayCloses,
        closedBy: closers.name,
        reopenedBy: reopeners.name,
      })
      .from(dayCloses)
      .leftJoin(closers, eq(closers.id, dayCloses.closedBy))
      .leftJoin(reopeners, eq(reopeners.id, dayCloses.reopenedBy))
      .where(and(eq(dayCloses.salonId, salonId), eq(dayCloses.date, date))),
  ]);
  const saved = url.searchParams.get("saved");
  const c = row?.close;
  return {
    salon: ownerPageSalon(access),
    date,
    dateLabel: formatDate(date),
    today,
    isFuture: date > today,
    figures,
    seen: figuresFingerprint(figures),
    checkouts: checkouts.map((checkout) => ({
      ...checkout,
      totalLabel: formatYen(checkout.total),
      methodLabel: checkoutMethodLabels[checkout.method] ?? checkout.method,
    })),
    close: c
      ? {
          status: c.status,
          figures: {
            checkoutCount: c.checkoutCount,
            salesTotal: c.salesTotal,
            cashAmount: c.cashAmount,
            cardAmount: c.cardAmount,
            qrAmount: c.qrAmount,
            prepaidAmount: c.prepaidAmount,
            cashReceived: c.cashReceived,
            changeGiven: c.changeGiven,
            refundCount: c.refundCount,
            refundAmount: c.refundAmount,
            openingFloat: c.openingFloat,
            expectedCash: c.expectedCash,
          },
          countedCash: c.countedCash,
          difference: c.difference,
          note: c.note,
          closedBy: row?.closedBy ?? "（削除されたアカウント）",
          closedAtLabel: formatDateTime(c.closedAt),
          reopenedBy: c.reopenedAt ? (row?.reopenedBy ?? "（削除されたアカウント）") : null,
          reopenedAtLabel: c.reopenedAt ? formatDateTime(c.reopenedAt) : null,
          changedSince: !sameFigures(c, figures),
        }
      : null,
    dateError: error,
    saved: saved ? (savedMessages[saved] ?? null) : null,
  };
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export type DayCloseOutcome =
  | { ok: true; date: LocalDate; saved: "closed" | "reopened" }
  | {
      ok: false;
      status: number;
      errors: DayCloseErrors;
      values: Record<string, string>;
    };

/** One post of the page: intent close | reopen. */
export async function submitDayCloseForm(
  db: Database,
  access: SalonAccess,
  form: FormData,
  now: Date,
): Promise<DayCloseOutcome> {
  const intent = text(form, "intent");
  const values = {
    openingFloat: text(form, "openingFloat").slice(0, 40),
    countedCash: text(form, "countedCash").slice(0, 40),
    note: text(form, "note").slice(0, 400),
  };
  try {
    if (intent === "close") {
      const outcome = await closeDay(
        db,
        access,
        {
          date: text(form, "date"),
          openingFloat: values.openingFloat,
          countedCash: values.countedCash,
          note: values.note,
          seen: text(form, "seen"),
        },
        now,
      );
      if (!outcome.ok) return { ok: false, status: 400, errors: outcome.errors, values };
      return { ok: true, date: outcome.date, saved: "closed" };
    }
    if (intent === "reopen") {
      const outcome = await reopenDay(db, access, text(form, "date"), now);
      return { ok: true, date: outcome.date, saved: "reopened" };
    }
  } catch (error) {
    if (error instanceof DayCloseRefusedError) {
      return { ok: false, status: error.status, errors: { form: error.message }, values };
    }
    throw error;
  }
  return {
    ok: false,
    status: 400,
    errors: { form: "操作の種類が正しくありません。画面を読み込み直してください。" },
    values,
  };
}
