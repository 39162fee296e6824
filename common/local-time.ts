/**
 * Local dates and times in a named IANA time zone, without reading the
 * process time zone (TZ) or the clock: the zone is always an argument, so the
 * same code gives the same answer on a server in UTC and one in Tokyo.
 *
 * Built on Intl.DateTimeFormat (the ICU data shipped with Node) rather than a
 * library: what we need is small (date arithmetic on "YYYY-MM-DD", and the
 * offset of a zone at an instant), and `@date-fns/tz` or a Temporal polyfill
 * would add a dependency for the same ICU lookups.
 *
 * DST: a local time that happens twice (clocks turned back) means the earlier
 * instant; a local time that does not exist (clocks turned forward) is moved
 * forward by the length of the gap (02:30 → 03:30). This is Temporal's
 * "compatible" disambiguation, the one calendars use.
 */

/** "YYYY-MM-DD" in a named time zone (a salon's). */
export type LocalDate = string;
/** "HH:MM" (24 h) in a named time zone; "24:00" allowed as an end. */
export type LocalTime = string;
/** 0 = Sunday … 6 = Saturday, as Date.getDay() and PostgreSQL's dow. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

const MINUTE = 60_000;
const DAY = 86_400_000;
/** No zone's offset is larger than this, so a local day lies within ±14 h of its UTC reading. */
const MAX_OFFSET = 14 * 3_600_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})$/;

/** [year, month 1-12, day]; throws RangeError on anything but a real "YYYY-MM-DD". */
export function parseLocalDate(date: LocalDate): [number, number, number] {
  const m = DATE_RE.exec(date);
  if (m) {
    const y = Number(m[1]);
    const mo = Number(m[2]);
    const d = Number(m[3]);
    const check = new Date(Date.UTC(y, mo - 1, d));
    if (
      check.getUTCFullYear() === y &&
      check.getUTCMonth() === mo - 1 &&
      check.getUTCDate() === d
    ) {
      return [y, mo, d];
    }
  }
  throw new RangeError(`Not a local date (YYYY-MM-DD): ${date}`);
}

