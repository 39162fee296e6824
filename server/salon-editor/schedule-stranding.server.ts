import { and, asc, eq, gt, inArray, or, sql } from "drizzle-orm";
import { formatDate } from "../../common/format";
import { addDays, formatMinutes, toLocal } from "../../common/local-time";
import { recordAudit } from "../audit/audit";
import { workingIntervals } from "../bookings/availability";
import { loadSalonSchedule } from "../bookings/availability-data.server";
import { bookingSettingsDefaults } from "../bookings/settings";
import type { Database } from "../db/client";
import { bookingMenus, bookings, salonBookingSettings, staff } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { notifySlotChange } from "../realtime/slot-events.server";

/**
 * The one stranding check of every schedule writer (issue 29, point 2;
 * decision 0046): the owner's 勤務表 and the admin editor's スタッフ tab
 * (weekly patterns, a stylist's exceptions), the salon's 臨時休業, opening
 * hours and public-holiday rule all write through `guardStranding`.
 *
 * Inside the writer's transaction it
 * 1. locks the stylists' rows (FOR UPDATE): inserting a booking or hold
 *    takes a KEY SHARE lock on its stylist's row (the foreign key), so a
 *    booking being made right now is committed before the bookings are
 *    read, and one made after waits for this change;
 * 2. reads their future confirmed bookings (starting after now) and live
 *    holds;
 * 3. computes each booking's working time before and after the write with
 *    the availability engine's own code (loadSalonSchedule + workingIntervals);
 * 4. a booking inside working time before and not after is stranded: the
 *    change is refused (409, StrandedBookingsError, listing them), unless
 *    the person chose to apply it anyway; then they are returned to be
 *    moved or cancelled. A booking already outside working time (a phone
 *    booking the salon took after hours) is not the change's doing. A live
 *    hold left outside is released (deleted), so it is not confirmed into a
 *    stranded booking later; its visitor picks another time;
 * 5. tells open booking pages and ledgers over the slot channel (on commit)
 *    that the days of the booking window changed.
 */

export type StrandedBooking = {
  id: string;
  /** The booking's page in the salon's back office (both doors link it). */
  href: string;
  bookingNumber: string;
  /** The salon's local date, YYYY-MM-DD. */
  date: string;
  /** 2026年11月23日(月). */
  dateLabel: string;
  startTime: string;
  endTime: string;
  staffId: string;
  staffName: string;
  customerName: string;
  menus: string[];
};

/** Who the change may strand: one stylist, or everyone (a salon-wide closure or hours). */
export type StrandingScope = {
  salonId: string;
  staffId: string | null;
  now: Date;
  /** Who makes the change (the override's audit entry). */
  actorUserId: string;
};

export type StrandingOptions = {
  /** 「予約が残っていても変更する」: apply the change and report the bookings instead of refusing. */
  allowStranding?: boolean;
  /** Told the stranded bookings when the change is applied with them (the owner's page lists them). */
  onStranded?: (bookings: StrandedBooking[]) => void;
};

/** How many stranded bookings the refusal's message names (the data has all of them). */
const MESSAGE_LIMIT = 10;

export const strandedLine = (b: StrandedBooking) =>
  `${b.dateLabel} ${b.startTime}〜${b.endTime} ${b.customerName || "（お名前なし）"}様（${b.staffName}、${b.menus.join("・") || "メニューなし"}）`;

/** The change would leave confirmed bookings outside working time (409, with the list). */
export class StrandedBookingsError extends DomainError {
  constructor(readonly bookings: StrandedBooking[]) {
    const lines = bookings.slice(0, MESSAGE_LIMIT).map(strandedLine);
    const more =
      bookings.length > MESSAGE_LIMIT ? `ほか${bookings.length - MESSAGE_LIMIT}件。` : "";
    super(
      "bookings_stranded",
      `この変更をすると、次の${bookings.length}件の予約が勤務時間の外に残ります：${lines.join("／")}。${more}先に予約を移動・キャンセルするか、「予約が残っていても変更する」を選んでください。`,
      409,
      { bookings },
    );
  }
}

type Candidate = {
  id: string;
  /** A visitor's live hold (minutes from becoming a booking), not a booking yet. */
  held: boolean;
  bookingNumber: string;
  staffId: string;
  staffName: string;
  customerName: string;
  startsAt: Date;
  endsAt: Date;
};

/** Locks the stylists in scope and reads their future confirmed bookings (not blocks). */
async function lockAndRead(tx: Database, scope: StrandingScope): Promise<Candidate[]> {
  const inScope = scope.staffId
    ? and(eq(staff.salonId, scope.salonId), eq(staff.id, scope.staffId))
    : eq(staff.salonId, scope.salonId);
  // FOR UPDATE conflicts with the KEY SHARE lock a booking insert takes on its stylist.
  await tx.select({ id: staff.id }).from(staff).where(inScope).orderBy(asc(staff.id)).for("update");
  return tx
    .select({
      id: bookings.id,
      held: sql<boolean>`${bookings.status} = 'held'`,
      bookingNumber: bookings.bookingNumber,
      staffId: bookings.staffId,
      staffName: staff.name,
      customerName: bookings.customerName,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
    })
    .from(bookings)
    .innerJoin(staff, eq(staff.id, bookings.staffId))
    .where(
      and(
        eq(bookings.salonId, scope.salonId),
        scope.staffId ? eq(bookings.staffId, scope.staffId) : undefined,
        or(
          eq(bookings.status, "confirmed"),
          and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, scope.now)),
        ),
        eq(bookings.kind, "booking"),
        gt(bookings.startsAt, scope.now),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id)) as Promise<Candidate[]>;
}

