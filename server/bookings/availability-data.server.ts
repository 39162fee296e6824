import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import {
  bookings,
  menuStaff,
  menus,
  occupyingStatuses,
  salonOpeningHours,
  salons,
  scheduleExceptions,
  staff,
  staffSchedules,
} from "../db/schema";
import type {
  AvailabilityInput,
  BusyInterval,
  DatedException,
  LocalDate,
  StaffAvailability,
  Weekday,
  WeeklyHours,
} from "./availability-input";
import {
  InvalidDateRangeError,
  MenuNotAvailableError,
  SalonNotFoundError,
  StaffCannotDoMenuError,
  StaffNotAvailableError,
} from "./booking-errors";
import { japaneseHolidaysBetween } from "./holidays";
import { addDays, isLocalDate, localToInstant, toLocal } from "./local-time";
import { bookingSettingsFor, type SalonBookingRules } from "./settings";

/** The longest range one request may ask about (the calendar shows up to two months). */
export const MAX_RANGE_DAYS = 62;
/** More menus than anyone books at once; keeps the queries bounded. */
export const MAX_MENUS = 5;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Anything that can run selects: the database or a transaction. */
type Reader = Pick<Database, "select">;

export type AvailabilityRequest = {
  salonId: string;
  /** In the order the visitor chose them (booking_menus keeps it). */
  menuIds: readonly string[];
  /** null: 指名なし. */
  staffId: string | null;
  from: LocalDate;
  to: LocalDate;
  now: Date;
};

export type ChosenMenu = { id: string; name: string; price: number; durationMinutes: number };

export type LoadedAvailability = {
  input: AvailabilityInput;
  salon: { id: string; name: string; slug: string; timeZone: string };
  /** The chosen menus in the visitor's order, as the database has them now. */
  menus: ChosenMenu[];
  durationMinutes: number;
  totalPrice: number;
  rules: SalonBookingRules;
};

/** A published salon, or SalonNotFoundError (also for a malformed id: never a 500). */
export async function publishedSalon(db: Reader, salonId: string) {
  if (!UUID.test(salonId)) throw new SalonNotFoundError();
  const [salon] = await db
    .select({ id: salons.id, name: salons.name, slug: salons.slug, timeZone: salons.timeZone })
    .from(salons)
    .where(and(eq(salons.id, salonId), eq(salons.status, "published")));
  if (!salon) throw new SalonNotFoundError();
  return salon;
}

function checkRange(from: LocalDate, to: LocalDate) {
  if (!isLocalDate(from) || !isLocalDate(to)) {
    throw new InvalidDateRangeError("日付は YYYY-MM-DD の形式で指定してください。");
  }
  if (to < from) throw new InvalidDateRangeError("終了日は開始日以降の日付を指定してください。");
  if (addDays(from, MAX_RANGE_DAYS - 1) < to) {
    throw new InvalidDateRangeError(`一度に表示できるのは${MAX_RANGE_DAYS}日分までです。`);
  }
}

/**
 * The chosen menus of the salon, checked: every id must be a published menu
 * of this salon (else MenuNotAvailableError), returned in the given order.
 */
async function chosenMenus(db: Reader, salonId: string, menuIds: readonly string[]) {
  if (
    menuIds.length === 0 ||
    menuIds.length > MAX_MENUS ||
    new Set(menuIds).size !== menuIds.length ||
    !menuIds.every((id) => UUID.test(id))
  ) {
    throw new MenuNotAvailableError();
  }
  const rows = await db
    .select({
      id: menus.id,
      name: menus.name,
      price: menus.price,
      durationMinutes: menus.durationMinutes,
    })
    .from(menus)
    .where(
      and(eq(menus.salonId, salonId), eq(menus.published, true), inArray(menus.id, [...menuIds])),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return menuIds.map((id) => {
    const menu = byId.get(id);
    if (!menu) throw new MenuNotAvailableError();
    return menu;
  });
}

/**
 * The salon's active stylists who can do every chosen menu (a menu with no
 * menu_staff rows can be done by anyone), in the salon's staff order. With a
 * requested stylist, checks that they belong to the salon, are active and
 * can do the menus.
 */
async function eligibleStaff(
  db: Reader,
  salonId: string,
  menuIds: readonly string[],
  staffId: string | null,
): Promise<string[]> {
  if (staffId !== null && !UUID.test(staffId)) throw new StaffNotAvailableError();
  const members = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.active, true)))
    .orderBy(asc(staff.sortOrder), asc(staff.id));
  const abilities = await db
    .select({ menuId: menuStaff.menuId, staffId: menuStaff.staffId })
    .from(menuStaff)
    .where(inArray(menuStaff.menuId, [...menuIds]));
  const restricted = new Map<string, Set<string>>();
  for (const row of abilities) {
    const set = restricted.get(row.menuId) ?? new Set<string>();
    set.add(row.staffId);
    restricted.set(row.menuId, set);
  }
  const canDoAll = (id: string) => [...restricted.values()].every((allowed) => allowed.has(id));
  const eligible = members.map((m) => m.id).filter(canDoAll);
  if (staffId !== null) {
    if (!members.some((m) => m.id === staffId)) throw new StaffNotAvailableError();
    if (!eligible.includes(staffId)) throw new StaffCannotDoMenuError();
  }
  return eligible;
}

/**
 * Everything the availability engine needs for one salon, a set of menus
 * and a stylist (or 指名なし) over a local date range, read from the
 * database and checked (see the errors in booking-errors.ts). Busy time is
 * every occupying booking of the candidate stylists near the range; a hold
 * counts only while it has not expired at `now`.
 */
