import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { addDays, LocalDay, toLocal } from "../../common/local-time";
import { isPendingApproval } from "../../common/status-labels";
import type { Database } from "../db/client";
import type { MailAttachment } from "../db/schema";
import {
  bookingEvents,
  bookings,
  coupons,
  jobs,
  salonBookingSettings,
  salons,
  staff,
} from "../db/schema";
import { enqueue, type JobHandler } from "../jobs/queue.server";
import { type LineDeliveryOptions, sendVisitorMessage } from "../line/line-messages.server";
import type { LineMessage } from "../line/line-templates";
import { lineBookingMessages, lineMovedMessages } from "../line/line-templates";
import {
  type BookingMailDetails,
  type PreviousBookingTime,
  renderOwnerBookingNotice,
  renderVisitorBookingMail,
  renderVisitorMovedMail,
} from "../mail/booking-templates";
import { createMailer, type Mail } from "../mail/mailer";
import { paymentTextLines } from "../payments/payment-lines";
import { paymentRecordsFromJson, paymentRecordsJson } from "../payments/payment-records.server";
import { bookingCalendar } from "./booking-calendar.server";
import { bookingSettingsDefaults } from "./settings";

/**
 * The mails a booking causes, sent by the job queue (server/jobs/) rather
 * than inside the request: the booking transactions enqueue these jobs, so
 * a mail exists exactly when the booking change committed, and a request
 * that dies after the commit loses nothing.
 */

export const bookingJobKinds = {
  confirmed: "booking_confirmed",
  cancelled: "booking_cancelled",
  reminder: "booking_reminder",
  moved: "booking_moved",
  /** The salon approved a pending booking (decision 0051). */
  approved: "booking_approved",
} as const;

type BookingRow = typeof bookings.$inferSelect;

/**
 * When the day-before reminder goes out: the same local time on the day
 * before, in the salon's zone (24 h earlier except across a DST change), or
 * at once if that has already passed.
 */
export function reminderTime(startsAt: Date, timeZone: string, now: Date): Date {
  const local = toLocal(startsAt, timeZone);
  const dayBefore = new LocalDay(addDays(local.date, -1), timeZone).instantMs(local.minutes);
  return new Date(Math.max(dayBefore, now.getTime()));
}

/** Inside confirmBooking's transaction: the confirmation mails and the reminder. */
export async function enqueueConfirmationJobs(
  tx: Database,
  booking: BookingRow,
  timeZone: string,
  now: Date,
) {
  const payload = { bookingId: booking.id };
  await enqueue(tx, {
    kind: bookingJobKinds.confirmed,
    payload,
    runAt: now,
    dedupeKey: `confirmed:${booking.id}`,
    salonId: booking.salonId,
  });
  await enqueue(tx, {
    kind: bookingJobKinds.reminder,
    payload,
    runAt: reminderTime(booking.startsAt, timeZone, now),
    dedupeKey: `reminder:${booking.id}`,
    salonId: booking.salonId,
  });
}

/** Inside cancelBooking's transaction; the reminder job stays and finds the booking cancelled. */
export async function enqueueCancellationJobs(tx: Database, booking: BookingRow, now: Date) {
  await enqueue(tx, {
    kind: bookingJobKinds.cancelled,
    payload: { bookingId: booking.id },
    runAt: now,
    dedupeKey: `cancelled:${booking.id}`,
    salonId: booking.salonId,
  });
}

/**
 * The SEQUENCE of the booking's next calendar file (decision 0040): the
 * confirmation is 0, each move (time, stylist or menus) one more, and a
 * cancellation one more than the last move. Counted from the booking's
 * history: one move is one transaction, whose entries share its time, so a
 * caller that records 'moved' and 'menus_changed' for one change still
 * counts once. The salon's approval of a pending booking (a 'confirmed'
 * entry, decision 0051) is a revision too: it turns the TENTATIVE event
 * CONFIRMED.
 */
export async function movesSoFar(tx: Pick<Database, "select">, bookingId: string) {
  const [row] = await tx
    .select({ moves: sql<number>`count(distinct ${bookingEvents.createdAt})::int` })
    .from(bookingEvents)
    .where(
      and(
        eq(bookingEvents.bookingId, bookingId),
        inArray(bookingEvents.kind, ["moved", "menus_changed", "confirmed"]),
      ),
    );
  return Number(row?.moves ?? 0);
}

