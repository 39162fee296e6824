import {
  addDays,
  formatMinutes,
  LocalDay,
  minutesOf,
  toLocal,
  weekdayOf,
} from "../../common/local-time";
import type {
  AvailabilityInput,
  BusyInterval,
  DatedException,
  DayAvailability,
  FreeSlot,
  LocalDate,
  Weekday,
  WeeklyHours,
  WeeklySchedule,
} from "./availability-input";
import { type Interval, intersect, merge, subtract } from "./intervals";

/**
 * The availability engine: free start times from plain data (see
 * availability-input.ts). Pure: `now` and the time zone are arguments; it
 * reads no clock, no environment and no database. Times are compared as
 * instants (epoch ms), so a day with a DST change has 23 or 25 hours.
 *
 * Rules, per local date from `from` to `to` (inclusive):
 *
 * 1. Day status, first match wins:
 *    - before today (in the salon's zone) → "past";
 *    - after today + bookingWindowDays → "outside_window";
 *    - the salon's opening intervals (rule 2) are empty → "holiday" when
 *      closed for a holiday, else "salon_closed";
 *    - today, and the local time now is at or after sameDayCutoff →
 *      "outside_window" (no more bookings for today);
 *    - no free start (rule 5) → "full"; else null.
 *    `holiday` is true for every public holiday, open or not.
 * 2. Salon opening intervals: the salon's exceptions of that date if any
 *    ("closed" → none; "hours"/"extra" → their intervals, rows of the date
 *    added up; a "closed" row wins over other rows of the date); otherwise,
 *    when closedOnHolidays and the date is a holiday → none (reason
 *    "holiday"); otherwise the weekly hours of that weekday.
 * 3. A stylist's working intervals: their exceptions of that date likewise
 *    ("closed" = day off; "hours"/"extra" replace the week), otherwise the
 *    weekly rows of that weekday valid on the date (validFrom/validUntil
 *    inclusive, null open-ended); then intersected with the salon's opening
 *    intervals: a stylist never works while the salon is closed. A stylist
 *    whose bookings that day (bookingsPerStaffDay) reached
 *    dailyLimitPerStaff has none.
 * 4. Busy: each booking or live hold of the stylist takes
 *    [start − before − after, end + after + before) out of their working
 *    intervals (before, after: bufferBeforeMinutes, bufferAfterMinutes); what
 *    is left are the free parts. So a booking occupies [start − before,
 *    end + after) (the exclusion constraint's range, migration 0022), and a
 *    new booking's occupied time may not touch an existing one's. A block
 *    has no buffers of its own: it takes [start − after, end + before). The new booking's service must end by the end of the
 *    working interval (closing, a break); its own buffer may run past
 *    closing or into a break, since tidying up after the last client is
 *    normal.
 * 5. Starts: every slotStepMinutes from the START OF EACH WORKING INTERVAL
 *    (rule 3, before bookings are taken out), so times stay on a regular
 *    grid (10:00, 10:15, …) and the grids of stylists with the same hours
 *    line up for 指名なし; a booking ending at 10:50 makes the next offered
 *    start 11:00, not 10:50. A start is offered when [start, start +
 *    duration) lies inside a free part of the working interval (rule 4) and
 *    start ≥ now + leadTimeMinutes.
 * 6. Slots of all candidate stylists (input.staff, or only input.staffId)
 *    are merged by start instant; staffIds keep the order of input.staff.
 *
 * Cost: O(days × stylists × (intervals + busy + slots)); no per-minute loop.
 */
