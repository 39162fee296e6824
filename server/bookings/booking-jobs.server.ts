import { and, asc, eq } from "drizzle-orm";
import { addDays, LocalDay, toLocal } from "../../common/local-time";
import type { Database } from "../db/client";
import type { MailAttachment } from "../db/schema";
import { bookingMenus, bookings, coupons, salonOwners, salons, staff, users } from "../db/schema";
import { enqueue, type JobHandler } from "../jobs/queue.server";
import {
  type BookingMailDetails,
  renderOwnerBookingNotice,
  renderVisitorBookingMail,
} from "../mail/booking-templates";
import { createMailer, type Mail } from "../mail/mailer";
import { bookingCalendar } from "./booking-calendar.server";
import { bookingSettingsFor } from "./settings";

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

type Loaded = {
  booking: BookingRow;
  details: BookingMailDetails;
  salonSlug: string;
  ownerEmails: string[];
};

/** The booking with what its mails show, its row locked for the job's transaction. */
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
    })
    .from(bookings)
    .innerJoin(salons, eq(salons.id, bookings.salonId))
    .innerJoin(staff, and(eq(staff.id, bookings.staffId), eq(staff.salonId, bookings.salonId)))
    .leftJoin(coupons, eq(coupons.id, bookings.couponId))
    .where(eq(bookings.id, bookingId))
    .for("update", { of: bookings });
  if (!row) return null;
  const { booking } = row;
  const menus = await tx
    .select({ name: bookingMenus.name, price: bookingMenus.price })
    .from(bookingMenus)
    .where(and(eq(bookingMenus.bookingId, booking.id), eq(bookingMenus.salonId, booking.salonId)))
    .orderBy(asc(bookingMenus.position));
  const owners = await tx
    .select({ email: users.email })
    .from(salonOwners)
    .innerJoin(users, eq(users.id, salonOwners.userId))
    .where(and(eq(salonOwners.salonId, booking.salonId), eq(users.role, "owner")))
    .orderBy(asc(users.email));
  const { cancellationCutoffHours } = await bookingSettingsFor(tx, booking.salonId);
  return {
    booking,
    salonSlug: row.salonSlug,
    ownerEmails: owners.map((owner) => owner.email),
    details: {
      bookingNumber: booking.bookingNumber,
      salonName: row.salonName,
      salonAddress: row.salonAddress,
      salonPhone: row.salonPhone,
      timeZone: row.timeZone,
      startsAt: booking.startsAt,
      endsAt: booking.endsAt,
      menus,
      staffName: row.staffName,
      staffRequested: booking.staffRequested,
      totalPrice: booking.totalPrice,
      couponTitle: row.couponTitle,
      customerName: booking.customerName,
      customerPhone: booking.customerPhone,
      customerEmail: booking.customerEmail,
      notes: booking.notes,
      cancellationCutoffHours,
      cancelReason: booking.cancelReason,
    },
  };
}

export type BookingMailOptions = {
  /** The From header (MAIL_FROM); also the address the .ics names as organizer. */
  mailFrom: string;
  /** The site's origin (PUBLIC_URL): links, and the host in each event's UID. */
  publicUrl: string;
};

/** "Salon Navi <no-reply@example.jp>" → "no-reply@example.jp". */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/**
 * The .ics of a booking mail. One UID per booking in every file; the
 * confirmation (and the reminder, which repeats it) is REQUEST with
 * SEQUENCE 0, the cancellation CANCEL with SEQUENCE 1, so a calendar that
 * imported the first replaces the event with the second.
 */
function calendarAttachment(
  loaded: Loaded,
  method: "REQUEST" | "CANCEL",
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
    },
    {
      host: new URL(options.publicUrl).host,
      method,
      sequence: method === "CANCEL" ? 1 : 0,
      now,
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
  return {
    async [bookingJobKinds.confirmed]({ tx, job, now }) {
      const bookingId = bookingIdOf(job.payload);
      const loaded = bookingId ? await loadBooking(tx, bookingId) : null;
      if (!loaded) return;
      const ics = calendarAttachment(loaded, "REQUEST", options, now);
      await sendAll(tx, [
        {
          ...renderVisitorBookingMail("confirmed", loaded.details, options.publicUrl),
          attachments: [ics],
        },
        ...loaded.ownerEmails.map((to) => ({
          ...renderOwnerBookingNotice("confirmed", loaded.details, to),
          attachments: [ics],
        })),
      ]);
    },
    async [bookingJobKinds.cancelled]({ tx, job, now }) {
      const bookingId = bookingIdOf(job.payload);
      const loaded = bookingId ? await loadBooking(tx, bookingId) : null;
      if (!loaded) return;
      const ics = calendarAttachment(loaded, "CANCEL", options, now);
      await sendAll(tx, [
        {
          ...renderVisitorBookingMail("cancelled", loaded.details, options.publicUrl),
          attachments: [ics],
        },
        ...loaded.ownerEmails.map((to) => ({
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
      if (booking.startsAt.getTime() <= now.getTime()) return;
      await sendAll(tx, [
        {
          ...renderVisitorBookingMail("reminder", loaded.details, options.publicUrl),
          attachments: [calendarAttachment(loaded, "REQUEST", options, now)],
        },
      ]);
      await tx.update(bookings).set({ reminderSentAt: now }).where(eq(bookings.id, booking.id));
    },
  };
}
