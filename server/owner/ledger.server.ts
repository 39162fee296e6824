import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { formatMonthDayWeekday } from "../../common/format";
import {
  addDays,
  formatMinutes,
  isLocalDate,
  type LocalDate,
  LocalDay,
  toLocal,
  type Weekday,
  weekdayOf,
} from "../../common/local-time";
import { isPendingApproval, staffBookingLabel } from "../../common/status-labels";
import { salonOpeningOn, workingIntervals } from "../bookings/availability";
import type { SalonDays } from "../bookings/availability-data.server";
import { loadSalonDays } from "../bookings/availability-data.server";
import { japaneseHolidaysBetween } from "../bookings/holidays";
import { type Interval, merge, subtract } from "../bookings/intervals";
import type { Database } from "../db/client";
import {
  type BookingKind,
  type BookingSource,
  type BookingStatus,
  bookingApprovals,
  bookingKinds,
  bookingSources,
  bookingStatuses,
  occupyingStatuses,
  staff,
} from "../db/schema";
import { BadRequestError } from "../errors/domain-error";
import { can, ownerPageSalon, type SalonAccess } from "../salon-access/salon-access.server";
import { type LedgerWaitlistEntry, ledgerWaitlist } from "./ledger-waitlist.server";
import { type ViewScope, viewScope } from "./scope.server";

/**
 * The salon's ledger (予約台帳, issue 28, point 3; decision 0038): one local
 * day as a column per stylist on a time axis, or a week in short. The page
 * (/owner/salons/{id}/bookings) and the API (GET /api/owner/salons/{id}/ledger)
 * both answer this read model. Three queries whatever the size of the day:
 * the stylists, the schedules (the availability engine's own reader, so the
 * shading is exactly the hours visitors are offered), and the bookings with
 * their menus.
 */

export type LedgerView = "day" | "week";
/** Rows of the day's time axis. */
export const LEDGER_STEP_MINUTES = 15;
/** Free time shorter than this is not offered as a spot to book. */
const MIN_FREE_MINUTES = 15;

/** A stretch of the day in local minutes after midnight, with its clock times. */
export type LedgerSpan = {
  startMinutes: number;
  endMinutes: number;
  startTime: string;
  endTime: string;
};

export type LedgerEntry = LedgerSpan & {
  id: string;
  staffId: string;
  kind: BookingKind;
  status: BookingStatus;
  /** The back office's wording of the status (common/status-labels.ts). */
  statusLabel: string;
  /** Instants, ISO 8601. */
  startsAt: string;
  endsAt: string;
  /** The local date of the start. */
  date: LocalDate;
  customerName: string;
  customerKana: string;
  /** Menu names in the order booked. */
  menus: string[];
  totalPrice: number;
  /** 指名 (true) or 指名なし (false). */
  staffRequested: boolean;
  source: BookingSource;
  /** A block's label (休憩, 打ち合わせ…): its salon note. Empty for a booking. */
  label: string;
  /** A hold's end of life, ISO 8601; null otherwise. */
  holdExpiresAt: string | null;
  arrived: boolean;
  /** A web booking waiting for the salon's approval (仮予約, decision 0051). */
  pending: boolean;
};

/** Why nobody works that day: 定休日 (the weekly hours), 休業日 (a dated closure), 祝日休業. */
export type LedgerClosure = { reason: "regular" | "closure" | "holiday"; label: string } | null;

export type LedgerStaff = { id: string; name: string };

export type LedgerColumn = {
  staff: LedgerStaff;
  /** Working intervals (their schedule within the salon's hours). */
  working: LedgerSpan[];
  /** Gaps between working intervals (休憩). */
  breaks: LedgerSpan[];
  /** Working time with nothing booked: spots to enter a booking. */
  free: LedgerSpan[];
  /** Bookings, live holds and blocks, by start. */
  entries: LedgerEntry[];
};

