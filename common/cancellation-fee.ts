import { addDays, localToInstant, toLocal } from "./local-time";
import { type FeeWindow, type PolicySnapshot, percentOf } from "./payment-policy";

/**
 * Which fee a cancellation or a no-show costs (issue 40 §3; decision 0080).
 * Pure: the booking's agreed policy (its snapshot), the booking as it is
 * now, the moment and the cause in, a yen amount out.
 *
 * - The percentages are the snapshot's (what the customer agreed to); the
 *   windows are calendar days of the booking's *current* start in the
 *   snapshot's zone (a booking moved to another day has its 前日 and 当日 on
 *   the days around the new start, as decision 0075 foresaw).
 * - The amount is the percentage of the booking's current amount, but never
 *   more than the yen amount the snapshot declared for that window: a move
 *   to a dearer menu never raises a fee the customer agreed to.
 */

export type FeeCause =
  /** 無断キャンセル recorded by the salon. */
  | "no_show"
  /** A cancellation that is the customer's (their own, or phoned in and recorded by the salon). */
  | "customer_cancel";

export type CancellationFee = { window: FeeWindow; percent: number; amount: number };

/** The window a customer's cancellation at `at` falls in, for a booking starting at `startsAt`. */
export function cancellationWindow(
  startsAt: Date,
  at: Date,
  timeZone: string,
): "day_before" | "same_day" | null {
  const startDay = toLocal(startsAt, timeZone).date;
  const sameDayFrom = localToInstant(startDay, "00:00", timeZone).getTime();
  const dayBeforeFrom = localToInstant(addDays(startDay, -1), "00:00", timeZone).getTime();
  if (at.getTime() >= sameDayFrom) return "same_day";
  if (at.getTime() >= dayBeforeFrom) return "day_before";
  return null;
}

/** The fee owed, or null when the policy asks none for this cause and moment. */
export function cancellationFee(
  snapshot: Pick<PolicySnapshot, "fees" | "timeZone"> | null,
  booking: { startsAt: Date; totalPrice: number },
  cause: FeeCause,
  at: Date,
): CancellationFee | null {
  if (!snapshot) return null;
  const window =
    cause === "no_show" ? "no_show" : cancellationWindow(booking.startsAt, at, snapshot.timeZone);
  if (!window) return null;
  const declared = snapshot.fees.find((fee) => fee.window === window);
  if (!declared || declared.percent <= 0) return null;
  const amount = Math.min(percentOf(booking.totalPrice, declared.percent), declared.amount);
  return amount > 0 ? { window, percent: declared.percent, amount } : null;
}
