import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { salonOwners, salons, users, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { startBackgroundLoop } from "../jobs/background-loop";
import { describeError, type Logger } from "../logger";
import { createMailer } from "../mail/mailer";
import { renderWebhookDisabledMail } from "../mail/webhook-templates";
import { countWebhookAttempt, type WebhookAttemptOutcome } from "../metrics/counts";
import { type PostOutcome, postWebhook } from "./http-post.server";

/**
 * The webhook delivery loop (decision 0086). Due rows of the outbox are
 * claimed in one statement with a lease (as the job queue claims jobs,
 * `FOR UPDATE SKIP LOCKED`), posted outside any transaction (a slow receiver
 * never holds a database session: PGlite has only one), then the outcome is
 * written in a short transaction, only while the row is still ours.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The Standard Webhooks retry schedule: the delay before attempt n (index n − 1):
 * at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then the delivery has failed.
 */
export const webhookRetrySchedule = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
] as const;

/** An endpoint whose deliveries have all failed this long is disabled and the owner told. */
export const FAILING_DISABLE_MS = 3 * 24 * HOUR;

/** When the next attempt goes after `attempts` failed ones, or null when none is left. */
export function nextAttemptDelay(attempts: number, retryAfterMs: number | null): number | null {
  const scheduled = webhookRetrySchedule[attempts];
  if (scheduled === undefined) return null;
  return Math.max(scheduled, retryAfterMs ?? 0);
}

/** The signature header: one `v1,…` per secret still valid (two during a rotation). */
export function signatureHeader(
  secrets: string[],
  messageId: string,
  timestamp: Date,
  body: string,
): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(" ");
}

type Endpoint = typeof webhookEndpoints.$inferSelect;
type Delivery = typeof webhookDeliveries.$inferSelect;

/** The secrets that sign now: the current one, and the previous one during its grace period. */
export function signingSecrets(endpoint: Endpoint, now: Date): string[] {
  const previous =
    endpoint.previousSecret &&
    endpoint.previousSecretUntil &&
    endpoint.previousSecretUntil.getTime() > now.getTime()
      ? [endpoint.previousSecret]
      : [];
  return [endpoint.secret, ...previous];
}

export type WebhookSenderOptions = {
  db: Database;
  log: Logger;
  allowLoopback: boolean;
  timeoutMs: number;
  mailFrom: string;
  publicUrl: string;
  now?: () => Date;
  leaseMs?: number;
  batchSize?: number;
};

export type WebhookSender = {
  /** Sends what is due now, once; resolves with the number of rows attempted. */
  deliverDue(): Promise<number>;
};

