import { addDays, formatMinutes, LocalDay, toLocal } from "./local-time";

/**
 * What the waiting list's forms, pages and API share (issue 30, point 4;
 * decision 0055): limits, quiet hours and the Japanese labels.
 */
/** Live entries (waiting or offered) one account may have across salons. */
export const WAITLIST_LIVE_ENTRIES_MAX = 5;
/** No offer is made (nor its mail sent) from 22:00 until 08:00 in the salon's zone. */
export const WAITLIST_QUIET_FROM_MINUTES = 22 * 60;
export const WAITLIST_QUIET_UNTIL_MINUTES = 8 * 60;
export const WAITLIST_OFFER_MINUTES_DEFAULT = 30;
export const WAITLIST_OFFER_MINUTES_MIN = 10;
export const WAITLIST_OFFER_MINUTES_MAX = 240;

/** Entry statuses as the visitor reads them; the statuses are server/db/schema/waitlist.ts's. */
export const waitlistStatusLabels = {
  waiting: "キャンセル待ち中",
  offered: "空きのご案内中",
  booked: "予約済み",
  left: "取り消し済み",
  lapsed: "ご案内の期限切れ",
  expired: "終了",
} as const;

export const waitlistOfferStatusLabels = {
  open: "ご案内中",
  accepted: "予約済み",
  lapsed: "期限切れ",
  withdrawn: "取り消し",
} as const;

/** Whether a local time of day (minutes after midnight) falls in the quiet hours. */
export const inQuietHours = (minutes: number) =>
  minutes >= WAITLIST_QUIET_FROM_MINUTES || minutes < WAITLIST_QUIET_UNTIL_MINUTES;

/** An entry's wished window of start times as read: "10:00〜13:00" (minutes after midnight). */
export const waitlistWindowText = (windowStart: number, windowEnd: number) =>
  `${formatMinutes(windowStart)}〜${formatMinutes(windowEnd)}`;

/**
 * When the quiet hours (22:00–08:00 in `timeZone`) hold `now`: the 08:00
 * that ends them; else null. The waiting list defers its offers to it, and
 * LINE its unasked messages (decision 0089).
 */
export function quietHoursEnd(now: Date, timeZone: string): Date | null {
  const local = toLocal(now, timeZone);
  if (!inQuietHours(local.minutes)) return null;
  const morning =
    local.minutes >= WAITLIST_QUIET_UNTIL_MINUTES ? addDays(local.date, 1) : local.date;
  return new Date(new LocalDay(morning, timeZone).instantMs(WAITLIST_QUIET_UNTIL_MINUTES));
}