/** True for a real calendar date written "YYYY-MM-DD". */
export function isLocalDate(value: string): boolean {
  try {
    parseLocalDate(value);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds of the local date's midnight read as if it were UTC (a calendar day number × DAY). */
function dayNumberMs(date: LocalDate): number {
  const [y, m, d] = parseLocalDate(date);
  return Date.UTC(y, m - 1, d);
}

function formatDayNumberMs(ms: number): LocalDate {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The date `days` calendar days after `date` (negative goes back). */
export function addDays(date: LocalDate, days: number): LocalDate {
  return formatDayNumberMs(dayNumberMs(date) + days * DAY);
}

/** 0 = Sunday … 6 = Saturday; a calendar fact, the same in every zone. */
export function weekdayOf(date: LocalDate): Weekday {
  return new Date(dayNumberMs(date)).getUTCDay() as Weekday;
}

/** Minutes since midnight of "HH:MM"; "24:00" is 1440 (an end of day). Throws RangeError otherwise. */
export function minutesOf(time: LocalTime): number {
  const m = TIME_RE.exec(time);
  if (m) {
    const h = Number(m[1]);
    const min = Number(m[2]);
    if ((h < 24 && min < 60) || (h === 24 && min === 0)) return h * 60 + min;
  }
  throw new RangeError(`Not a local time (HH:MM): ${time}`);
}

/** "HH:MM" for minutes since midnight (0 … 1440). */
export function formatMinutes(minutes: number): LocalTime {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

// One formatter per zone: creating an Intl.DateTimeFormat costs far more than using one.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

// "11/23/2026, 14:48:37": en-US with h23 and 2-digit fields always reads so.
// format() and a regular expression cost less than formatToParts().
const WALL_RE = /^(\d{2})\/(\d{2})\/(-?\d+),? (\d{2}):(\d{2}):(\d{2})$/;

/** The wall-clock reading in `timeZone` at `ms`, as milliseconds "as if UTC" (seconds precision). */
function wallClockMs(ms: number, timeZone: string): number {
  const text = formatterFor(timeZone).format(ms);
  const m = WALL_RE.exec(text);
  if (!m) throw new Error(`Unexpected date format from Intl: ${text}`);
  const wall = new Date(0);
  wall.setUTCFullYear(Number(m[3]), Number(m[1]) - 1, Number(m[2]));
  wall.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  return wall.getTime();
}

/** The zone's offset from UTC at the instant `ms`, in milliseconds (Tokyo: +9 h). */
export function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallClockMs(whole, timeZone) - whole;
}

export type LocalDateTime = {
  date: LocalDate;
  time: LocalTime;
  /** Minutes since local midnight. */
  minutes: number;
  weekday: Weekday;
};

/** The local date, time and weekday in `timeZone` at `instant`. */
export function toLocal(instant: Date, timeZone: string): LocalDateTime {
  const wall = wallClockMs(instant.getTime(), timeZone);
  const date = formatDayNumberMs(Math.floor(wall / DAY) * DAY);
  const minutes = Math.floor((wall - Math.floor(wall / DAY) * DAY) / MINUTE);
  return { date, time: formatMinutes(minutes), minutes, weekday: weekdayOf(date) };
}

/**
 * The calendar day (YYYY-MM-DD) of `instant` in `timeZone`: the site's one
 * "local date of an instant" (toLocal's date, without its time and weekday).
 * Here rather than in common/format.ts, whose formatters every public page
 * loads: only the few client modules that need a day pull this module in (issue 42).
 */
export function calendarDay(instant: Date, timeZone: string): LocalDate {
  return formatDayNumberMs(Math.floor(wallClockMs(instant.getTime(), timeZone) / DAY) * DAY);
}

const dayOffsets = new Map<string, readonly [number, number]>();

/**
 * Converts local wall-clock times of one local date to instants and back,
 * asking Intl only two or three times per day: on a day without a DST change
 * (every day in Tokyo) the offset is one number.
 */
export class LocalDay {
  readonly date: LocalDate;
  readonly timeZone: string;
  /** Local midnight read as if UTC. */
  private readonly base: number;
  /** Offsets just before and just after the day; equal unless the offset changes near it. */
  private readonly before: number;
  private readonly after: number;

  constructor(date: LocalDate, timeZone: string) {
    this.date = date;
    this.timeZone = timeZone;
    this.base = dayNumberMs(date);
    const key = `${timeZone}|${date}`;
    let offsets = dayOffsets.get(key);
    if (!offsets) {
      offsets = [
        offsetAt(this.base - MAX_OFFSET, timeZone),
        offsetAt(this.base + DAY + MAX_OFFSET, timeZone),
      ];
      // A memo of a pure lookup (zone rules only change with Node's ICU data), kept small.
      if (dayOffsets.size >= 10_000) dayOffsets.clear();
      dayOffsets.set(key, offsets);
    }
    [this.before, this.after] = offsets;
  }

  /** The instant (epoch ms) of local `minutes` after midnight (1440 = next midnight). */
  instantMs(minutes: number): number {
    const wall = this.base + minutes * MINUTE;
    if (this.before === this.after) return wall - this.before;
    // The offset changes near this day: of the two offsets, keep those that
    // really are the zone's offset at the instant they give.
    const earlier = wall - Math.max(this.before, this.after);
    const later = wall - Math.min(this.before, this.after);
    const earlierOk = offsetAt(earlier, this.timeZone) === wall - earlier;
    if (earlierOk) return earlier; // also the first of two readings when clocks go back
    const laterOk = offsetAt(later, this.timeZone) === wall - later;
    if (laterOk) return later;
    // In the gap when clocks go forward: read with the offset from before the gap.
    return wall - this.before;
  }

  /** Local minutes after this day's midnight at the instant `ms` (may be < 0 or ≥ 1440 off the day). */
  minutesAt(ms: number): number {
    const offset = this.before === this.after ? this.before : offsetAt(ms, this.timeZone);
    return Math.floor((ms + offset - this.base) / MINUTE);
  }
}

/** The instant of a local date and time in `timeZone` (see the DST rule above). */
export function localToInstant(date: LocalDate, time: LocalTime, timeZone: string): Date {
  return new Date(new LocalDay(date, timeZone).instantMs(minutesOf(time)));
}