export type MovedJobOptions = {
  /** Who moved it: the salon is told (a notice mail) only of the customer's moves. */
  by: "customer" | "salon";
  /** Where the booking was before, for the mail's 変更前 line. */
  previous: PreviousBookingTime;
  now: Date;
};

/**
 * Inside the transaction that moved the booking (another time, stylist or
 * menus), AFTER its 'moved' / 'menus_changed' history entry is recorded:
 * the customer's mail with an .ics that updates the event (REQUEST, same
 * UID, the next SEQUENCE), and the salon's notice when the customer moved
 * it. One job per move (dedupe key by SEQUENCE).
 */
export async function enqueueMovedJobs(
  tx: Database,
  booking: Pick<BookingRow, "id" | "salonId">,
  options: MovedJobOptions,
) {
  // A caller that forgot the history entry still sends a newer file than the confirmation.
  const sequence = Math.max(1, await movesSoFar(tx, booking.id));
  await enqueue(tx, {
    kind: bookingJobKinds.moved,
    payload: {
      bookingId: booking.id,
      sequence,
      by: options.by,
      previous: {
        startsAt: options.previous.startsAt.toISOString(),
        endsAt: options.previous.endsAt.toISOString(),
        staffName: options.previous.staffName,
        menuNames: options.previous.menuNames,
      },
    },
    runAt: options.now,
    dedupeKey: `moved:${booking.id}:${sequence}`,
    salonId: booking.salonId,
  });
}

/**
 * Inside the transaction that approved a pending booking, AFTER its
 * 'confirmed' history entry: the customer's mail (the booking is now
 * confirmed) with an .ics that updates the tentative event (REQUEST, same
 * UID, the next SEQUENCE). Once per booking.
 */
export async function enqueueApprovalJobs(
  tx: Database,
  booking: Pick<BookingRow, "id" | "salonId">,
  now: Date,
) {
  const sequence = Math.max(1, await movesSoFar(tx, booking.id));
  await enqueue(tx, {
    kind: bookingJobKinds.approved,
    payload: { bookingId: booking.id, sequence },
    runAt: now,
    dedupeKey: `approved:${booking.id}`,
    salonId: booking.salonId,
  });
}

/**
 * The day-before reminder follows the booking: its job (enqueued with the
 * confirmation, `reminder:{id}`) runs the day before the NEW start. Not yet
 * sent only; a reminder already sent is not sent again.
 */
export async function moveReminder(
  tx: Database,
  booking: Pick<BookingRow, "id" | "startsAt">,
  timeZone: string,
  now: Date,
) {
  await tx
    .update(jobs)
    .set({ runAt: reminderTime(booking.startsAt, timeZone, now) })
    .where(
      and(
        // The key enqueueConfirmationJobs gives it.
        eq(jobs.dedupeKey, `reminder:${booking.id}`),
        isNull(jobs.doneAt),
      ),
    );
}

type NoticeSettings = { enabled: boolean; email: string };

/**
 * Where the salon's notices go (issue 28, point 7): none when the salon
 * turned them off, its booking address when it set one, else its owners.
 */
function noticeRecipientsFrom(
  settings: NoticeSettings | null,
  ownerEmails: readonly string[],
): string[] {
  if (settings && !settings.enabled) return [];
  if (settings?.email.trim()) return [settings.email.trim()];
  return [...ownerEmails];
}

/** The recipients of the salon's notices (noticeRecipientsFrom), its settings read. */
export async function salonNoticeRecipients(
  tx: Pick<Database, "select">,
  salonId: string,
  ownerEmails: readonly string[],
): Promise<string[]> {
  const [settings] = await tx
    .select({
      enabled: salonBookingSettings.noticeMailEnabled,
      email: salonBookingSettings.noticeEmail,
    })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, salonId));
  return noticeRecipientsFrom(settings ?? null, ownerEmails);
}

type Loaded = {
  booking: BookingRow;
  details: BookingMailDetails;
  salonSlug: string;
  /** Where the salon's notices of this booking go (noticeRecipientsFrom). */
  noticeTo: string[];
};

/**
 * The booking with what its mails show, its row locked for the job's
 * transaction: in one statement (its menus, the salon's owners and its
 * payments as JSON beside it), as every booking's confirmation mail runs
 * this once (bench/README.md, issue 42).
 */