export type LedgerDay = {
  view: "day";
  salonId: string;
  date: LocalDate;
  weekday: Weekday;
  today: LocalDate;
  /** The public holiday's name (祝日), or null. */
  holiday: string | null;
  closed: LedgerClosure;
  /** False when the schedules could not be read (a salon not published): no shading. */
  scheduleKnown: boolean;
  /** The salon's opening intervals that day. */
  opening: LedgerSpan[];
  /** The time axis: the opening hours, widened to whole hours and to every entry. */
  axis: { startMinutes: number; endMinutes: number; stepMinutes: number };
  columns: LedgerColumn[];
  /** Cancelled bookings and no-shows of the day: listed, not drawn. */
  cancelled: LedgerEntry[];
  /** Their heading: 本日のキャンセル today, else the day it shows (11月28日(土)のキャンセル). */
  cancelledTitle: string;
  previous: LocalDate;
  next: LocalDate;
};

export type LedgerWeekEntry = Pick<
  LedgerEntry,
  "id" | "kind" | "status" | "statusLabel" | "startTime" | "endTime" | "customerName" | "label"
>;

export type LedgerWeekDay = {
  date: LocalDate;
  weekday: Weekday;
  holiday: string | null;
  closed: LedgerClosure;
  /** One per stylist of `staff`, in that order. */
  perStaff: { staffId: string; count: number; entries: LedgerWeekEntry[] }[];
  cancelledCount: number;
};

export type LedgerWeek = {
  view: "week";
  salonId: string;
  /** Monday of the week, and its Sunday. */
  from: LocalDate;
  to: LocalDate;
  /** The date asked for (the day view it leads back to). */
  date: LocalDate;
  today: LocalDate;
  staff: LedgerStaff[];
  days: LedgerWeekDay[];
  previous: LocalDate;
  next: LocalDate;
};

export type Ledger = LedgerDay | LedgerWeek;

export type LedgerSalon = { id: string; timeZone: string };

export class InvalidLedgerDateError extends BadRequestError {
  constructor() {
    super(
      "invalid_date",
      "日付は YYYY-MM-DD の形式で、実在する日付を指定してください（例：2026-12-01）。",
    );
  }
}

/** The date asked for, or today in the salon's zone; a bad one is a 400 with a Japanese message. */
export function ledgerDate(raw: string | null | undefined, salon: LedgerSalon, now: Date) {
  if (raw === null || raw === undefined || raw === "") return toLocal(now, salon.timeZone).date;
  if (!isLocalDate(raw) || raw < "1970-01-01" || raw > "2099-12-31") {
    throw new InvalidLedgerDateError();
  }
  return raw;
}

/**
 * The ledger of `date` (day) or of its week from Monday (week), as the
 * person's scope may see it (scope.server.ts): a stylist's own column only.
 */
export async function buildLedger(
  db: Database,
  salon: LedgerSalon,
  date: LocalDate,
  now: Date,
  view: LedgerView = "day",
  scope: Pick<ViewScope, "staffId"> = { staffId: null },
): Promise<Ledger> {
  if (!isLocalDate(date)) throw new InvalidLedgerDateError();
  if (view === "week") return buildWeek(db, salon, date, now, scope.staffId);
  return buildDay(db, salon, date, now, scope.staffId);
}

/**
 * Every stylist of the salon (retired ones too: an old booking may name
 * them), in the salon's order; only `only` when given (a stylist's own).
 */
function readStaff(db: Database, salonId: string, only: string | null) {
  return db
    .select({ id: staff.id, name: staff.name, active: staff.active })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), only === null ? undefined : eq(staff.id, only)))
    .orderBy(asc(staff.sortOrder), asc(staff.id));
}

/**
 * One booking of the ledger as the query answers it: a compact array (no
 * keys repeated on 150 rows, times as epoch milliseconds), named here.
 */
const rowSchema = z
  .tuple([
    z.string(),
    z.string(),
    z.enum(bookingKinds),
    z.enum(bookingStatuses),
    z.number(),
    z.number(),
    z.number(),
    z.string(),
    z.string(),
    z.boolean(),
    z.enum(bookingSources),
    z.string(),
    z.number().nullable(),
    z.boolean(),
    z.array(z.string()),
    z.enum(bookingApprovals).nullable(),
    z.string().nullable(),
  ])
  .transform(
    ([
      id,
      staffId,
      kind,
      status,
      startsMs,
      endsMs,
      totalPrice,
      customerName,
      customerKana,
      staffRequested,
      source,
      salonNote,
      holdExpiresMs,
      arrived,
      menus,
      approval,
      cancelCategory,
    ]) => ({
      id,
      staffId,
      kind,
      status,
      startsMs,
      endsMs,
      totalPrice,
      customerName,
      customerKana,
      staffRequested,
      source,
      salonNote,
      holdExpiresMs,
      arrived,
      menus,
      pending: isPendingApproval({ status, approval }),
      cancelCategory,
    }),
  );