export function findAvailability(input: AvailabilityInput): DayAvailability[] {
  const { settings, timeZone } = input;
  const step = settings.slotStepMinutes;
  if (!Number.isInteger(step) || step <= 0) {
    throw new RangeError(`slotStepMinutes must be a positive integer: ${step}`);
  }
  if (!(input.durationMinutes > 0)) {
    throw new RangeError(`durationMinutes must be positive: ${input.durationMinutes}`);
  }
  const stepMs = step * 60_000;
  const durationMs = input.durationMinutes * 60_000;
  const bufferMs = settings.bufferAfterMinutes * 60_000;
  const beforeMs = (settings.bufferBeforeMinutes ?? 0) * 60_000;

  const nowMs = input.now.getTime();
  const earliestStart = nowMs + settings.leadTimeMinutes * 60_000;
  const nowLocal = toLocal(input.now, timeZone);
  const today = nowLocal.date;
  const lastBookable = addDays(today, settings.bookingWindowDays);
  const cutoffPassed =
    settings.sameDayCutoff !== null && nowLocal.minutes >= minutesOf(settings.sameDayCutoff);

  const candidates =
    input.staffId === null ? input.staff : input.staff.filter((s) => s.id === input.staffId);
  const blockedByStaff = blockedIntervals(input.busy, bufferMs, beforeMs);
  // Parse every "HH:MM" once, not once per day and stylist.
  const salon = { weekly: byWeekday(input.salonHours), exceptions: byDate(input.salonExceptions) };
  const stylists = candidates.map((s) => ({
    id: s.id,
    weekly: byWeekday(s.weekly),
    exceptions: byDate(s.exceptions),
  }));

  const days: DayAvailability[] = [];
  for (let date = input.from; date <= input.to; date = addDays(date, 1)) {
    const weekday = weekdayOf(date);
    const holiday = input.holidays.has(date);
    const day = (closedReason: DayAvailability["closedReason"], slots: FreeSlot[] = []) =>
      days.push({ date, weekday, holiday, closedReason, slots });

    if (date < today) {
      day("past");
      continue;
    }
    if (date > lastBookable) {
      day("outside_window");
      continue;
    }
    const local = new LocalDay(date, timeZone);
    const opening = openingOn(salon, date, weekday, local, holiday && settings.closedOnHolidays);
    if (opening === "holiday" || opening.length === 0) {
      day(opening === "holiday" ? "holiday" : "salon_closed");
      continue;
    }
    if (date === today && cutoffPassed) {
      day("outside_window");
      continue;
    }

    const byStart = new Map<number, string[]>();
    for (const stylist of stylists) {
      if (settings.dailyLimitPerStaff !== null) {
        const count = input.bookingsPerStaffDay.get(`${stylist.id}|${date}`) ?? 0;
        if (count >= settings.dailyLimitPerStaff) continue;
      }
      const working = workingOn(stylist, date, weekday, local, opening);
      const blocked = blockedByStaff.get(stylist.id) ?? [];
      for (const w of working) {
        for (const free of subtract([w], blocked)) {
          // First start on the grid of w at or after the free part (and the lead time).
          const from = Math.max(free.start, earliestStart);
          let start = w.start + Math.ceil((from - w.start) / stepMs) * stepMs;
          for (; start + durationMs <= free.end; start += stepMs) {
            const ids = byStart.get(start);
            if (ids) ids.push(stylist.id);
            else byStart.set(start, [stylist.id]);
          }
        }
      }
    }

    const slots = [...byStart.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([start, staffIds]) => ({
        start: new Date(start),
        time: formatMinutes(local.minutesAt(start)),
        staffIds,
      }));
    day(slots.length === 0 ? "full" : null, slots);
  }
  return days;
}

type ParsedWeek = { weekly: Row[][]; exceptions: Map<LocalDate, Row[]> };

/**
 * Rule 2: the salon's opening intervals on `date`, or "holiday" when it
 * closes for a public holiday (an exception of the date still opens it).
 */
function openingOn(
  salon: ParsedWeek,
  date: LocalDate,
  weekday: Weekday,
  local: LocalDay,
  closedForHoliday: boolean,
): Interval[] | "holiday" {
  const salonException = salon.exceptions.get(date);
  if (!salonException && closedForHoliday) return "holiday";
  return toInstants(salonException ?? salon.weekly[weekday] ?? [], date, local);
}

/** Rule 3 without the daily limit: a stylist's working intervals on `date`, inside `opening`. */
function workingOn(
  stylist: ParsedWeek,
  date: LocalDate,
  weekday: Weekday,
  local: LocalDay,
  opening: readonly Interval[],
): Interval[] {
  const rows = stylist.exceptions.get(date) ?? stylist.weekly[weekday] ?? [];
  return intersect(toInstants(rows, date, local), opening);
}

/**
 * The salon's opening intervals on one local date (rule 2, the engine's own
 * code), as instants (epoch ms), and why it is closed when they are empty:
 * the ledger's time axis and its 定休日 / 祝日 notice.
 */
export function salonOpeningOn(
  input: Pick<
    AvailabilityInput,
    "timeZone" | "settings" | "salonHours" | "salonExceptions" | "holidays"
  >,
  date: LocalDate,
): { closedReason: "holiday" | "salon_closed" | null; opening: Interval[] } {
  const local = new LocalDay(date, input.timeZone);
  const salon = { weekly: byWeekday(input.salonHours), exceptions: byDate(input.salonExceptions) };
  const opening = openingOn(
    salon,
    date,
    weekdayOf(date),
    local,
    input.holidays.has(date) && input.settings.closedOnHolidays,
  );
  if (opening === "holiday") return { closedReason: "holiday", opening: [] };
  return { closedReason: opening.length === 0 ? "salon_closed" : null, opening };
}

/**
 * Each stylist's working time on one local date (rules 2 and 3, the same
 * code the engine books by), as instants (epoch ms): what the back office
 * counts its free capacity from. Busy time and the daily limit are left to
 * the caller. An empty list: the stylist (or the salon) does not work that day.
 */
