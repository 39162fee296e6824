import { formatDate } from "../../common/format";
import { toLocal } from "../../common/local-time";

/**
 * When a 仮予約 lapses if the salon has not answered (issue 38, §1.2;
 * decision 0071). Pure: the confirm step shows it before the click, the
 * confirmation stores it and the lapse job runs at it.
 */

/** The salon answers at least this long before the start, so the visitor can still plan. */
export const APPROVAL_MARGIN_MINUTES = 60;

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * The salon's answer window from the request (`answerHours`, a setting),
 * but never later than an hour before the start: a request the salon
 * leaves unanswered must not lapse after the visitor should have left
 * home. A request made less than that hour before the start (a salon with
 * a short lead time) keeps until the start itself, rather than lapsing
 * the moment it is made.
 */
export function approvalDeadline(requestedAt: Date, startsAt: Date, answerHours: number): Date {
  const bound = requestedAt.getTime() + answerHours * HOUR;
  const beforeStart = startsAt.getTime() - APPROVAL_MARGIN_MINUTES * MINUTE;
  if (beforeStart <= requestedAt.getTime()) return new Date(startsAt.getTime());
  return new Date(Math.min(bound, beforeStart));
}

/**
 * The deadline of a pending request moved to `startsAt`: never later than
 * the one promised (the visitor was told it), and never past an hour before
 * the new start (the start itself when that hour has begun). A move later
 * keeps the deadline; a move earlier can bring it forward.
 */
export function approvalDeadlineAfterMove(current: Date, startsAt: Date, now: Date): Date {
  const beforeStart = startsAt.getTime() - APPROVAL_MARGIN_MINUTES * MINUTE;
  const bound = beforeStart <= now.getTime() ? startsAt.getTime() : beforeStart;
  return new Date(Math.min(current.getTime(), bound));
}

/** "2026年11月23日(月) 18:00" in the salon's zone, through the site's one date formatter. */
export function formatApprovalDeadline(deadline: Date, timeZone: string): string {
  const local = toLocal(deadline, timeZone);
  return `${formatDate(local.date)} ${local.time}`;
}