export function createWebhookSender({
  db,
  log,
  allowLoopback,
  timeoutMs,
  mailFrom,
  publicUrl,
  now = () => new Date(),
  leaseMs = 2 * MINUTE,
  batchSize = 10,
}: WebhookSenderOptions): WebhookSender {
  async function claim(): Promise<Delivery[]> {
    const at = now();
    const due = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, at),
          or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, at)),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    return db
      .update(webhookDeliveries)
      .set({
        lockedUntil: new Date(at.getTime() + leaseMs),
        attempts: sql`${webhookDeliveries.attempts} + 1`,
      })
      .where(inArray(webhookDeliveries.id, due))
      .returning();
  }

  async function attempt(delivery: Delivery): Promise<void> {
    const [endpoint] = await db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, delivery.endpointId));
    const at = now();
    if (!endpoint || endpoint.disabledAt) {
      await finish(delivery, at, {
        status: "failed",
        lastStatus: null,
        lastError: "endpoint disabled",
      });
      return;
    }
    const headers = {
      "webhook-id": delivery.messageId,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signatureHeader(
        signingSecrets(endpoint, at),
        delivery.messageId,
        at,
        delivery.body,
      ),
    };
    let outcome: PostOutcome;
    try {
      outcome = await postWebhook(new URL(endpoint.url), headers, delivery.body, {
        allowLoopback,
        timeoutMs,
        now: at,
      });
    } catch (error) {
      outcome = { kind: "failed", error: "request failed" };
      log.warn("webhook request failed", describeError(error));
    }
    await record(delivery, endpoint, outcome);
  }

  /** The final state of a delivery (delivered or failed) or its next attempt; ours only. */
  async function finish(
    delivery: Delivery,
    at: Date,
    values: Partial<typeof webhookDeliveries.$inferInsert>,
    tx: Database = db,
  ) {
    const written = await tx
      .update(webhookDeliveries)
      .set({ lockedUntil: null, lastAttemptAt: at, ...values })
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.attempts, delivery.attempts),
          eq(webhookDeliveries.status, "pending"),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    return written.length > 0;
  }

  async function record(delivery: Delivery, endpoint: Endpoint, outcome: PostOutcome) {
    const at = now();
    const status = outcome.kind === "answered" ? outcome.status : null;
    const counted = await db.transaction(async (tx): Promise<WebhookAttemptOutcome | null> => {
      if (status !== null && status >= 200 && status < 300) {
        if (
          !(await finish(
            delivery,
            at,
            { status: "delivered", lastStatus: status, lastError: null, nextAttemptAt: null },
            tx,
          ))
        )
          return null;
        await tx
          .update(webhookEndpoints)
          .set({ failingSince: null })
          .where(eq(webhookEndpoints.id, endpoint.id));
        return "delivered";
      }
      if (status === 410) {
        // Gone: the receiver says the endpoint no longer exists. Disabled at once.
        if (
          !(await finish(
            delivery,
            at,
            {
              status: "failed",
              lastStatus: 410,
              lastError: "410 Gone: endpoint disabled",
              nextAttemptAt: null,
            },
            tx,
          ))
        )
          return null;
        await disable(tx, endpoint, "gone", at);
        return "gone";
      }
      const error = outcome.kind === "failed" ? outcome.error : `HTTP ${outcome.status}`;
      const delay = nextAttemptDelay(
        delivery.attempts,
        outcome.kind === "answered" ? outcome.retryAfterMs : null,
      );
      const written = await finish(
        delivery,
        at,
        delay === null
          ? { status: "failed", lastStatus: status, lastError: error, nextAttemptAt: null }
          : {
              lastStatus: status,
              lastError: error,
              nextAttemptAt: new Date(at.getTime() + delay),
            },
        tx,
      );
      if (!written) return null;
      const failingSince = endpoint.failingSince ?? at;
      if (!endpoint.failingSince) {
        await tx
          .update(webhookEndpoints)
          .set({ failingSince: at })
          .where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince)));
      }
      if (at.getTime() - failingSince.getTime() >= FAILING_DISABLE_MS) {
        await disable(tx, endpoint, "failing", at);
      }
      return delay === null ? "failed" : "retrying";
    });
    if (counted) countWebhookAttempt(counted);
  }

  /** Disables the endpoint (once) and tells the salon's owners by mail. */
  async function disable(tx: Database, endpoint: Endpoint, reason: "gone" | "failing", at: Date) {
    const disabled = await tx
      .update(webhookEndpoints)
      .set({ disabledAt: at, disabledReason: reason })
      .where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.disabledAt)))
      .returning({ id: webhookEndpoints.id });
    if (disabled.length === 0) return;
    log.warn("webhook endpoint disabled", { endpointId: endpoint.id, reason });
    const [salon] = await tx
      .select({ name: salons.name })
      .from(salons)
      .where(eq(salons.id, endpoint.salonId));
    const owners = await tx
      .select({ email: users.email })
      .from(salonOwners)
      .innerJoin(users, eq(users.id, salonOwners.userId))
      .where(and(eq(salonOwners.salonId, endpoint.salonId), eq(users.role, "owner")))
      .orderBy(asc(users.email));
    const mailer = createMailer(tx, { from: mailFrom });
    for (const { email } of owners) {
      await mailer.send(
        renderWebhookDisabledMail({
          to: email,
          salonName: salon?.name ?? "",
          url: endpoint.url,
          reason,
          pageUrl: new URL(`/owner/salons/${endpoint.salonId}/settings/webhooks`, publicUrl).href,
        }),
        { limited: false },
      );
    }
  }

  async function deliverDue(): Promise<number> {
    const claimed = await claim();
    for (const delivery of claimed) {
      try {
        await attempt(delivery);
      } catch (error) {
        log.error("webhook delivery failed", { deliveryId: delivery.id, ...describeError(error) });
      }
    }
    return claimed.length;
  }

  return { deliverDue };
}

/** The loop's options from the server's settings. */
export function webhookDeliveryOptions(
  db: Database,
  config: Pick<
    Config,
    "WEBHOOK_ALLOW_LOOPBACK" | "WEBHOOK_TIMEOUT_SECONDS" | "MAIL_FROM" | "PUBLIC_URL"
  >,
  log: Logger,
): WebhookSenderOptions {
  return {
    db,
    log,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK === "on",
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    mailFrom: config.MAIL_FROM,
    publicUrl: config.PUBLIC_URL,
  };
}

export type RunningWebhookDelivery = { stop(): Promise<void> };

/** The background loop started by server/app.ts: a pass, then a pause (none after a full batch). */
export function startWebhookDelivery(
  options: WebhookSenderOptions & { intervalMs?: number },
): RunningWebhookDelivery {
  const sender = createWebhookSender(options);
  return startBackgroundLoop({
    pass: () => sender.deliverDue(),
    intervalMs: options.intervalMs ?? 1000,
    batchSize: options.batchSize ?? 10,
    log: options.log,
    failure: "webhook delivery loop failed",
  });
}
