import { and, eq } from "drizzle-orm";
import { payments } from "../db/schema";
import type { JobHandler } from "../jobs/queue.server";
import { describeError, type Logger } from "../logger";
import { failureReason } from "../payments/payment-lines";
import { RESEND_ATTEMPTS, resendJobKind, scheduleResend } from "../payments/payment-send.server";
import type { PaymentProvider } from "../payments/provider.server";
import { sendPaymentRow } from "./booking-fees.server";

/**
 * The automatic retry of a fee or refund the provider could not be reached
 * for (decision 0084): the row sent again with its saved key (claimed under
 * its status, so never beside another sender), the next attempt scheduled
 * with backoff while it stays pending, and after the last the row keeps
 * waiting for 再試行 with its reason shown on the booking detail.
 */
export function paymentResendJobHandlers(options: {
  provider: PaymentProvider;
  publicUrl: string;
  log?: Logger;
}): Record<string, JobHandler> {
  return {
    async [resendJobKind]({ tx, job, now }) {
      const paymentId = String(job.payload.paymentId ?? "");
      const attempt = Number(job.payload.attempt) || 1;
      const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId));
      if (row?.status !== "pending") return;
      try {
        // Through the job's transaction: what it records commits with the job done.
        await sendPaymentRow(tx, options.provider, row, { ...options, now });
      } catch (error) {
        options.log?.warn("payments: retry left pending", {
          paymentId,
          attempt,
          ...describeError(error),
        });
      }
      const [after] = await tx
        .select({ status: payments.status })
        .from(payments)
        .where(eq(payments.id, paymentId));
      if (after?.status !== "pending") return;
      if (attempt < RESEND_ATTEMPTS) {
        await scheduleResend(tx, row, attempt + 1, now);
        return;
      }
      // Given up: the salon sees why on the booking detail, and 再試行 sends the same key.
      await tx
        .update(payments)
        .set({
          failureCode: "provider_unreachable",
          failureMessage: failureReason("provider_unreachable"),
        })
        .where(and(eq(payments.id, paymentId), eq(payments.status, "pending")));
      options.log?.error("payments: automatic retries exhausted; waiting for 再試行", {
        paymentId,
      });
    },
  };
}
