import { sessionSyncJobHandlers } from "../accounts/session-sync.server";
import { bookingJobHandlers } from "../bookings/booking-jobs.server";
import { feeLinkJobHandlers } from "../bookings/fee-link-jobs.server";
import { paymentResendJobHandlers } from "../bookings/payment-resend-jobs.server";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { LineChannel } from "../line/line-channel.server";
import { linePushJobHandlers } from "../line/line-push-jobs.server";
import { describeError, type Logger } from "../logger";
import { approvalLapseJobHandlers } from "../owner/approval-lapse-jobs.server";
import type { PaymentProvider } from "../payments/provider.server";
import {
  nextReconcileRun,
  reconciliationJobHandlers,
  scheduleReconciliation,
} from "../payments/reconciliation-jobs.server";
import { reviewReplyJobHandlers } from "../reviews/review-reply-jobs.server";
import { reviewRequestJobHandlers } from "../reviews/review-request-jobs.server";
import { waitlistJobHandlers } from "../waitlist/waitlist-jobs.server";
import {
  housekeepingHandler,
  housekeepingKind,
  nextHousekeepingRun,
  scheduleHousekeeping,
} from "./housekeeping.server";
import { type RunningJobWorker, startJobWorker } from "./queue.server";

/**
 * The one job worker of an app server (server/app.ts, scripts/dev.ts): booking
 * mails and reminders (decision 0010), the visitors' LINE pushes (decision 0089), the lapse of unanswered 仮予約
 * (decision 0071), the daily housekeeping and, with a payment provider, the
 * daily reconciliation of payments (decision 0081), whose first runs are
 * enqueued here (once, whatever the number of servers: dedupe keys).
 */
export function startBackgroundJobs(
  db: Database,
  config: Pick<
    Config,
    | "MAIL_FROM"
    | "PUBLIC_URL"
    | "WAITLIST_QUIET_HOURS"
    | "SESSION_SYNC_URL"
    | "SESSION_SYNC_SECRET"
    | "LINE_MONTHLY_QUOTA"
  >,
  log: Logger,
  {
    now = () => new Date(),
    payments = null,
    sender = null,
    line = null,
  }: {
    now?: () => Date;
    /** The provider the daily reconciliation reads (one that keeps its state). */
    payments?: PaymentProvider | null;
    /** The provider pending fees and refunds are retried with (decision 0084): any, the in-process fake too. */
    sender?: PaymentProvider | null;
    /** The LINE channel (or its local fake) the visitors' LINE messages go through (decision 0089). */
    line?: LineChannel | null;
  } = {},
): RunningJobWorker {
  scheduleHousekeeping(db, nextHousekeepingRun(now())).catch((error) =>
    log.error("housekeeping not scheduled", describeError(error)),
  );
  if (payments) {
    scheduleReconciliation(db, nextReconcileRun(now())).catch((error) =>
      log.error("payments reconciliation not scheduled", describeError(error)),
    );
  }
  const quietHours = config.WAITLIST_QUIET_HOURS === "on";
  // The visitor's messages go by LINE when they chose it and this server has a channel.
  const delivery = { line: line !== null, quietHours };
  return startJobWorker({
    db,
    handlers: {
      ...bookingJobHandlers({
        mailFrom: config.MAIL_FROM,
        publicUrl: config.PUBLIC_URL,
        ...delivery,
      }),
      ...reviewRequestJobHandlers({
        mailFrom: config.MAIL_FROM,
        publicUrl: config.PUBLIC_URL,
        ...delivery,
      }),
      ...reviewReplyJobHandlers({ mailFrom: config.MAIL_FROM, publicUrl: config.PUBLIC_URL }),
      ...waitlistJobHandlers({
        mailFrom: config.MAIL_FROM,
        publicUrl: config.PUBLIC_URL,
        ...delivery,
      }),
      ...linePushJobHandlers({
        channel: line,
        monthlyQuota: config.LINE_MONTHLY_QUOTA,
        mailFrom: config.MAIL_FROM,
        quietHours,
        log,
      }),
      ...approvalLapseJobHandlers(),
      ...feeLinkJobHandlers({ mailFrom: config.MAIL_FROM }),
      ...sessionSyncJobHandlers(config, log),
      [housekeepingKind]: housekeepingHandler,
      ...(payments
        ? reconciliationJobHandlers(payments, log, {
            mailFrom: config.MAIL_FROM,
            publicUrl: config.PUBLIC_URL,
          })
        : {}),
      ...(sender
        ? paymentResendJobHandlers({ provider: sender, publicUrl: config.PUBLIC_URL, log })
        : {}),
    },
    log,
    now,
  });
}