/** The bookings (of `candidates`) that lie inside their stylist's working time, by the engine. */
async function insideWorkingTime(
  tx: Database,
  scope: StrandingScope,
  timeZone: string,
  candidates: readonly Candidate[],
): Promise<Set<string>> {
  const inside = new Set<string>();
  const byDate = new Map<string, Candidate[]>();
  for (const booking of candidates) {
    const date = toLocal(booking.startsAt, timeZone).date;
    const list = byDate.get(date) ?? [];
    list.push(booking);
    byDate.set(date, list);
  }
  const dates = [...byDate.keys()].sort();
  const from = dates[0];
  const to = dates[dates.length - 1];
  if (!from || !to) return inside;
  // One call of the engine's reading (no busy time) over the dates that have bookings.
  const schedule = await loadSalonSchedule(tx, { salonId: scope.salonId, from, to });
  if (!schedule) return inside;
  for (const date of dates) {
    const working = workingIntervals(schedule, date);
    for (const booking of byDate.get(date) ?? []) {
      const start = booking.startsAt.getTime();
      const end = booking.endsAt.getTime();
      const intervals = working.get(booking.staffId) ?? [];
      if (intervals.some((w) => w.start <= start && end <= w.end)) inside.add(booking.id);
    }
  }
  return inside;
}

async function describeStranded(
  tx: Database,
  salonId: string,
  timeZone: string,
  stranded: readonly Candidate[],
): Promise<StrandedBooking[]> {
  if (stranded.length === 0) return [];
  const menuRows = await tx
    .select({ bookingId: bookingMenus.bookingId, name: bookingMenus.name })
    .from(bookingMenus)
    .where(
      inArray(
        bookingMenus.bookingId,
        stranded.map((b) => b.id),
      ),
    )
    .orderBy(asc(bookingMenus.bookingId), asc(bookingMenus.position));
  const menus = new Map<string, string[]>();
  for (const row of menuRows)
    menus.set(row.bookingId, [...(menus.get(row.bookingId) ?? []), row.name]);
  return stranded.map((b) => {
    const start = toLocal(b.startsAt, timeZone);
    const end = toLocal(b.endsAt, timeZone);
    return {
      id: b.id,
      href: `/owner/salons/${salonId}/bookings/${b.id}`,
      bookingNumber: b.bookingNumber,
      date: start.date,
      dateLabel: formatDate(start.date),
      startTime: formatMinutes(start.minutes),
      endTime: formatMinutes(end.minutes),
      staffId: b.staffId,
      staffName: b.staffName,
      customerName: b.customerName ?? "",
      menus: menus.get(b.id) ?? [],
    };
  });
}

async function salonZone(tx: Database, salonId: string) {
  const result = await tx.execute(sql`select time_zone from salons where id = ${salonId}`);
  const [row] = (result as unknown as { rows: { time_zone: string }[] }).rows;
  return row?.time_zone ?? "Asia/Tokyo";
}

/**
 * Runs `write` (a schedule writer's change, in the transaction `tx`) under
 * the stranding check: see the top of this file. Returns the write's result
 * and the stranded bookings (empty unless allowed).
 */
export async function guardStranding<T>(
  tx: Database,
  scope: StrandingScope,
  options: StrandingOptions,
  write: () => Promise<T>,
): Promise<{ result: T; stranded: StrandedBooking[] }> {
  const candidates = await lockAndRead(tx, scope);
  const timeZone = await salonZone(tx, scope.salonId);
  const before = candidates.length
    ? await insideWorkingTime(tx, scope, timeZone, candidates)
    : new Set<string>();
  const result = await write();
  const wasInside = candidates.filter((b) => before.has(b.id));
  const after = wasInside.length
    ? await insideWorkingTime(tx, scope, timeZone, wasInside)
    : new Set<string>();
  const outside = wasInside.filter((b) => !after.has(b.id));
  const stranded = await describeStranded(
    tx,
    scope.salonId,
    timeZone,
    outside.filter((b) => !b.held),
  );
  // A live hold the change leaves outside working time is released (its visitor is told the
  // time has gone when they confirm), so it cannot become a stranded booking afterwards.
  const heldOutside = outside.filter((b) => b.held).map((b) => b.id);
  if (heldOutside.length > 0 && (stranded.length === 0 || options.allowStranding)) {
    await tx
      .delete(bookings)
      .where(and(inArray(bookings.id, heldOutside), eq(bookings.status, "held")));
  }
  if (stranded.length > 0 && !options.allowStranding) throw new StrandedBookingsError(stranded);
  if (stranded.length > 0) {
    await recordAudit(
      tx,
      {
        actorUserId: scope.actorUserId,
        action: "schedule.stranding_override",
        targetType: scope.staffId ? "staff" : "salon",
        targetId: scope.staffId ?? scope.salonId,
        salonId: scope.salonId,
        before: null,
        after: { bookings: stranded.map((b) => ({ id: b.id, bookingNumber: b.bookingNumber })) },
      },
      scope.now,
    );
    options.onStranded?.(stranded);
  }
  await tellOpenPages(tx, scope, timeZone);
  return { result, stranded };
}

/**
 * Open booking pages and ledgers (the slot channel, delivered when the
 * change commits, never on a rollback) refetch the bookable days: every
 * date from today to the end of the booking window, since a weekly change
 * touches them all.
 */
async function tellOpenPages(tx: Database, scope: StrandingScope, timeZone: string) {
  const [row] = await tx
    .select({ days: salonBookingSettings.bookingWindowDays })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, scope.salonId));
  const days = Math.min(row?.days ?? bookingSettingsDefaults.bookingWindowDays, 366);
  const today = toLocal(scope.now, timeZone).date;
  await notifySlotChange(
    tx,
    scope.salonId,
    Array.from({ length: days + 1 }, (_, i) => addDays(today, i)),
  );
}
