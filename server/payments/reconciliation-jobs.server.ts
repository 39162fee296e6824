import { and, eq } from "drizzle-orm";
import { formatDate, SITE_TIME_ZONE } from "../../common/format";
import { addDays, calendarDay, localToInstant } from "../../common/local-time";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { enqueue, type JobHandler } from "../jobs/queue.server";
import type { Logger } from "../logger";
import { createMailer } from "../mail/mailer";
import { renderReconciliationMail } from "../mail/reconciliation-templates";
import type { PaymentProvider } from "./provider.server";
import { reconcilePayments } from "./reconciliation.server";

/**
 * The daily reconciliation on the job queue (decision 0081): one job per
 * day, its dedupe key the day reconciled, so however many app servers
 * start, the day is reconciled once; the run schedules the next day's in
 * its own transaction (as housekeeping does), so the chain never breaks.
 */
export const reconcileJobKind = "payments_reconcile";

/** When the day after `now`'s reconciliation runs: 04:30 in the site's zone (quiet hours). */
export function nextReconcileRun(now: Date, timeZone = SITE_TIME_ZONE): Date {
  const today = calendarDay(now, timeZone);
  return localToInstant(addDays(today, 1), "04:30", timeZone);
}

/** The run at `runAt` reconciles the day before it (that day has ended by then). */
export function scheduleReconciliation(
  db: Pick<Database, "insert">,
  runAt: Date,
  timeZone = SITE_TIME_ZONE,
) {
  const day = addDays(calendarDay(runAt, timeZone), -1);
  return enqueue(db, {
    kind: reconcileJobKind,
    payload: { day },
    runAt,
    dedupeKey: `${reconcileJobKind}:${day}`,
  });
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function reconciliationJobHandlers(
  provider: PaymentProvider,
  log?: Logger,
  /** With these, the administrators are mailed when a run records new differences. */
  mail?: { mailFrom: string; publicUrl: string },
): Record<string, JobHandler> {
  return {
    async [reconcileJobKind]({ tx, job, now }) {
      const day = String(job.payload.day ?? "");
      // A malformed payload reconciles nothing but keeps the chain going.
      if (DAY.test(day)) {
        const result = await reconcilePayments(tx, provider, { day, now, log });
        if (mail && result.newFound > 0) await mailAdministrators(tx, result, mail);
      }
      await scheduleReconciliation(tx, nextReconcileRun(now));
    },
  };
}

/**
 * One mail per administrator per run, through the outbox in the job's
 * transaction (decision 0084): a run retried after a failure mails once,
 * and a difference seen again on a later day is not new.
 */
async function mailAdministrators(
  tx: Database,
  result: { day: string; newFound: number; newOpen: number },
  { mailFrom, publicUrl }: { mailFrom: string; publicUrl: string },
) {
  const admins = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.banned, false)));
  const mailer = createMailer(tx, { from: mailFrom });
  for (const admin of admins) {
    await mailer.send(
      renderReconciliationMail({
        to: admin.email,
        dayLabel: formatDate(result.day),
        newFound: result.newFound,
        newOpen: result.newOpen,
        url: `${publicUrl}/admin/payments`,
      }),
    );
  }
}
