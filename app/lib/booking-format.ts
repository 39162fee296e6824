import { toLocal } from "../../common/local-time";

/**
 * Japanese date and time wording of the booking screens, in the salon's
 * time zone (passed in, never the machine's): "2026年11月23日(月) 10:00〜11:30".
 */
export const weekdayLetters = ["日", "月", "火", "水", "木", "金", "土"] as const;

/** "YYYY-MM-DD" → its weekday, 0 = Sunday, independent of any zone. */
export function weekdayOf(localDate: string): number {
  const [y, m, d] = localDate.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay();
}

/** "2026-11-23" → "2026年11月23日(月)". */
export function formatLocalDate(localDate: string, withYear = true): string {
  const [y, m, d] = localDate.split("-").map(Number);
  const day = `${m}月${d}日(${weekdayLetters[weekdayOf(localDate)]})`;
  return withYear ? `${y}年${day}` : day;
}

/** The local date ("YYYY-MM-DD") and time ("HH:MM") of an instant in a zone. */
export function localDateTime(instant: Date, timeZone: string) {
  const { date, time } = toLocal(instant, timeZone);
  return { date, time };
}

/** "2026年11月23日(月) 10:00〜11:30" (the end's date is added when it differs). */
export function formatBookingRange(start: Date, end: Date, timeZone: string): string {
  const from = localDateTime(start, timeZone);
  const to = localDateTime(end, timeZone);
  const endText = to.date === from.date ? to.time : `${formatLocalDate(to.date)} ${to.time}`;
  return `${formatLocalDate(from.date)} ${from.time}〜${endText}`;
}

/** Whole minutes as "1時間30分" / "45分". */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}分`;
  return rest === 0 ? `${hours}時間` : `${hours}時間${rest}分`;
}

/** The hold's time left, rounded up to whole minutes: "残り約10分", or "" once past. */
export function formatRemaining(expiresAt: Date, now: Date): string {
  const ms = expiresAt.getTime() - now.getTime();
  if (ms <= 0) return "";
  const minutes = Math.ceil(ms / 60_000);
  return minutes <= 1 ? "残り1分未満" : `残り約${minutes}分`;
}

/** The cancellation rule in words, from the salon's cutoff in hours. */
export function cancellationPolicy(cutoffHours: number): string {
  if (cutoffHours <= 0) return "ご予約の開始時刻まで、ネットでキャンセルできます。";
  const span =
    cutoffHours % 24 === 0
      ? `${cutoffHours / 24}日前（${cutoffHours}時間前）`
      : `${cutoffHours}時間前`;
  return `ご予約の開始${span}まで、予約履歴からネットでキャンセルできます。それ以降のキャンセル・変更はサロンへお電話ください。`;
}