async function loadBooking(tx: Database, bookingId: string): Promise<Loaded | null> {
  const [row] = await tx
    .select({
      booking: bookings,
      salonName: salons.name,
      salonSlug: salons.slug,
      salonAddress: salons.address,
      salonPhone: salons.phone,
      timeZone: salons.timeZone,
      staffName: staff.name,
      couponTitle: coupons.title,
      cancellationCutoffHours: salonBookingSettings.cancellationCutoffHours,
      noticeEnabled: salonBookingSettings.noticeMailEnabled,
      noticeEmail: salonBookingSettings.noticeEmail,
      menus: sql<{ name: string; price: number }[]>`(
        select coalesce(json_agg(json_build_object('name', m.name, 'price', m.price)
          order by m.position), '[]'::json)
        from booking_menus m where m.salon_id = ${bookings.salonId} and m.booking_id = ${bookings.id})`,
      ownerEmails: sql<string[]>`(
        select coalesce(json_agg(u.email order by u.email), '[]'::json)
        from salon_owners o join users u on u.id = o.user_id
        where o.salon_id = ${bookings.salonId} and u.role = 'owner')`,
      payments: paymentRecordsJson(bookings.id),
    })
    .from(bookings)
    .innerJoin(salons, eq(salons.id, bookings.salonId))
    .innerJoin(staff, and(eq(staff.id, bookings.staffId), eq(staff.salonId, bookings.salonId)))
    .leftJoin(coupons, eq(coupons.id, bookings.couponId))
    .leftJoin(salonBookingSettings, eq(salonBookingSettings.salonId, bookings.salonId))
    .where(eq(bookings.id, bookingId))
    .for("update", { of: bookings });
  if (!row) return null;
  const { booking } = row;
  // No settings row: the defaults (bookingSettingsFor).
  const settings =
    row.noticeEnabled === null || row.noticeEmail === null
      ? null
      : { enabled: row.noticeEnabled, email: row.noticeEmail };
  return {
    booking,
    salonSlug: row.salonSlug,
    noticeTo: noticeRecipientsFrom(settings, row.ownerEmails),
    details: {
      bookingNumber: booking.bookingNumber,
      salonName: row.salonName,
      salonAddress: row.salonAddress,
      salonPhone: row.salonPhone,
      timeZone: row.timeZone,
      startsAt: booking.startsAt,
      endsAt: booking.endsAt,
      menus: row.menus,
      staffName: row.staffName,
      staffRequested: booking.staffRequested,
      nominationFee: booking.nominationFee,
      totalPrice: booking.totalPrice,
      couponTitle: row.couponTitle,
      studentDeclared: booking.studentDeclared,
      customerName: booking.customerName,
      customerPhone: booking.customerPhone,
      customerEmail: booking.customerEmail,
      notes: booking.notes,
      cancellationCutoffHours:
        row.cancellationCutoffHours ?? bookingSettingsDefaults.cancellationCutoffHours,
      cancelReason: booking.cancelReason,
      cancelledBySalon: booking.status === "cancelled_by_salon",
      cancelEnteredBySalon: booking.cancelledBy === "salon",
      approval: booking.approval,
      approvalLapsed: booking.approval === "refused" && booking.cancelledBy === "system",
      approvalExpiresAt: booking.approvalExpiresAt,
      paymentPolicyLines: booking.paymentPolicy?.lines ?? null,
      payments: paymentRecordsFromJson(row.payments),
    },
  };
}

export type BookingMailOptions = LineDeliveryOptions & {
  /** The From header (MAIL_FROM); also the address the .ics names as organizer. */
  mailFrom: string;
  /** The site's origin (PUBLIC_URL): links, and the host in each event's UID. */
  publicUrl: string;
};

/** "Salon Navi <no-reply@example.jp>" → "no-reply@example.jp". */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/**
 * The .ics of a booking mail. One UID per booking in every file; the
 * confirmation is REQUEST with SEQUENCE 0, each move REQUEST with the next
 * SEQUENCE, the reminder repeats the latest, and the cancellation is CANCEL
 * with one more than the last move, so a calendar that imported an earlier
 * file replaces the event with the later one (decision 0040).
 */
