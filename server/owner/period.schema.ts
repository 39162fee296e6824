import type { z } from "zod";
import { addDays, isLocalDate } from "../../common/local-time";

/**
 * A period of the salon's local dates, both ends included, as the reports
 * (decision 0050) and the bookings CSV (decision 0049) take it: real dates
 * of this century, the end not before the start, at most a year.
 */

/** The longest period a report or an export covers: a year, leap day included. */
export const MAX_PERIOD_DAYS = 366;

/** Dates outside these years are typing slips, not periods anyone reports on. */
const FIRST_DATE = "2000-01-01";
const LAST_DATE = "2099-12-31";

/** A real date, YYYY-MM-DD, between 2000 and 2099. */
export const isPeriodDate = (value: string) =>
  isLocalDate(value) && value >= FIRST_DATE && value <= LAST_DATE;

/**
 * The period's own rules, for a schema's superRefine; `labels` name the
 * two fields in the messages (開始日 / 開始日（from）).
 */
export function refinePeriod(labels: { from: string; to: string }) {
  return (period: { from: string; to: string }, context: z.RefinementCtx) => {
    // Zod runs this even when a date was refused: compare real dates only.
    if (!isLocalDate(period.from) || !isLocalDate(period.to)) return;
    if (period.to < period.from) {
      context.addIssue({
        code: "custom",
        path: ["to"],
        message: `${labels.to}は${labels.from}と同じ日か、それより後の日付にしてください。`,
      });
    } else if (addDays(period.from, MAX_PERIOD_DAYS - 1) < period.to) {
      context.addIssue({
        code: "custom",
        path: ["to"],
        message: `期間は${MAX_PERIOD_DAYS}日以内で指定してください。`,
      });
    }
  };
}
