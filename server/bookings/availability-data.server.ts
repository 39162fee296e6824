import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { occupyingStatuses, salons } from "../db/schema";
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
import { addDays, isLocalDate, toLocal } from "./local-time";
import { bookingSettingsDefaults, type SalonBookingRules } from "./settings";

/** The longest range one request may ask about (the calendar shows up to two months). */
export const MAX_RANGE_DAYS = 62;
/** More menus than anyone books at once; keeps the queries bounded. */
export const MAX_MENUS = 5;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

function menusError(menuIds: readonly string[]) {
  return menuIds.length === 0 ||
    menuIds.length > MAX_MENUS ||
    new Set(menuIds).size !== menuIds.length ||
    !menuIds.every((id) => UUID.test(id))
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
    (request.staffId !== null && !UUID.test(request.staffId) ? new StaffNotAvailableError() : null)
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

type Row = {
  salon: { id: string; name: string; slug: string; timeZone: string } | null;
  menus: ChosenMenu[] | null;
  members: string[] | null;
  abilities: { menuId: string; staffId: string }[] | null;
  settings: {
    slotStepMinutes: number;
    leadTimeMinutes: number;
    bookingWindowDays: number;
    bufferAfterMinutes: number;
    dailyLimitPerStaff: number | null;
    sameDayCutoff: string | null;
    closedOnHolidays: boolean;
    cancellationCutoffHours: number;
    holdMinutes: number;
  } | null;
  hours: { weekday: number; start: string; end: string }[] | null;
  schedules:
    | {
        staffId: string;
        weekday: number;
        start: string;
        end: string;
        validFrom: string | null;
        validUntil: string | null;
      }[]
    | null;
  exceptions:
    | {
        staffId: string | null;
        date: string;
        kind: DatedException["kind"];
        start: string | null;
        end: string | null;
      }[]
    | null;
  busy: { staffId: string; start: string; end: string }[] | null;
};

/**
 * Everything about one salon the engine needs, in ONE statement: a
 * round trip per part (nine, one after the other, since inside the
 * booking transaction they share one connection) was most of the cost of
 * an availability answer (bench/README.md). Schedules and busy time are
 * read for every active stylist; eligibility is decided afterwards.
 * Each part is a json_agg of a small indexed read of this salon.
 */
async function readSalonData(db: Reader, request: AvailabilityRequest) {
  const { salonId, from, to, now } = request;
  const menuIds = sql.join(
    request.menuIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const holds = request.ignoreHolds
    ? sql`b.status <> 'held'`
    : sql`(b.status <> 'held' or b.hold_expires_at > ${now.toISOString()}::timestamptz)`;
  const statuses = sql.join(
    occupyingStatuses.map((status) => sql`${status}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    with salon as (
      select id, name, slug, time_zone from salons
      where id = ${salonId}::uuid and status = 'published'
    ),
    settings as (
      select * from salon_booking_settings where salon_id = (select id from salon)
    ),
    members as (
      select id, sort_order from staff where salon_id = (select id from salon) and active
    ),
    -- A day before and after the range: bookings across local midnight and buffers.
    range as (
      select ((${from}::date - 1)::timestamp at time zone s.time_zone) as starts,
             ((${to}::date + 2)::timestamp at time zone s.time_zone) as ends
      from salon s
    )
    select
      (select json_build_object('id', s.id, 'name', s.name, 'slug', s.slug, 'timeZone', s.time_zone)
        from salon s) as salon,
      (select json_agg(json_build_object('id', m.id, 'name', m.name, 'price', m.price,
          'durationMinutes', m.duration_minutes))
        from menus m
        where m.salon_id = (select id from salon) and m.published and m.id in (${menuIds})) as menus,
      (select json_agg(t.id order by t.sort_order, t.id) from members t) as members,
      (select json_agg(json_build_object('menuId', ms.menu_id, 'staffId', ms.staff_id))
        from menu_staff ms where ms.menu_id in (${menuIds})) as abilities,
      (select json_build_object(
          'slotStepMinutes', r.slot_step_minutes, 'leadTimeMinutes', r.lead_time_minutes,
          'bookingWindowDays', r.booking_window_days, 'bufferAfterMinutes', r.buffer_after_minutes,
          'dailyLimitPerStaff', r.daily_limit_per_staff,
          'sameDayCutoff', to_char(r.same_day_cutoff, 'HH24:MI'),
          'closedOnHolidays', r.closed_on_public_holidays,
          'cancellationCutoffHours', r.cancellation_cutoff_hours, 'holdMinutes', r.hold_minutes)
        from settings r) as settings,
      (select json_agg(json_build_object('weekday', h.weekday,
          'start', to_char(h.opens, 'HH24:MI'), 'end', to_char(h.closes, 'HH24:MI'))
          order by h.weekday, h.opens)
        from salon_opening_hours h where h.salon_id = (select id from salon)) as hours,
      (select json_agg(json_build_object('staffId', w.staff_id, 'weekday', w.weekday,
          'start', to_char(w.starts_at, 'HH24:MI'), 'end', to_char(w.ends_at, 'HH24:MI'),
          'validFrom', w.valid_from, 'validUntil', w.valid_until)
          order by w.weekday, w.starts_at)
        from staff_schedules w
        where w.salon_id = (select id from salon) and w.staff_id in (select id from members)
          and (w.valid_from is null or w.valid_from <= ${to}::date)
          and (w.valid_until is null or w.valid_until >= ${from}::date)) as schedules,
      (select json_agg(json_build_object('staffId', e.staff_id, 'date', e.date, 'kind', e.kind,
          'start', to_char(e.starts_at, 'HH24:MI'), 'end', to_char(e.ends_at, 'HH24:MI'))
          order by e.date, e.starts_at)
        from schedule_exceptions e
        where e.salon_id = (select id from salon)
          and e.date between ${from}::date and ${to}::date) as exceptions,
      -- The engine adds today's buffer around the end; a booking made under
      -- a longer buffer keeps the time it was given.
      (select json_agg(json_build_object('staffId', b.staff_id, 'start', b.starts_at,
          'end', greatest(b.ends_at, b.occupied_until - make_interval(mins =>
            coalesce((select buffer_after_minutes from settings),
              ${bookingSettingsDefaults.bufferAfterMinutes}::int))))
          order by b.starts_at)
        from bookings b
        where b.salon_id = (select id from salon) and b.staff_id in (select id from members)
          and b.status in (${statuses}) and ${holds}
          and b.starts_at < (select ends from range)
          and b.occupied_until > (select starts from range)) as busy
  `);
  const [row] = (result as unknown as { rows: Row[] }).rows;
  if (!row) throw new Error("the availability statement answered no row");
  return row;
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
  if (!UUID.test(request.salonId)) throw new SalonNotFoundError();
  const row = await readSalonData(db, request);
  const salon = row.salon;
  if (!salon) throw new SalonNotFoundError();
  const byId = new Map((row.menus ?? []).map((menu) => [menu.id, menu]));
  const chosen = request.menuIds.map((id) => {
    const menu = byId.get(id);
    if (!menu) throw new MenuNotAvailableError();
    return menu;
  });
  const staffIds = eligibleStaff(row.members ?? [], row.abilities ?? [], request.staffId);
  const eligible = new Set(staffIds);
  const rules: SalonBookingRules = row.settings
    ? { ...row.settings, sameDayCutoff: row.settings.sameDayCutoff ?? null }
    : { ...bookingSettingsDefaults };
  const { from, to, now } = request;
  const timeZone = salon.timeZone;
  const hours = row.hours ?? [];
  const schedules = (row.schedules ?? []).filter((item) => eligible.has(item.staffId));
  const exceptions = row.exceptions ?? [];
  const busyRows = (row.busy ?? []).filter((item) => eligible.has(item.staffId));

  const toException = (row: (typeof exceptions)[number]): DatedException => ({
    date: row.date,
    kind: row.kind,
    intervals:
      row.kind === "closed" || row.start === null || row.end === null
        ? []
        : [{ start: row.start, end: row.end }],
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
    start: new Date(row.start),
    end: new Date(row.end),
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