function calendarAttachment(
  loaded: Loaded,
  method: "REQUEST" | "CANCEL",
  sequence: number,
  options: BookingMailOptions,
  now: Date,
): MailAttachment {
  const { booking, details } = loaded;
  const content = bookingCalendar(
    {
      id: booking.id,
      bookingNumber: booking.bookingNumber,
      salonName: details.salonName,
      salonAddress: details.salonAddress,
      salonUrl: `${options.publicUrl}/salons/${loaded.salonSlug}`,
      start: booking.startsAt,
      end: booking.endsAt,
      timeZone: details.timeZone,
      menuNames: details.menus.map((menu) => menu.name),
      staffName: booking.staffRequested ? details.staffName : null,
      paymentLines: paymentTextLines(
        details.payments ?? [],
        method === "CANCEL" ? {} : { remainingOf: booking.totalPrice },
      ),
      policyLines: details.paymentPolicyLines ?? [],
    },
    {
      host: new URL(options.publicUrl).host,
      method,
      sequence,
      now,
      tentative: isPendingApproval(booking),
      organizer: { name: details.salonName, email: addressOf(options.mailFrom) },
      attendee: booking.customerEmail
        ? { name: booking.customerName || booking.customerEmail, email: booking.customerEmail }
        : undefined,
    },
  );
  return {
    filename: method === "CANCEL" ? "booking-cancel.ics" : "booking.ics",
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content,
  };
}

const bookingIdOf = (payload: Record<string, unknown>) =>
  typeof payload.bookingId === "string" ? payload.bookingId : null;

/**
 * The handlers of the booking jobs, for the worker in server/app.ts. Each
 * writes its mails to the outbox through the job's transaction, so they
 * commit with the job's done mark (and, for the reminder, with
 * bookings.reminder_sent_at): never twice, never lost.
 *
 * No per-recipient limit here, unlike the account mails: each of these
 * follows from a booking, which its own limits already bound, and a
 * dropped confirmation or reminder would be worse than a second mail.
 */