const rowsSchema = z.array(rowSchema);
type Row = z.infer<typeof rowSchema>;

/**
 * Bookings, blocks and live holds starting in [from, to), with their menus,
 * as ONE json value: a correlated aggregate on booking_menus' primary key
 * (not a query per booking), and one text to parse instead of 150 rows of
 * 15 typed columns (a third of the time on PGlite, bench/README.md). An
 * expired hold is gone for the ledger.
 */
async function readBookings(
  db: Database,
  salonId: string,
  from: Date,
  to: Date,
  now: Date,
  only: string | null,
) {
  const result = await db.execute(sql`
    select coalesce(json_agg(json_build_array(b.id, b.staff_id, b.kind, b.status,
        (extract(epoch from b.starts_at) * 1000)::bigint,
        (extract(epoch from b.ends_at) * 1000)::bigint,
        b.total_price, b.customer_name, b.customer_kana, b.staff_requested, b.source,
        b.salon_note, (extract(epoch from b.hold_expires_at) * 1000)::bigint,
        b.arrived_at is not null,
        (select coalesce(json_agg(bm.name order by bm.position), '[]'::json)
          from booking_menus bm where bm.salon_id = b.salon_id and bm.booking_id = b.id),
        b.approval, b.cancel_category)
      order by b.starts_at, b.id), '[]'::json)::text as rows
    from bookings b
    where b.salon_id = ${salonId}
      and b.starts_at >= ${from.toISOString()}::timestamptz
      and b.starts_at < ${to.toISOString()}::timestamptz
      and (b.status <> 'held' or b.hold_expires_at > ${now.toISOString()}::timestamptz)
      ${only === null ? sql`` : sql`and b.staff_id = ${only}`}`);
  const [row] = (result as unknown as { rows: { rows: string }[] }).rows;
  return rowsSchema.parse(JSON.parse(row?.rows ?? "[]"));
}

const occupying = new Set<string>(occupyingStatuses);

function span(startMinutes: number, endMinutes: number): LedgerSpan {
  const clamp = (m: number) => Math.min(Math.max(m, 0), 1440);
  const start = clamp(startMinutes);
  const end = Math.max(clamp(endMinutes), start);
  return {
    startMinutes: start,
    endMinutes: end,
    startTime: formatMinutes(start),
    endTime: formatMinutes(end),
  };
}

function toEntry(row: Row, local: LocalDay): LedgerEntry {
  return {
    ...span(local.minutesAt(row.startsMs), local.minutesAt(row.endsMs)),
    id: row.id,
    staffId: row.staffId,
    kind: row.kind,
    status: row.status,
    statusLabel: staffBookingLabel({
      kind: row.kind,
      status: row.status,
      approval: row.pending ? "pending" : null,
      arrived: row.arrived,
      cancelCategory: row.cancelCategory,
    }),
    startsAt: new Date(row.startsMs).toISOString(),
    endsAt: new Date(row.endsMs).toISOString(),
    date: local.date,
    customerName: row.customerName,
    customerKana: row.customerKana,
    menus: row.menus,
    totalPrice: row.totalPrice,
    staffRequested: row.staffRequested,
    source: row.source,
    label: row.kind === "block" ? row.salonNote : "",
    holdExpiresAt: row.holdExpiresMs === null ? null : new Date(row.holdExpiresMs).toISOString(),
    arrived: row.arrived,
    pending: row.pending,
  };
}

const closureLabels = { regular: "定休日", closure: "休業日", holiday: "祝日休業" } as const;

/** The salon's hours of a day as the engine reads them (rule 2), and why it is closed. */
function openingOf(schedule: SalonDays | null, date: LocalDate) {
  if (!schedule) return { opening: [] as Interval[], closed: null };
  const { closedReason, opening } = salonOpeningOn(schedule, date);
  if (!closedReason) return { opening, closed: null };
  const reason =
    closedReason === "holiday"
      ? "holiday"
      : schedule.salonExceptions.some((e) => e.date === date && e.kind === "closed")
        ? "closure"
        : "regular";
  return { opening, closed: { reason, label: closureLabels[reason] } as const };
}

