import { asc, desc, eq, notInArray } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { RateLimitRule, RateLimitStore } from "../accounts/rate-limit";
import type { Database, DatabaseHandle } from "../db/client";
import { type MailAttachment, mailOutbox } from "../db/schema";
import { backoffDelay } from "../jobs/backoff";
import { describeError, type Logger } from "../logger";
import { countMailDelivery } from "../metrics/counts";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stored with the mail in the outbox (booking mails carry their .ics). */
  attachments?: MailAttachment[];
};
export type SendOptions = {
  /**
   * False for mails whose sender is a signed-in account with limits of its
   * own (a salon's invitation): they never count against, nor wait on, the
   * recipient's allowance, which strangers' anonymous requests can spend.
   */
  limited?: boolean;
};
export type Mailer = { send(mail: Mail, options?: SendOptions): Promise<void> };

/** The key one recipient's mails are counted under, whatever path sent them. */
export const recipientKey = (to: string) => `mail:to:${to.trim().toLowerCase()}`;

/**
 * Every mail goes to the outbox table, never to SMTP inside the request: a
 * request that mails a known address then answers in the same time as one
 * for an unknown address (no enumeration by timing), and a slow or down SMTP
 * server never holds a request. With SMTP_URL the delivery loop
 * (startMailDelivery) sends and removes the rows; without it /dev/mailbox
 * shows them outside production.
 *
 * Mails to one recipient are limited here, the one place every path goes
 * through (forms, /api/auth, registered or not): beyond the limit the mail
 * is dropped and logged, and the caller answers as usual so the limit
 * reveals nothing either.
 */
export function createMailer(
  db: Database,
  options: {
    from: string;
    perRecipient?: { store: RateLimitStore; rule: RateLimitRule };
    log?: Logger;
  },
): Mailer {
  return {
    async send(mail, sendOptions) {
      if (options.perRecipient && sendOptions?.limited !== false) {
        const { store, rule } = options.perRecipient;
        const result = await store.consume(recipientKey(mail.to), rule);
        if (!result.allowed) {
          options.log?.warn("mail dropped: too many mails to one recipient", {
            subject: mail.subject,
          });
          return;
        }
      }
      await db.insert(mailOutbox).values({ from: options.from, ...mail });
    },
  };
}

/** Newest first; what /dev/mailbox lists. */
export function listOutbox(db: Database, limit = 50) {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
}

type OutboxRow = typeof mailOutbox.$inferSelect;

export type MailDelivery = {
  /** Stops the loop after the batch in progress and closes the SMTP transport. */
  stop(): Promise<void>;
};

export type OutboxSender = {
  /** Sends what is waiting now, once; resolves with the number delivered. */
  deliverPending(): Promise<number>;
  close(): void;
};

const BATCH = 20;

type SenderOptions = {
  database: Pick<DatabaseHandle, "db" | "engine">;
  smtpUrl: string;
  log: Logger;
  /** Base delay of the retry backoff, and the loop's pause between batches. */
  intervalMs?: number;
};

/**
 * One pass over the outbox: claims a batch of rows, sends each over SMTP and
 * deletes it once the server accepted it. On PostgreSQL the claim is
 * `FOR UPDATE SKIP LOCKED` inside a transaction, so several app servers
 * never send one mail twice; PGlite is one process on one session, where
 * a transaction held during SMTP would stall every request, so it reads the
 * batch plainly (the loop never overlaps itself). A failed mail stays queued
 * and is retried with a growing delay.
 */
export function outboxSender({
  database,
  smtpUrl,
  log,
  intervalMs = 1000,
}: SenderOptions): OutboxSender {
  const { db } = database;
  const transport = nodemailer.createTransport(smtpUrl);
  const failures = new Map<string, { attempts: number; retryAt: number }>();

  const waitingIds = () => {
    const now = Date.now();
    return [...failures].filter(([, f]) => f.retryAt > now).map(([id]) => id);
  };

  async function sendOne(row: OutboxRow): Promise<boolean> {
    try {
      await transport.sendMail({
        from: row.from,
        to: row.to,
        subject: row.subject,
        text: row.text,
        html: row.html,
        attachments: row.attachments.map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          content: file.content,
        })),
      });
      failures.delete(row.id);
      countMailDelivery("sent");
      return true;
    } catch (error) {
      countMailDelivery("failed");
      const attempts = (failures.get(row.id)?.attempts ?? 0) + 1;
      const delay = backoffDelay(intervalMs, attempts);
      failures.set(row.id, { attempts, retryAt: Date.now() + delay });
      log.warn("mail delivery failed; will retry", {
        mailId: row.id,
        attempts,
        ...describeError(error),
      });
      return false;
    }
  }

  async function deliverPending(): Promise<number> {
    const skip = waitingIds();
    const pending = (tx: Database) =>
      tx
        .select()
        .from(mailOutbox)
        .where(skip.length > 0 ? notInArray(mailOutbox.id, skip) : undefined)
        .orderBy(asc(mailOutbox.createdAt))
        .limit(BATCH);
    if (database.engine === "postgres") {
      return db.transaction(async (tx) => {
        const rows = await pending(tx as unknown as Database).for("update", { skipLocked: true });
        let sent = 0;
        for (const row of rows) {
          if (!(await sendOne(row))) continue;
          await tx.delete(mailOutbox).where(eq(mailOutbox.id, row.id));
          sent++;
        }
        return sent;
      });
    }
    let sent = 0;
    for (const row of await pending(db)) {
      if (!(await sendOne(row))) continue;
      await db.delete(mailOutbox).where(eq(mailOutbox.id, row.id));
      sent++;
    }
    return sent;
  }

  return { deliverPending, close: () => transport.close() };
}

/**
 * The background sender started by server/app.ts when SMTP_URL is set: a
 * pass over the outbox, then a pause of `intervalMs`, until stopped.
 */
export function startMailDelivery(options: SenderOptions): MailDelivery {
  const sender = outboxSender(options);
  const intervalMs = options.intervalMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = sender
      .deliverPending()
      .catch((error) => options.log.error("mail delivery loop failed", describeError(error)))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  timer = setTimeout(tick, 0).unref();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      sender.close();
    },
  };
}