export function bookingJobHandlers(options: BookingMailOptions): Record<string, JobHandler> {
  const sendAll = async (tx: Database, mails: Mail[]) => {
    const mailer = createMailer(tx, { from: options.mailFrom });
    for (const mail of mails) if (mail.to) await mailer.send(mail);
  };
  /**
   * The customer's message: by mail, LINE or both, as they chose (decision
   * 0089). `ownAction`: it answers what they just did, so LINE sends it even
   * in the quiet hours.
   */
  const toVisitor = (
    tx: Database,
    loaded: Loaded,
    message: { mail: Mail; line: () => LineMessage[]; ownAction: boolean; now: Date },
    kind: "booking" | "reminder" = "booking",
  ) =>
    sendVisitorMessage(
      tx,
      createMailer(tx, { from: options.mailFrom }),
      {
        ...message,
        userId: loaded.booking.userId,
        kind,
        salonId: loaded.booking.salonId,
        bookingId: loaded.booking.id,
        timeZone: loaded.details.timeZone,
      },
      options,
    );
  return {
    async [bookingJobKinds.confirmed]({ tx, job, now }) {
      const bookingId = bookingIdOf(job.payload);
      const loaded = bookingId ? await loadBooking(tx, bookingId) : null;
      if (!loaded) return;
      const ics = calendarAttachment(loaded, "REQUEST", 0, options, now);
      // A booking the salon entered itself (phone, walk-in) needs no notice to the salon.
      const notice = loaded.booking.source === "web" ? loaded.noticeTo : [];
      await toVisitor(tx, loaded, {
        mail: {
          ...renderVisitorBookingMail("confirmed", loaded.details, options.publicUrl),
          attachments: [ics],
        },
        line: () => lineBookingMessages("confirmed", loaded.details, options.publicUrl),
        ownAction: loaded.booking.source === "web",
        now,
      });
      await sendAll(tx, [
        ...notice.map((to) => ({
          ...renderOwnerBookingNotice(
            "confirmed",
            {
              ...loaded.details,
              ownerBookingUrl: `${options.publicUrl}/owner/salons/${loaded.booking.salonId}/bookings/${loaded.booking.id}`,
            },
            to,
          ),
          attachments: [ics],
        })),
      ]);
    },
    async [bookingJobKinds.cancelled]({ tx, job, now }) {
      const bookingId = bookingIdOf(job.payload);
      const loaded = bookingId ? await loadBooking(tx, bookingId) : null;
      if (!loaded) return;
      const sequence = (await movesSoFar(tx, loaded.booking.id)) + 1;
      const ics = calendarAttachment(loaded, "CANCEL", sequence, options, now);
      // The salon is told of the customer's own cancellation, not of one it entered.
      const notice =
        loaded.booking.status === "cancelled_by_user" && loaded.booking.cancelledBy !== "salon"
          ? loaded.noticeTo
          : [];
      await toVisitor(tx, loaded, {
        mail: {
          ...renderVisitorBookingMail("cancelled", loaded.details, options.publicUrl),
          attachments: [ics],
        },
        line: () => lineBookingMessages("cancelled", loaded.details, options.publicUrl),
        ownAction:
          loaded.booking.status === "cancelled_by_user" && loaded.booking.cancelledBy !== "salon",
        now,
      });
      await sendAll(tx, [
        ...notice.map((to) => ({
          ...renderOwnerBookingNotice("cancelled", loaded.details, to),
          attachments: [ics],
        })),
      ]);
    },
    async [bookingJobKinds.reminder]({ tx, job, now }) {
      const bookingId = bookingIdOf(job.payload);
      const loaded = bookingId ? await loadBooking(tx, bookingId) : null;
      if (!loaded) return;
      const { booking } = loaded;
      // Cancelled since, already reminded, or already begun: nothing to send.
      if (booking.status !== "confirmed" || booking.reminderSentAt) return;
      // Still waiting for the salon's approval (decision 0051): no "see you tomorrow" yet.
      if (booking.approval === "pending") return;
      if (booking.startsAt.getTime() <= now.getTime()) return;
      await toVisitor(
        tx,
        loaded,
        {
          mail: {
            ...renderVisitorBookingMail("reminder", loaded.details, options.publicUrl),
            attachments: [
              calendarAttachment(loaded, "REQUEST", await movesSoFar(tx, booking.id), options, now),
            ],
          },
          line: () => lineBookingMessages("reminder", loaded.details, options.publicUrl),
          ownAction: false,
          now,
        },
        "reminder",
      );
      await tx.update(bookings).set({ reminderSentAt: now }).where(eq(bookings.id, booking.id));
    },
    async [bookingJobKinds.approved]({ tx, job, now }) {
      const bookingId = bookingIdOf(job.payload);
      const loaded = bookingId ? await loadBooking(tx, bookingId) : null;
      if (!loaded) return;
      // Cancelled since: the cancellation's file (a higher SEQUENCE) says the rest.
      if (loaded.booking.status !== "confirmed" && loaded.booking.status !== "completed") return;
      const sequence = Number(job.payload.sequence);
      const ics = calendarAttachment(
        loaded,
        "REQUEST",
        Number.isInteger(sequence) && sequence > 0 ? sequence : 1,
        options,
        now,
      );
      await toVisitor(tx, loaded, {
        mail: {
          ...renderVisitorBookingMail("approved", loaded.details, options.publicUrl),
          attachments: [ics],
        },
        line: () => lineBookingMessages("approved", loaded.details, options.publicUrl),
        ownAction: false,
        now,
      });
    },
    async [bookingJobKinds.moved]({ tx, job, now }) {
      const bookingId = bookingIdOf(job.payload);
      const loaded = bookingId ? await loadBooking(tx, bookingId) : null;
      if (!loaded) return;
      // Cancelled since: the cancellation's file (a higher SEQUENCE) says the rest.
      if (loaded.booking.status !== "confirmed" && loaded.booking.status !== "completed") return;
      const sequence = Number(job.payload.sequence);
      const previous = previousOf(job.payload.previous);
      const by = job.payload.by === "customer" ? "customer" : "salon";
      const ics = calendarAttachment(
        loaded,
        "REQUEST",
        Number.isInteger(sequence) && sequence > 0 ? sequence : 1,
        options,
        now,
      );
      const notice = by === "customer" ? loaded.noticeTo : [];
      await toVisitor(tx, loaded, {
        mail: {
          ...renderVisitorMovedMail(by, loaded.details, previous, options.publicUrl),
          attachments: [ics],
        },
        line: () => lineMovedMessages(by, loaded.details, previous, options.publicUrl),
        ownAction: by === "customer",
        now,
      });
      await sendAll(tx, [
        ...notice.map((to) => ({
          ...renderOwnerBookingNotice("moved", loaded.details, to, previous),
          attachments: [ics],
        })),
      ]);
    },
  };
}

/** The payload's 変更前 part, read defensively (a job outlives deployments). */
function previousOf(value: unknown): PreviousBookingTime | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const startsAt = new Date(String(v.startsAt));
  const endsAt = new Date(String(v.endsAt));
  if (Number.isNaN(startsAt.getTime()) || Number.isNaN(endsAt.getTime())) return null;
  return {
    startsAt,
    endsAt,
    staffName: typeof v.staffName === "string" ? v.staffName : "",
    menuNames: Array.isArray(v.menuNames) ? v.menuNames.map(String) : [],
  };
}
