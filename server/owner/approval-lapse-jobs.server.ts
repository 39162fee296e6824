import { approvalLapseJobKind } from "../bookings/approval.server";
import type { JobHandler } from "../jobs/queue.server";
import { lapseUnansweredRequest } from "./booking-actions.server";

/**
 * The job that lapses a 仮予約 at its deadline (decision 0071), enqueued by
 * the confirmation (server/bookings/, which imports nothing from here). It
 * goes through the salon's one decline path, in the job's transaction, so
 * the lapse and the job's done mark commit together; the customer's mail
 * is the cancellation job that path enqueues.
 */
export function approvalLapseJobHandlers(): Record<string, JobHandler> {
  return {
    async [approvalLapseJobKind]({ tx, job, now }) {
      const bookingId = job.payload.bookingId;
      if (typeof bookingId === "string") await lapseUnansweredRequest(tx, bookingId, now);
    },
  };
}