async function buildDay(
  db: Database,
  salon: LedgerSalon,
  date: LocalDate,
  now: Date,
  only: string | null,
): Promise<LedgerDay> {
  const local = new LocalDay(date, salon.timeZone);
  const dayStart = new Date(local.instantMs(0));
  const dayEnd = new Date(local.instantMs(1440));
  const [members, rows, schedule] = await Promise.all([
    readStaff(db, salon.id, only),
    readBookings(db, salon.id, dayStart, dayEnd, now, only),
    loadSalonDays(db, { salonId: salon.id, from: date, to: date, now }),
  ]);
  const holiday = japaneseHolidaysBetween(date, date).get(date) ?? null;
  const { opening, closed } = openingOf(schedule, date);
  const working = schedule ? workingIntervals(schedule, date) : new Map<string, Interval[]>();
  const toSpan = (i: Interval) => span(local.minutesAt(i.start), local.minutesAt(i.end));

  const entriesByStaff = new Map<string, LedgerEntry[]>();
  const cancelled: LedgerEntry[] = [];
  for (const row of rows) {
    const entry = toEntry(row, local);
    if (!occupying.has(row.status)) {
      cancelled.push(entry);
      continue;
    }
    const list = entriesByStaff.get(row.staffId);
    if (list) list.push(entry);
    else entriesByStaff.set(row.staffId, [entry]);
  }

  const columns: LedgerColumn[] = [];
  for (const member of members) {
    const entries = entriesByStaff.get(member.id) ?? [];
    if (!member.active && entries.length === 0) continue;
    const intervals = working.get(member.id) ?? [];
    const taken = merge(
      entries.map((e) => ({ start: Date.parse(e.startsAt), end: Date.parse(e.endsAt) })),
    );
    const free = subtract(intervals, taken)
      .map(toSpan)
      .filter((s) => s.endMinutes - s.startMinutes >= MIN_FREE_MINUTES);
    const breaks: LedgerSpan[] = [];
    for (let i = 1; i < intervals.length; i++) {
      const before = intervals[i - 1];
      const after = intervals[i];
      if (before && after) breaks.push(toSpan({ start: before.end, end: after.start }));
    }
    columns.push({
      staff: { id: member.id, name: member.name },
      working: intervals.map(toSpan),
      breaks,
      free,
      entries,
    });
  }

  const openingSpans = opening.map(toSpan);
  // The axis: the opening hours (or, closed, what anyone works, else 10–20),
  // widened to whole hours and to every entry drawn.
  const starts = [
    ...openingSpans.map((s) => s.startMinutes),
    ...columns.flatMap((c) => [...c.working, ...c.entries].map((s) => s.startMinutes)),
  ];
  const ends = [
    ...openingSpans.map((s) => s.endMinutes),
    ...columns.flatMap((c) => [...c.working, ...c.entries].map((s) => s.endMinutes)),
  ];
  const first = starts.length > 0 ? Math.min(...starts) : 600;
  const last = ends.length > 0 ? Math.max(...ends) : 1200;
  const axis = {
    startMinutes: Math.floor(first / 60) * 60,
    endMinutes: Math.min(
      Math.max(Math.ceil(last / 60) * 60, Math.floor(first / 60) * 60 + 60),
      1440,
    ),
    stepMinutes: LEDGER_STEP_MINUTES,
  };

  const today = toLocal(now, salon.timeZone).date;
  return {
    view: "day",
    salonId: salon.id,
    date,
    weekday: weekdayOf(date),
    today,
    holiday,
    closed,
    scheduleKnown: schedule !== null,
    opening: openingSpans,
    axis,
    columns,
    cancelled,
    cancelledTitle:
      date === today ? "本日のキャンセル" : `${formatMonthDayWeekday(date)}のキャンセル`,
    previous: addDays(date, -1),
    next: addDays(date, 1),
  };
}

/** Monday of the date's week (salons plan Monday to Sunday). */
export function mondayOf(date: LocalDate): LocalDate {
  return addDays(date, -((weekdayOf(date) + 6) % 7));
}

