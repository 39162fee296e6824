/**
 * Lists the salon editor's スタッフ, メニュー and クーポン tabs show and the
 * server checks (server/admin/salon-parts.schema.ts), written once.
 */

/** Menu durations offered: 5-minute steps up to an hour, then 15-minute steps up to 8 hours. */
export const durationChoices: readonly number[] = [
  ...Array.from({ length: 12 }, (_, i) => (i + 1) * 5),
  ...Array.from({ length: 28 }, (_, i) => 75 + i * 15),
];

export const durationLabel = (minutes: number) =>
  minutes < 60
    ? `${minutes}分`
    : `${Math.floor(minutes / 60)}時間${minutes % 60 ? `${minutes % 60}分` : ""}`;

/** 0 = Sunday, as the schedules store it. */
export const weekdayLabels = ["日", "月", "火", "水", "木", "金", "土"] as const;

/** Working intervals a weekday the schedule form offers (two make one break, three two). */
export const INTERVALS_PER_DAY = 3;

export const scheduleExceptionLabels = {
  closed: "休み",
  hours: "勤務時間の変更",
  extra: "臨時出勤",
} as const;

export const couponKindLabels = {
  amount: "○円引き",
  percent: "○%オフ",
  fixed_price: "特別価格（○円）",
} as const;
