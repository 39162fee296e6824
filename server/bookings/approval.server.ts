import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { type BookingApproval, bookings, jobs, salonBookingSettings } from "../db/schema";
import { enqueue } from "../jobs/queue.server";
import { approvalDeadline, approvalDeadlineAfterMove } from "./approval-deadline";

/**
 * Approval mode (仮予約, issue 29 point 4; decision 0051). A salon whose
 * booking settings say `requires_approval` gets each new WEB booking as a
 * confirmed row with `approval = 'pending'`: it occupies the time like any
 * booking (nobody else can take it), and the salon then approves it
 * ('approved') or refuses it (cancelled by the salon, 'refused'). Bookings
 * the salon enters itself (phone, walk-in) are never pending.
 */

/** Whether the salon asks to approve new web bookings (a salon without settings does not). */
export async function salonRequiresApproval(
  db: Pick<Database, "select">,
  salonId: string,
): Promise<boolean> {
  return (await approvalSettings(db, salonId)) !== null;
}

/** The salon's answer window in hours when it approves its web bookings, else null. */
async function approvalSettings(
  db: Pick<Database, "select">,
  salonId: string,
): Promise<{ answerHours: number } | null> {
  const [row] = await db
    .select({
      requiresApproval: salonBookingSettings.requiresApproval,
      answerHours: salonBookingSettings.approvalAnswerHours,
    })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, salonId));
  return row?.requiresApproval ? { answerHours: row.answerHours } : null;
}

export type ApprovalAtConfirm = {
  approval: BookingApproval | null;
  /** When the request lapses unanswered (decision 0071); null when no approval is asked. */
  approvalExpiresAt: Date | null;
};

/**
 * The approval a web booking starting at `startsAt` gets when confirmed at
 * `now`, with the moment it lapses if the salon does not answer. The
 * confirm step calls it before the click to say that moment; the
 * confirmation calls it again with its own clock.
 */
export async function approvalAtConfirm(
  db: Pick<Database, "select">,
  salonId: string,
  startsAt: Date,
  now: Date,
): Promise<ApprovalAtConfirm> {
  const settings = await approvalSettings(db, salonId);
  if (!settings) return { approval: null, approvalExpiresAt: null };
  return {
    approval: "pending",
    approvalExpiresAt: approvalDeadline(now, startsAt, settings.answerHours),
  };
}

/** The job that lapses a request the salon left unanswered (its handler: server/owner/). */
export const approvalLapseJobKind = "booking_approval_lapse";

/** Inside the confirmation's transaction: the lapse, at the deadline, once per booking. */
export async function enqueueApprovalLapse(
  tx: Pick<Database, "insert">,
  booking: { id: string; salonId: string },
  at: Date,
) {
  await enqueue(tx, {
    kind: approvalLapseJobKind,
    payload: { bookingId: booking.id },
    runAt: at,
    dedupeKey: `approval-lapse:${booking.id}`,
    salonId: booking.salonId,
  });
}

/**
 * A pending request moved (decision 0071): its deadline follows the new
 * start when that brings it forward, and the lapse job with it, so a request
 * moved earlier never lapses after its new start.
 */
export async function followMovedRequest(
  tx: Pick<Database, "update">,
  booking: { id: string; approval: BookingApproval | null; approvalExpiresAt: Date | null },
  startsAt: Date,
  now: Date,
): Promise<Date | null> {
  if (booking.approval !== "pending" || !booking.approvalExpiresAt) return null;
  const deadline = approvalDeadlineAfterMove(booking.approvalExpiresAt, startsAt, now);
  if (deadline.getTime() === booking.approvalExpiresAt.getTime()) return null;
  await tx.update(bookings).set({ approvalExpiresAt: deadline }).where(eq(bookings.id, booking.id));
  await tx
    .update(jobs)
    .set({ runAt: deadline })
    .where(and(eq(jobs.dedupeKey, `approval-lapse:${booking.id}`), isNull(jobs.doneAt)));
  return deadline;
}

/** A confirmed booking that still waits for the salon's answer (common/, for pages too). */
export { isPendingApproval } from "../../common/status-labels";
