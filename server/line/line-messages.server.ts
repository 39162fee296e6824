import { count, gte, sql } from "drizzle-orm";
import { SITE_TIME_ZONE } from "../../common/format";
import { LocalDay, toLocal } from "../../common/local-time";
import { quietHoursEnd } from "../../common/waitlist";
import type { Database } from "../db/client";
import { lineMessages, type MessageKind } from "../db/schema";
import { enqueue } from "../jobs/queue.server";
import type { Mail, Mailer } from "../mail/mailer";
import type { LineMessage } from "./line-templates";
import { messageRoute } from "./message-channels.server";

/**
 * One message to a visitor, by mail, LINE or both (issue 41 §1, decision
 * 0089). Called inside the job transaction that would have sent the mail:
 * the LINE message is a line_messages row (the mail kept as its fallback)
 * and a `line_push` job, both committed with the job's done mark, so it is
 * pushed once, by the job worker, and never lost.
 */

export const linePushKind = "line_push";

/** What the booking, waitlist and review jobs are told about LINE. */
export type LineDeliveryOptions = {
  /** False when this server has no LINE channel (production without one): mail only. */
  line?: boolean;
  /** WAITLIST_QUIET_HOURS: false only in end-to-end tests. */
  quietHours?: boolean;
};

export type VisitorMessage = {
  /** The booking's (or waitlist entry's) account; null for a guest: mail. */
  userId: string | null;
  kind: MessageKind;
  /** The mail as today; its `to` empty when there is no address. */
  mail: Mail;
  line: () => LineMessage[];
  salonId: string | null;
  bookingId: string | null;
  /** The salon's zone: quiet hours are its night. */
  timeZone: string;
  /**
   * It answers the customer's own action (their booking, move, cancellation):
   * pushed at once even at night, since they just asked for it. Otherwise it
   * waits for the quiet hours to end.
   */
  ownAction: boolean;
  now: Date;
};

/** When a push may go: now, or the end of the quiet hours for a message the customer did not ask for. */
export function linePushTime(
  now: Date,
  timeZone: string,
  ownAction: boolean,
  quietHours = true,
): Date {
  if (ownAction || !quietHours) return now;
  return quietHoursEnd(now, timeZone) ?? now;
}

export async function sendVisitorMessage(
  tx: Database,
  mailer: Mailer,
  message: VisitorMessage,
  options: LineDeliveryOptions,
): Promise<void> {
  const route = options.line
    ? await messageRoute(tx, message.userId, message.kind)
    : { mail: true, lineUserId: null };
  if (route.lineUserId) {
    const [row] = await tx
      .insert(lineMessages)
      .values({
        userId: message.userId,
        lineUserId: route.lineUserId,
        kind: message.kind,
        salonId: message.salonId,
        bookingId: message.bookingId,
        messages: message.line(),
        // Sent by mail as well ('both'): nothing to fall back to.
        fallbackMail: !route.mail && message.mail.to ? message.mail : null,
      })
      .returning({ id: lineMessages.id });
    if (!row) throw new Error("line message not recorded");
    await enqueue(tx, {
      kind: linePushKind,
      payload: { messageId: row.id, timeZone: message.timeZone, ownAction: message.ownAction },
      runAt: linePushTime(message.now, message.timeZone, message.ownAction, options.quietHours),
      dedupeKey: `${linePushKind}:${row.id}`,
      salonId: message.salonId,
    });
  }
  if (route.mail && message.mail.to) await mailer.send(message.mail);
}

/** The first instant of `now`'s month in Japan, where LINE's plans count their messages. */
export function monthStart(now: Date): Date {
  const today = toLocal(now, SITE_TIME_ZONE).date;
  return new Date(new LocalDay(`${today.slice(0, 8)}01`, SITE_TIME_ZONE).instantMs(0));
}

/** This month's LINE use: pushes sent, and messages that went by mail instead (by `sentAt`). */
export async function lineMonthUsage(db: Pick<Database, "select">, now: Date) {
  const [row] = await db
    .select({
      sent: count(sql`case when ${lineMessages.status} = 'sent' then 1 end`),
      fellBack: count(sql`case when ${lineMessages.status} = 'fell_back' then 1 end`),
    })
    .from(lineMessages)
    .where(gte(lineMessages.sentAt, monthStart(now)));
  return { sent: Number(row?.sent ?? 0), fellBack: Number(row?.fellBack ?? 0) };
}
