/**
 * The field names and choices of the salon editor's 基本情報 form, written
 * once: the form (app/components/admin/salon-form.tsx) draws them and the
 * server (server/admin/salon-form.ts) reads and checks them.
 */

export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
export const weekdayLabels = ["日曜日", "月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日"];
/**
 * Opening intervals a weekday can have on the form. Two are shown (a lunch
 * closing makes two); a salon stored with more shows as many, so saving
 * never drops one.
 */
export const INTERVALS_PER_DAY = 4;
/** Blank closure rows offered below the existing ones. */
export const BLANK_CLOSURES = 3;
export const MAX_CLOSURES = 60;

/** Allowed slot steps, in minutes (divisors of an hour, so slots line up on the clock). */
export const slotStepChoices = [5, 10, 15, 20, 30, 60] as const;

export const hoursField = (weekday: number, k: number, end: "opens" | "closes") =>
  `hours-${weekday}-${k}-${end}`;
export const closureField = (i: number, part: "date" | "note") => `closure-${i}-${part}`;
