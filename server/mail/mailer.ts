import { desc } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Database } from "../db/client";
import { mailOutbox } from "../db/schema";

export type Mail = { to: string; subject: string; text: string; html: string };
export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * SMTP when SMTP_URL is set; otherwise the outbox table, which /dev/mailbox
 * shows outside production so sign-up works on a fresh machine.
 */
export function createMailer(db: Database, options: { smtpUrl?: string; from: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  return {
    async send(mail) {
      await db.insert(mailOutbox).values({ from: options.from, ...mail });
    },
  };
}

/** Newest first; what /dev/mailbox lists. */
export function listOutbox(db: Database, limit = 50) {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
}