export function workingIntervals(
  input: Pick<
    AvailabilityInput,
    "timeZone" | "settings" | "salonHours" | "salonExceptions" | "holidays" | "staff"
  >,
  date: LocalDate,
): Map<string, Interval[]> {
  const local = new LocalDay(date, input.timeZone);
  const salon = { weekly: byWeekday(input.salonHours), exceptions: byDate(input.salonExceptions) };
  const weekday = weekdayOf(date);
  const opening = openingOn(
    salon,
    date,
    weekday,
    local,
    input.holidays.has(date) && input.settings.closedOnHolidays,
  );
  const result = new Map<string, Interval[]>();
  for (const s of input.staff) {
    const stylist = { weekly: byWeekday(s.weekly), exceptions: byDate(s.exceptions) };
    result.set(
      s.id,
      opening === "holiday" ? [] : workingOn(stylist, date, weekday, local, opening),
    );
  }
  return result;
}

/**
 * 指名なし at booking time: of the stylists free at the chosen start
 * (`candidates`, in the order of the salon's stylist list), the one with the
 * fewest bookings on that local date, ties going to the earlier one in the
 * list. This spreads work evenly and is deterministic, so a retried booking
 * picks the same stylist. Returns null when there is no candidate.
 */
export function pickStaff(
  candidates: readonly string[],
  bookingsPerStaffDay: ReadonlyMap<string, number>,
  date: LocalDate,
): string | null {
  let best: string | null = null;
  let bestCount = Number.POSITIVE_INFINITY;
  for (const id of candidates) {
    const count = bookingsPerStaffDay.get(`${id}|${date}`) ?? 0;
    if (count < bestCount) {
      best = id;
      bestCount = count;
    }
  }
  return best;
}

/** A local interval in minutes after midnight, valid on some dates. */
type Row = {
  start: number;
  end: number;
  validFrom: LocalDate | null;
  validUntil: LocalDate | null;
};

/** Weekly rows by weekday (index 0 = Sunday). */
function byWeekday(weekly: readonly (WeeklyHours & Partial<WeeklySchedule>)[]): Row[][] {
  const days: Row[][] = [[], [], [], [], [], [], []];
  for (const w of weekly) {
    days[w.weekday]?.push({
      start: minutesOf(w.start),
      end: minutesOf(w.end),
      validFrom: w.validFrom ?? null,
      validUntil: w.validUntil ?? null,
    });
  }
  return days;
}

/**
 * Exceptions by date, the rows of a date added up; a "closed" row wins over
 * the others of its date (an empty list: nothing that day).
 */
function byDate(exceptions: readonly DatedException[]): Map<LocalDate, Row[]> {
  const map = new Map<LocalDate, Row[]>();
  const closed = new Set<LocalDate>();
  for (const e of exceptions) {
    if (e.kind === "closed") closed.add(e.date);
    const rows = map.get(e.date) ?? [];
    for (const i of e.intervals) {
      rows.push({
        start: minutesOf(i.start),
        end: minutesOf(i.end),
        validFrom: null,
        validUntil: null,
      });
    }
    map.set(e.date, rows);
  }
  for (const date of closed) map.set(date, []);
  return map;
}

/**
 * The rows valid on `date` as merged instants; a row that does not end after
 * it starts (e.g. 20:00–02:00) is dropped: hours do not cross midnight.
 */
function toInstants(rows: readonly Row[], date: LocalDate, local: LocalDay): Interval[] {
  const out: Interval[] = [];
  for (const r of rows) {
    if (r.validFrom !== null && date < r.validFrom) continue;
    if (r.validUntil !== null && date > r.validUntil) continue;
    out.push({ start: local.instantMs(r.start), end: local.instantMs(r.end) });
  }
  return merge(out);
}

/**
 * Per stylist, the time a new booking's service may not touch, merged: the
 * existing booking's occupied time [start − before, end + after) widened by
 * the new booking's own buffers (its buffer after must end by the existing
 * one's occupied start, its buffer before begin after the occupied end). The
 * salon's blocked time (a break, a meeting) has no buffers of its own.
 */
function blockedIntervals(
  busy: readonly BusyInterval[],
  afterMs: number,
  beforeMs: number,
): Map<string, Interval[]> {
  const raw = new Map<string, Interval[]>();
  for (const b of busy) {
    const own = b.block ? 0 : 1;
    const interval = {
      start: b.start.getTime() - own * beforeMs - afterMs,
      end: b.end.getTime() + own * afterMs + beforeMs,
    };
    const list = raw.get(b.staffId);
    if (list) list.push(interval);
    else raw.set(b.staffId, [interval]);
  }
  return new Map([...raw].map(([id, list]) => [id, merge(list)]));
}
