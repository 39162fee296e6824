import type { messagingApi } from "@line/bot-sdk";
import { eq } from "drizzle-orm";
import { SITE_TIME_ZONE } from "../../common/format";
import { isUuid } from "../../common/uuid";
import { quietHoursEnd } from "../../common/waitlist";
import type { Database } from "../db/client";
import { lineFollows, lineMessages } from "../db/schema";
import { enqueue, type JobHandler } from "../jobs/queue.server";
import type { Logger } from "../logger";
import { createMailer } from "../mail/mailer";
import type { LineChannel } from "./line-channel.server";
import { lineMonthUsage, linePushKind } from "./line-messages.server";

/**
 * The `line_push` job (decision 0089): one line_messages row pushed to LINE
 * with the row's id as `X-Line-Retry-Key` on every attempt, so however many
 * times a lost answer makes us try again, LINE delivers it once (a 409 says
 * it already did). 429, 5xx, a network error or a timeout throws, and the
 * job queue runs it again with its backoff; after LINE_PUSH_ATTEMPTS pushes,
 * or on any other 4xx, or when the month's quota is spent or the user
 * unfollowed, the row's mail goes instead (fell_back).
 */

/** Pushes before the mail goes instead: with the queue's 30 s doubling backoff, about 15 minutes. */
export const LINE_PUSH_ATTEMPTS = 5;

class PushFailed extends Error {}

type Row = typeof lineMessages.$inferSelect;

export type LinePushOptions = {
  /** Null: this server has no LINE channel (production without one): every row goes by mail. */
  channel: LineChannel | null;
  /** LINE_MONTHLY_QUOTA. */
  monthlyQuota: number;
  mailFrom: string;
  /** WAITLIST_QUIET_HOURS: false only in end-to-end tests. */
  quietHours?: boolean;
  log?: Logger;
};

/** Gives up on LINE: the mail goes instead; `sentAt` is then when it did (the month's counts). */
async function fallBack(
  tx: Database,
  row: Row,
  reason: string,
  attempts: number,
  { from, now }: { from: string; now: Date },
) {
  if (row.fallbackMail) await createMailer(tx, { from }).send(row.fallbackMail);
  await tx
    .update(lineMessages)
    .set({
      status: row.fallbackMail ? "fell_back" : "dropped",
      lastError: reason,
      attempts,
      sentAt: now,
    })
    .where(eq(lineMessages.id, row.id));
}

export function linePushJobHandlers(options: LinePushOptions): Record<string, JobHandler> {
  return {
    async [linePushKind]({ tx, job, now }) {
      const messageId = isUuid(job.payload.messageId) ? job.payload.messageId : null;
      if (!messageId) return;
      const [row] = await tx
        .select()
        .from(lineMessages)
        .where(eq(lineMessages.id, messageId))
        .for("update");
      if (row?.status !== "pending") return;
      const mail = { from: options.mailFrom, now };
      const ownAction = job.payload.ownAction === true;
      const timeZone =
        typeof job.payload.timeZone === "string" ? job.payload.timeZone : SITE_TIME_ZONE;
      const prior = Number.isInteger(job.payload.priorAttempts)
        ? Number(job.payload.priorAttempts)
        : 0;
      // Pushes already made for this row: one per failed run of this job, and the earlier jobs'.
      const pushed = prior + job.attempts - 1;
      // A retry's backoff may bring an unasked message into the night: it waits for the morning.
      const morning =
        ownAction || options.quietHours === false ? null : quietHoursEnd(now, timeZone);
      if (morning) {
        await enqueue(tx, {
          kind: linePushKind,
          payload: { ...job.payload, priorAttempts: pushed },
          runAt: morning,
          dedupeKey: `${linePushKind}:${row.id}:${morning.toISOString()}`,
          salonId: job.salonId,
        });
        return;
      }
      if (!options.channel) {
        return fallBack(tx, row, "no LINE channel", pushed, mail);
      }
      const [follow] = await tx
        .select({ following: lineFollows.following })
        .from(lineFollows)
        .where(eq(lineFollows.lineUserId, row.lineUserId));
      // Unfollowed (or blocked) since the message was written: LINE would not deliver it.
      if (!follow?.following) return fallBack(tx, row, "unfollowed", pushed, mail);
      if ((await lineMonthUsage(tx, now)).sent >= options.monthlyQuota) {
        options.log?.warn("line: monthly quota spent; sending the mail instead", {
          quota: options.monthlyQuota,
        });
        return fallBack(tx, row, "monthly quota spent", pushed, mail);
      }
      const attempt = pushed + 1;
      const outcome = await options.channel.push({
        to: row.lineUserId,
        messages: row.messages as messagingApi.Message[],
        retryKey: row.id,
      });
      if (outcome.kind === "sent") {
        await tx
          .update(lineMessages)
          .set({ status: "sent", sentAt: now, attempts: attempt, lastError: null })
          .where(eq(lineMessages.id, row.id));
        return;
      }
      if (outcome.kind === "refused" || attempt >= LINE_PUSH_ATTEMPTS) {
        options.log?.warn("line: push failed; sending the mail instead", {
          messageId: row.id,
          attempts: attempt,
          error: outcome.error,
        });
        return fallBack(tx, row, outcome.error, attempt, mail);
      }
      // Rolled back with the job: the queue tries again after its backoff.
      throw new PushFailed(outcome.error);
    },
  };
}