export async function loadAvailabilityInput(
  db: Reader,
  request: AvailabilityRequest,
): Promise<LoadedAvailability> {
  const salon = await publishedSalon(db, request.salonId);
  checkRange(request.from, request.to);
  const chosen = await chosenMenus(db, salon.id, request.menuIds);
  // One query after another: inside a transaction they share one connection.
  const staffIds = await eligibleStaff(db, salon.id, request.menuIds, request.staffId);
  const rules = await bookingSettingsFor(db, salon.id);
  const { from, to, now } = request;
  const timeZone = salon.timeZone;
  // A day before and after the range: bookings across local midnight and buffers.
  const rangeStart = localToInstant(addDays(from, -1), "00:00", timeZone);
  const rangeEnd = localToInstant(addDays(to, 2), "00:00", timeZone);
  const noStaff = staffIds.length === 0;

  const hours = await db
    .select({
      weekday: salonOpeningHours.weekday,
      start: localTime(salonOpeningHours.opens),
      end: localTime(salonOpeningHours.closes),
    })
    .from(salonOpeningHours)
    .where(eq(salonOpeningHours.salonId, salon.id))
    .orderBy(asc(salonOpeningHours.weekday), asc(salonOpeningHours.opens));
  const schedules = noStaff
    ? []
    : await db
        .select({
          staffId: staffSchedules.staffId,
          weekday: staffSchedules.weekday,
          start: localTime(staffSchedules.startsAt),
          end: localTime(staffSchedules.endsAt),
          validFrom: staffSchedules.validFrom,
          validUntil: staffSchedules.validUntil,
        })
        .from(staffSchedules)
        .where(
          and(
            eq(staffSchedules.salonId, salon.id),
            inArray(staffSchedules.staffId, staffIds),
            or(isNull(staffSchedules.validFrom), lte(staffSchedules.validFrom, to)),
            or(isNull(staffSchedules.validUntil), gte(staffSchedules.validUntil, from)),
          ),
        )
        .orderBy(asc(staffSchedules.weekday), asc(staffSchedules.startsAt));
  const exceptions = await db
    .select({
      staffId: scheduleExceptions.staffId,
      date: scheduleExceptions.date,
      kind: scheduleExceptions.kind,
      start: localTime(scheduleExceptions.startsAt),
      end: localTime(scheduleExceptions.endsAt),
    })
    .from(scheduleExceptions)
    .where(
      and(
        eq(scheduleExceptions.salonId, salon.id),
        gte(scheduleExceptions.date, from),
        lte(scheduleExceptions.date, to),
      ),
    );
  const busyRows = noStaff
    ? []
    : await db
        .select({
          staffId: bookings.staffId,
          start: bookings.startsAt,
          // The engine adds today's buffer around `end`; a booking made
          // under a longer buffer keeps the time it was given.
          end: sql<Date>`greatest(${bookings.endsAt}, ${bookings.occupiedUntil} - make_interval(mins => ${rules.bufferAfterMinutes}::int))`.mapWith(
            bookings.endsAt,
          ),
        })
        .from(bookings)
        .where(
          and(
            eq(bookings.salonId, salon.id),
            inArray(bookings.staffId, staffIds),
            inArray(bookings.status, [...occupyingStatuses]),
            or(ne(bookings.status, "held"), gt(bookings.holdExpiresAt, now)),
            lt(bookings.startsAt, rangeEnd),
            gt(bookings.occupiedUntil, rangeStart),
          ),
        );

  const toException = (row: (typeof exceptions)[number]): DatedException => ({
    date: row.date,
    kind: row.kind,
    intervals: row.kind === "closed" ? [] : [{ start: row.start, end: row.end }],
  });
  const staffAvailability: StaffAvailability[] = staffIds.map((id) => ({
    id,
    weekly: schedules
      .filter((row) => row.staffId === id)
      .map((row) => ({
        weekday: row.weekday as Weekday,
        start: row.start,
        end: row.end,
        validFrom: row.validFrom,
        validUntil: row.validUntil,
      })),
    exceptions: exceptions.filter((row) => row.staffId === id).map(toException),
  }));
  const busy: BusyInterval[] = busyRows.map((row) => ({
    staffId: row.staffId,
    start: row.start,
    end: row.end,
  }));
  const bookingsPerStaffDay = new Map<string, number>();
  for (const interval of busy) {
    const key = `${interval.staffId}|${toLocal(interval.start, timeZone).date}`;
    bookingsPerStaffDay.set(key, (bookingsPerStaffDay.get(key) ?? 0) + 1);
  }
  const durationMinutes = chosen.reduce((sum, menu) => sum + menu.durationMinutes, 0);
  const { cancellationCutoffHours: _cutoff, holdMinutes: _hold, ...settings } = rules;

  return {
    input: {
      now,
      timeZone,
      from,
      to,
      settings,
      salonHours: hours.map((row): WeeklyHours => ({ ...row, weekday: row.weekday as Weekday })),
      salonExceptions: exceptions.filter((row) => row.staffId === null).map(toException),
      holidays: new Set(japaneseHolidaysBetween(from, to).keys()),
      staff: staffAvailability,
      staffId: request.staffId,
      durationMinutes,
      busy,
      bookingsPerStaffDay,
    },
    salon,
    menus: chosen,
    durationMinutes,
    totalPrice: chosen.reduce((sum, menu) => sum + menu.price, 0),
    rules,
  };
}
