import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { addDays, formatMinutes, isLocalDate } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import { pgArray } from "../db/pg-array";
import { occupyingStatuses, salons } from "../db/schema";
import type {
  AvailabilityInput,
  BusyInterval,
  DatedException,
  LocalDate,
  StaffAvailability,
} from "./availability-input";
import {
  InvalidDateRangeError,
  MenuNotAvailableError,
  SalonNotFoundError,
  StaffCannotDoMenuError,
  StaffNotAvailableError,
} from "./booking-errors";
import { japaneseHolidaysBetween } from "./holidays";
import { bookingSettingsDefaults, type SalonBookingRules } from "./settings";

/** The longest range one request may ask about (the calendar shows up to two months). */
export const MAX_RANGE_DAYS = 62;
/** More menus than anyone books at once; keeps the queries bounded. */
export const MAX_MENUS = 5;

/** Anything that can run selects: the database or a transaction. */
type Reader = Pick<Database, "select" | "execute">;

export type AvailabilityRequest = {
  salonId: string;
  /** In the order the visitor chose them (booking_menus keeps it). */
  menuIds: readonly string[];
  /** null: 指名なし. */
  staffId: string | null;
  from: LocalDate;
  to: LocalDate;
  now: Date;
  /**
   * Leave live holds out of the busy time: the search summary
   * (free-days.server.ts) must not call a time taken that a hold only
   * occupies for a few minutes and then lapses without any write.
   */
  ignoreHolds?: boolean;
  /**
   * Read the salon whatever its status: the salon's own back office (a
   * walk-in at a draft salon); every visitor's path reads published salons only.
   */
  anyStatus?: boolean;
  /** The statuses that make busy time (default occupyingStatuses; none: no busy time read). */
  busyStatuses?: readonly string[];
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
  if (!isUuid(salonId)) throw new SalonNotFoundError();
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

function menusError(menuIds: readonly string[]) {
  return menuIds.length === 0 ||
    menuIds.length > MAX_MENUS ||
    new Set(menuIds).size !== menuIds.length ||
    !menuIds.every((id) => isUuid(id))
    ? new MenuNotAvailableError()
    : null;
}

/** The input checks that need no database, in the order the errors are reported. */
function shapeError(request: AvailabilityRequest) {
  try {
    checkRange(request.from, request.to);
  } catch (error) {
    return error;
  }
  return (
    menusError(request.menuIds) ??
    (request.staffId !== null && !isUuid(request.staffId) ? new StaffNotAvailableError() : null)
  );
}

/**
 * The salon's active stylists who can do every chosen menu (a menu with no
 * menu_staff rows can be done by anyone), in the salon's staff order. With a
 * requested stylist, checks that they belong to the salon, are active and
 * can do the menus.
 */
function eligibleStaff(
  members: readonly string[],
  abilities: readonly { menuId: string; staffId: string }[],
  staffId: string | null,
): string[] {
  const restricted = new Map<string, Set<string>>();
  for (const row of abilities) {
    const set = restricted.get(row.menuId) ?? new Set<string>();
    set.add(row.staffId);
    restricted.set(row.menuId, set);
  }
  const canDoAll = (id: string) => [...restricted.values()].every((allowed) => allowed.has(id));
  const eligible = members.filter(canDoAll);
  if (staffId !== null) {
    if (!members.includes(staffId)) throw new StaffNotAvailableError();
    if (!eligible.includes(staffId)) throw new StaffCannotDoMenuError();
  }
  return eligible;
}

/** A list the function answers with json_agg, which is null for no rows. */
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullable()
    .transform((items) => items ?? []);

const weekday = z.literal([0, 1, 2, 3, 4, 5, 6]);

/**
 * The answer of `booking_availability_data` (availability-data.sql), by name.
 * Schedules and busy time come as arrays, to not repeat keys on every row
 * (migration 0014); their positions are named here and nowhere else.
 */
const availabilityData = z.object({
  salon: z
    .object({ id: z.string(), name: z.string(), slug: z.string(), timeZone: z.string() })
    .nullable(),
  menus: list(
    z.object({
      id: z.string(),
      name: z.string(),
      price: z.number(),
      durationMinutes: z.number(),
    }),
  ),
  members: list(z.string()),
  abilities: list(z.object({ menuId: z.string(), staffId: z.string() })),
  settings: z
    .object({
      slotStepMinutes: z.number(),
      leadTimeMinutes: z.number(),
      bookingWindowDays: z.number(),
      bufferAfterMinutes: z.number(),
      bufferBeforeMinutes: z.number(),
      dailyLimitPerStaff: z.number().nullable(),
      sameDayCutoff: z.string().nullable(),
      closedOnHolidays: z.boolean(),
      cancellationCutoffHours: z.number(),
      holdMinutes: z.number(),
    })
    .nullable(),
  hours: list(z.object({ weekday, start: z.string(), end: z.string() })),
  // Times as minutes after midnight; validity as local dates (migration 0015).
  schedules: list(
    z
      .tuple([
        z.number(),
        weekday,
        z.number(),
        z.number(),
        z.string().nullable(),
        z.string().nullable(),
      ])
      .transform(([member, weekday, startMinutes, endMinutes, validFrom, validUntil]) => ({
        member,
        weekday,
        startMinutes,
        endMinutes,
        validFrom,
        validUntil,
      })),
  ),
  exceptions: list(
    z.object({
      staffId: z.string().nullable(),
      date: z.string(),
      kind: z.enum(["closed", "hours", "extra"]),
      start: z.string().nullable(),
      end: z.string().nullable(),
    }),
  ),
  // Epoch milliseconds, and the local date of the start (migration 0014).
  busy: list(
    z
      .tuple([z.number(), z.number(), z.number(), z.string(), z.boolean()])
      .transform(([member, start, end, date, block]) => ({ member, start, end, date, block })),
  ),
});

/** `{a,b}`: the ids are checked UUIDs and the statuses fixed words, so nothing needs quoting. */
/**
 * Everything about one salon the engine needs, in ONE call of the
 * `booking_availability_data` function (defined in availability-data.sql, installed by
 * the latest migration that copies it): one round trip
 * (nine, one after the other, were most of the cost; inside the booking
 * transaction they share one connection), and a plan each connection
 * makes once (planning the statement cost as much as running it).
 * Schedules and busy time are read for every active stylist; eligibility
 * is decided afterwards (decision 0016).
 */
async function readSalonData(db: Reader, request: AvailabilityRequest) {
  const { salonId, from, to, now } = request;
  const result = await db.execute(sql`
    select booking_availability_data(
      ${salonId}::uuid, ${pgArray(request.menuIds)}::uuid[], ${from}::date, ${to}::date,
      ${now.toISOString()}::timestamptz, ${request.ignoreHolds === true},
      ${pgArray(request.busyStatuses ?? occupyingStatuses)}::text[], ${bookingSettingsDefaults.bufferAfterMinutes}::int,
      ${request.anyStatus === true}
    ) as data`);
  const [row] = (result as unknown as { rows: { data: unknown }[] }).rows;
  const data = typeof row?.data === "string" ? JSON.parse(row.data) : row?.data;
  if (!data) throw new Error("the availability function answered no row");
  return availabilityData.parse(data);
}

type AvailabilityData = z.infer<typeof availabilityData>;

const toException = (row: AvailabilityData["exceptions"][number]): DatedException => ({
  date: row.date,
  kind: row.kind,
  intervals:
    row.kind === "closed" || row.start === null || row.end === null
      ? []
      : [{ start: row.start, end: row.end }],
});

/** The engine's view of each stylist's week and exceptions, from the function's answer. */
function staffAvailabilityOf(
  staffIds: readonly string[],
  schedules: AvailabilityData["schedules"],
  exceptions: AvailabilityData["exceptions"],
  memberId: (index: number) => string,
): StaffAvailability[] {
  return staffIds.map((id) => ({
    id,
    weekly: schedules
      .filter((item) => memberId(item.member) === id)
      .map((item) => ({
        weekday: item.weekday,
        start: formatMinutes(item.startMinutes),
        end: formatMinutes(item.endMinutes),
        validFrom: item.validFrom,
        validUntil: item.validUntil,
      })),
    exceptions: exceptions.filter((row) => row.staffId === id).map(toException),
  }));
}

/** What the back office counts a day's free capacity from (see loadSalonDay). */
export type SalonDay = Pick<
  AvailabilityInput,
  "timeZone" | "settings" | "salonHours" | "salonExceptions" | "holidays" | "staff" | "busy"
>;

/**
 * Every active stylist's schedule, exceptions and busy time (bookings,
 * blocks, live holds) on one local date, through the same one-call function
 * as the availability engine, with no menus chosen (so everyone is a
 * candidate): the back office's free capacity per stylist (issue 28,
 * point 2), for the salon in any status (its back office runs a draft
 * salon too). Null when there is no such salon.
 */
export async function loadSalonDay(
  db: Reader,
  { salonId, date, now }: { salonId: string; date: LocalDate; now: Date },
): Promise<SalonDay | null> {
  return loadSalonDays(db, { salonId, from: date, to: date, now });
}

/** The same over a range of local dates (the ledger's week), still one call. */
export type SalonDays = SalonDay;

/** loadSalonDay for the local dates from `from` to `to` (inclusive, at most MAX_RANGE_DAYS). */
export async function loadSalonDays(
  db: Reader,
  { salonId, from, to, now }: { salonId: string; from: LocalDate; to: LocalDate; now: Date },
): Promise<SalonDays | null> {
  if (!isUuid(salonId) || !isLocalDate(from) || !isLocalDate(to) || to < from) return null;
  if (addDays(from, MAX_RANGE_DAYS - 1) < to) return null;
  const row = await readSalonData(db, {
    salonId,
    menuIds: [],
    staffId: null,
    from,
    to,
    now,
    anyStatus: true,
  });
  if (!row.salon) return null;
  const members = row.members;
  const memberId = (index: number) => members[index] ?? "";
  const rules = row.settings ?? { ...bookingSettingsDefaults };
  const { cancellationCutoffHours: _cutoff, holdMinutes: _hold, ...settings } = rules;
  return {
    timeZone: row.salon.timeZone,
    settings,
    salonHours: row.hours,
    salonExceptions: row.exceptions.filter((item) => item.staffId === null).map(toException),
    holidays: new Set(japaneseHolidaysBetween(from, to).keys()),
    staff: staffAvailabilityOf(members, row.schedules, row.exceptions, memberId),
    busy: row.busy.map((item) => ({
      staffId: memberId(item.member),
      start: new Date(item.start),
      end: new Date(item.end),
      ...(item.block ? { block: true } : {}),
    })),
  };
}

/** A salon's schedules without its busy time (see loadSalonSchedule). */
export type SalonSchedule = Omit<SalonDay, "busy">;

/**
 * The schedules, exceptions, closures and holidays of every active stylist
 * from `from` to `to` (inclusive, any length), WITHOUT busy time: the same
 * one-call function with no busy statuses, so a long range (the reports'
 * year, issue 29 point 6) reads no bookings. Feed it to workingIntervals
 * day by day: the engine's own reading of who works when. Null when there
 * is no such salon or the range is malformed.
 */
export async function loadSalonSchedule(
  db: Reader,
  { salonId, from, to }: { salonId: string; from: LocalDate; to: LocalDate },
): Promise<SalonSchedule | null> {
  if (!isUuid(salonId) || !isLocalDate(from) || !isLocalDate(to) || to < from) return null;
  const row = await readSalonData(db, {
    salonId,
    menuIds: [],
    staffId: null,
    from,
    to,
    now: new Date(0),
    anyStatus: true,
    busyStatuses: [],
  });
  if (!row.salon) return null;
  const members = row.members;
  const rules = row.settings ?? { ...bookingSettingsDefaults };
  const { cancellationCutoffHours: _cutoff, holdMinutes: _hold, ...settings } = rules;
  return {
    timeZone: row.salon.timeZone,
    settings,
    salonHours: row.hours,
    salonExceptions: row.exceptions.filter((item) => item.staffId === null).map(toException),
    holidays: new Set(japaneseHolidaysBetween(from, to).keys()),
    staff: staffAvailabilityOf(members, row.schedules, row.exceptions, (i) => members[i] ?? ""),
  };
}

/**
 * Everything the availability engine needs for one salon, a set of menus
 * and a stylist (or 指名なし) over a local date range, read from the
 * database in one statement and checked (see the errors in
 * booking-errors.ts). Busy time is every occupying booking of the
 * candidate stylists near the range; a hold counts only while it has not
 * expired at `now`.
 */
export async function loadAvailabilityInput(
  db: Reader,
  request: AvailabilityRequest,
): Promise<LoadedAvailability> {
  const invalid = shapeError(request);
  if (invalid) {
    // A missing salon is reported before a bad range or list, as a visitor reads the page.
    await publishedSalon(db, request.salonId);
    throw invalid;
  }
  if (!isUuid(request.salonId)) throw new SalonNotFoundError();
  const row = await readSalonData(db, request);
  const salon = row.salon;
  if (!salon) throw new SalonNotFoundError();
  const byId = new Map(row.menus.map((menu) => [menu.id, menu]));
  const chosen = request.menuIds.map((id) => {
    const menu = byId.get(id);
    if (!menu) throw new MenuNotAvailableError();
    return menu;
  });
  const members = row.members;
  // Schedules and busy time name a stylist by its index in members (migration 0014).
  const memberId = (index: number) => members[index] ?? "";
  const staffIds = eligibleStaff(members, row.abilities, request.staffId);
  const eligible = new Set(staffIds);
  const rules: SalonBookingRules = row.settings ?? { ...bookingSettingsDefaults };
  const { from, to, now } = request;
  const timeZone = salon.timeZone;
  // The function answers schedules unordered (sorting there cost more); by weekday and start here.
  const schedules = row.schedules
    .filter((item) => eligible.has(memberId(item.member)))
    .sort((x, y) => x.weekday - y.weekday || x.startMinutes - y.startMinutes);
  const exceptions = row.exceptions;
  const busyRows = row.busy.filter((item) => eligible.has(memberId(item.member)));

  const staffAvailability = staffAvailabilityOf(staffIds, schedules, exceptions, memberId);
  const busy: BusyInterval[] = busyRows.map((item) => ({
    staffId: memberId(item.member),
    start: new Date(item.start),
    end: new Date(item.end),
    ...(item.block ? { block: true } : {}),
  }));
  // The local date of each start comes from the database (one Intl call per
  // booking was the loader's largest cost).
  const bookingsPerStaffDay = new Map<string, number>();
  for (const { member, date, block } of busyRows) {
    // The salon's blocked time is not a booking the daily limit counts.
    if (block) continue;
    const key = `${memberId(member)}|${date}`;
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
      salonHours: row.hours,
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
