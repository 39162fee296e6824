/**
 * What the availability engine (availability.ts) reads and returns: plain
 * data, no database rows, no clock, no environment. The loader
 * (availability-data.server.ts) fills it from the database; tests fill it
 * from small scenario builders.
 *
 * Local dates are "YYYY-MM-DD" and local times "HH:MM" in the salon's time
 * zone; instants are Date objects (UTC underneath).
 */

import type { LocalDate, LocalTime, Weekday } from "../../common/local-time";

// Local dates, times and weekdays are common/local-time.ts's; the engine's input names them too.
export type { LocalDate, LocalTime, Weekday };

/** A half-open local interval [start, end) on one day. */
export type LocalInterval = { start: LocalTime; end: LocalTime };

export type BookingSettings = {
  /** Start times are multiples of this from the start of a working interval. Default 15. */
  slotStepMinutes: number;
  /** No start earlier than now + lead time. Default 60. */
  leadTimeMinutes: number;
  /** No start on a local date later than today + window days. Default 60. */
  bookingWindowDays: number;
  /** Time the stylist stays occupied after each booking ends (cleaning, prep). Default 0. */
  bufferAfterMinutes: number;
  /**
   * Time the stylist is kept free before each booking starts (preparation;
   * issue 29, point 4). Default 0 (absent: 0).
   */
  bufferBeforeMinutes?: number;
  /** At most this many bookings per stylist per local day; null: no limit. */
  dailyLimitPerStaff: number | null;
  /** After this local time, no more bookings for the same day; null: none. */
  sameDayCutoff: LocalTime | null;
  /** The salon is closed on Japanese public holidays. */
  closedOnHolidays: boolean;
};

/** The salon's weekly opening hours; several intervals a weekday are allowed. */
export type WeeklyHours = { weekday: Weekday; start: LocalTime; end: LocalTime };

/** A stylist's weekly working interval, valid from/until local dates (inclusive). */
export type WeeklySchedule = WeeklyHours & {
  validFrom: LocalDate | null;
  validUntil: LocalDate | null;
};

/**
 * A dated exception, for the salon (staffId null) or one stylist.
 * - closed: nothing that day (for a stylist: a day off);
 * - hours: that day's intervals replace the weekly ones (rows of the same
 *   date and target add up);
 * - extra: a working day that the weekly pattern does not have (intervals
 *   as for hours).
 */
export type DatedException = {
  date: LocalDate;
  kind: "closed" | "hours" | "extra";
  intervals: LocalInterval[];
};

export type StaffAvailability = {
  id: string;
  weekly: WeeklySchedule[];
  exceptions: DatedException[];
};

/**
 * Time a stylist is already occupied: bookings and live holds, [start, end)
 * without today's buffers (the engine adds them; a booking made under longer
 * buffers starts earlier or ends later by what it kept). `block`: the
 * salon's blocked time (休憩…), no buffers around it.
 */
export type BusyInterval = { staffId: string; start: Date; end: Date; block?: boolean };

export type AvailabilityInput = {
  now: Date;
  timeZone: string;
  /** Inclusive local date range to look at. */
  from: LocalDate;
  to: LocalDate;
  settings: BookingSettings;
  salonHours: WeeklyHours[];
  salonExceptions: DatedException[];
  /** Japanese public holidays in (at least) the range, from @holiday-jp/holiday_jp. */
  holidays: ReadonlySet<LocalDate>;
  /** The stylists who can do every chosen menu (the loader filters by menu). */
  staff: StaffAvailability[];
  /** A specific stylist, or null for 指名なし (any of `staff`). */
  staffId: string | null;
  /** Sum of the chosen menus' durations. */
  durationMinutes: number;
  /** Existing bookings and live holds of these stylists that overlap the range. */
  busy: BusyInterval[];
  /** Bookings already counted per stylist and local date, for the daily limit. */
  bookingsPerStaffDay: ReadonlyMap<string, number>; // key `${staffId}|${date}`
};

export type FreeSlot = {
  /** Instant the booking would start. */
  start: Date;
  /** Local "HH:MM", for display and forms. */
  time: LocalTime;
  /** Stylists free for the whole duration at this start (one when staffId was given). */
  staffIds: string[];
};

export type DayAvailability = {
  date: LocalDate;
  weekday: Weekday;
  holiday: boolean;
  /** Why there is nothing that day, when `slots` is empty. */
  closedReason: "salon_closed" | "holiday" | "outside_window" | "past" | "full" | null;
  slots: FreeSlot[];
};