async function buildWeek(
  db: Database,
  salon: LedgerSalon,
  date: LocalDate,
  now: Date,
  only: string | null,
): Promise<LedgerWeek> {
  const from = mondayOf(date);
  const to = addDays(from, 6);
  const locals = Array.from(
    { length: 7 },
    (_, i) => new LocalDay(addDays(from, i), salon.timeZone),
  );
  const bounds = locals.map((local) => local.instantMs(0));
  const end = (locals[6] as LocalDay).instantMs(1440);
  const [members, rows, schedule] = await Promise.all([
    readStaff(db, salon.id, only),
    readBookings(db, salon.id, new Date(bounds[0] ?? 0), new Date(end), now, only),
    loadSalonDays(db, { salonId: salon.id, from, to, now }),
  ]);
  const holidays = japaneseHolidaysBetween(from, to);
  const withEntries = new Set(rows.map((row) => row.staffId));
  const shown = members.filter((m) => m.active || withEntries.has(m.id));

  const days: LedgerWeekDay[] = locals.map((local) => ({
    date: local.date,
    weekday: weekdayOf(local.date),
    holiday: holidays.get(local.date) ?? null,
    closed: openingOf(schedule, local.date).closed,
    perStaff: shown.map((m) => ({ staffId: m.id, count: 0, entries: [] })),
    cancelledCount: 0,
  }));
  const column = new Map(shown.map((m, i) => [m.id, i]));
  for (const row of rows) {
    const ms = row.startsMs;
    let index = 6;
    while (index > 0 && ms < (bounds[index] ?? 0)) index--;
    const day = days[index];
    const local = locals[index];
    if (!day || !local) continue;
    if (!occupying.has(row.status)) {
      day.cancelledCount += 1;
      continue;
    }
    const cell = day.perStaff[column.get(row.staffId) ?? -1];
    if (!cell) continue;
    const entry = toEntry(row, local);
    if (row.kind === "booking") cell.count += 1;
    cell.entries.push({
      id: entry.id,
      kind: entry.kind,
      status: entry.status,
      statusLabel: entry.statusLabel,
      startTime: entry.startTime,
      endTime: entry.endTime,
      customerName: entry.customerName,
      label: entry.label,
    });
  }

  return {
    view: "week",
    salonId: salon.id,
    from,
    to,
    date,
    today: toLocal(now, salon.timeZone).date,
    staff: shown.map((m) => ({ id: m.id, name: m.name })),
    days,
    previous: addDays(date, -7),
    next: addDays(date, 7),
  };
}

/** The salon (the frame is the layout route's) and whether the role may enter bookings. */
type Frame = { salon: ReturnType<typeof ownerPageSalon>; canEnter: boolean };

export type LedgerPage =
  | (Frame & {
      kind: "ledger";
      ledger: Ledger;
      /** The day's waiting list (day view only; absent or null in the week view). */
      waitlist?: LedgerWaitlistEntry[] | null;
    })
  | (Frame & {
      kind: "invalid";
      /** The Japanese message, and the date as typed (kept in the form). */
      message: string;
      typed: string;
      view: LedgerView;
      today: LocalDate;
    });

/**
 * /owner/salons/{id}/bookings: the ledger of ?date= (today by default) in
 * ?view=day|week, with the owner's other salons for the switcher. A bad
 * date is answered as the form with its message (the route sends 400).
 */
export async function ledgerPage(
  db: Database,
  access: SalonAccess,
  query: { date: string | null; view: string | null },
  now: Date,
): Promise<LedgerPage> {
  const view: LedgerView = query.view === "week" ? "week" : "day";
  let date: LocalDate;
  try {
    date = ledgerDate(query.date, access.salon, now);
  } catch (error) {
    if (!(error instanceof InvalidLedgerDateError)) throw error;
    return {
      kind: "invalid",
      salon: ownerPageSalon(access),
      canEnter: can(access, "bookings.enter"),
      message: error.message,
      typed: (query.date ?? "").slice(0, 40),
      view,
      today: toLocal(now, access.salon.timeZone).date,
    };
  }
  const [ledger, waitlist] = await Promise.all([
    buildLedger(db, access.salon, date, now, view, viewScope(access)),
    view === "day" ? ledgerWaitlist(db, access, date) : null,
  ]);
  return {
    kind: "ledger",
    salon: ownerPageSalon(access),
    canEnter: can(access, "bookings.enter"),
    ledger,
    waitlist,
  };
}
