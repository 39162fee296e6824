import { and, asc, eq, sql } from "drizzle-orm";
import { isLocalDate } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import {
  accountProfiles,
  bookingMenus,
  bookings,
  salons,
  staff,
  users,
  waitlistEntries,
  waitlistOffers,
} from "../db/schema";
import type { JobHandler } from "../jobs/queue.server";
import { type LineDeliveryOptions, sendVisitorMessage } from "../line/line-messages.server";
import { lineWaitlistOfferMessages } from "../line/line-templates";
import { createMailer } from "../mail/mailer";
import { renderWaitlistOfferMail } from "../mail/waitlist-templates";
import { matchWaitlist } from "./waitlist-matcher.server";
import { waitlistJobKinds } from "./waitlist-trigger.server";

/**
 * The waiting list's jobs (decision 0055). Each runs in the job's
 * transaction, so an offer, its mail and the job's done mark commit
 * together: a worker killed mid-run leaves the job to be run again, and
 * never a second offer or mail.
 */

export type WaitlistJobOptions = LineDeliveryOptions & {
  mailFrom: string;
  publicUrl: string;
  /** WAITLIST_QUIET_HOURS: false makes offers at any hour (end-to-end tests only). */
  quietHours?: boolean;
};

const offerIdOf = (payload: Record<string, unknown>) =>
  isUuid(payload.offerId) ? payload.offerId : null;

/**
 * An open offer whose deadline came: taken already (its hold confirmed) →
 * accepted; else its hold goes, the offer and entry lapse, and the time is
 * offered to the next in line in the same transaction.
 */
export async function expireOffer(tx: Database, offerId: string, now: Date, quietHours = true) {
  const [offer] = await tx
    .select()
    .from(waitlistOffers)
    .where(eq(waitlistOffers.id, offerId))
    .for("update");
  if (offer?.status !== "open") return;
  const [entry] = await tx
    .select()
    .from(waitlistEntries)
    .where(eq(waitlistEntries.id, offer.entryId))
    .for("update");
  if (!entry) return;
  const [hold] = offer.holdId
    ? await tx
        .select({ id: bookings.id, status: bookings.status })
        .from(bookings)
        .where(eq(bookings.id, offer.holdId))
    : [];
  if (hold && hold.status !== "held") {
    await tx
      .update(waitlistOffers)
      .set({ status: "accepted", settledAt: now })
      .where(eq(waitlistOffers.id, offer.id));
    await tx
      .update(waitlistEntries)
      .set({
        status: "booked",
        bookingId: hold.id,
        version: sql`${waitlistEntries.version} + 1`,
        updatedAt: now,
      })
      .where(eq(waitlistEntries.id, entry.id));
    return;
  }
  if (hold) await tx.delete(bookings).where(eq(bookings.id, hold.id));
  await tx
    .update(waitlistOffers)
    .set({ status: "lapsed", settledAt: now })
    .where(eq(waitlistOffers.id, offer.id));
  await tx
    .update(waitlistEntries)
    .set({ status: "lapsed", version: sql`${waitlistEntries.version} + 1`, updatedAt: now })
    .where(eq(waitlistEntries.id, entry.id));
  await matchWaitlist(tx, { salonId: offer.salonId, date: entry.date, now, quietHours });
}

/** The offer mail, sent only while the offer is open. */
async function sendOfferMail(
  tx: Database,
  offerId: string,
  options: WaitlistJobOptions,
  now: Date,
) {
  const [row] = await tx
    .select({
      offer: waitlistOffers,
      userId: waitlistEntries.userId,
      staffRequested: sql<boolean>`${waitlistEntries.staffId} is not null`,
      email: users.email,
      userName: users.name,
      profileName: accountProfiles.name,
      salonName: salons.name,
      timeZone: salons.timeZone,
      staffName: staff.name,
      totalPrice: bookings.totalPrice,
    })
    .from(waitlistOffers)
    .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
    .innerJoin(users, eq(users.id, waitlistEntries.userId))
    .leftJoin(accountProfiles, eq(accountProfiles.userId, waitlistEntries.userId))
    .innerJoin(salons, eq(salons.id, waitlistOffers.salonId))
    .innerJoin(staff, eq(staff.id, waitlistOffers.staffId))
    .innerJoin(bookings, eq(bookings.id, waitlistOffers.holdId))
    .where(eq(waitlistOffers.id, offerId));
  // Taken, declined or lapsed before the mail went out: nothing to offer any more.
  if (row?.offer.status !== "open" || row.offer.expiresAt <= now || !row.offer.holdId) {
    return;
  }
  const menus = await tx
    .select({ name: bookingMenus.name, price: bookingMenus.price })
    .from(bookingMenus)
    .where(
      and(
        eq(bookingMenus.salonId, row.offer.salonId),
        eq(bookingMenus.bookingId, row.offer.holdId),
      ),
    )
    .orderBy(asc(bookingMenus.position));
  const details = {
    to: row.email,
    customerName: row.profileName || row.userName,
    salonName: row.salonName,
    timeZone: row.timeZone,
    startsAt: row.offer.startsAt,
    endsAt: row.offer.endsAt,
    staffName: row.staffName,
    staffRequested: row.staffRequested,
    menus,
    totalPrice: row.totalPrice,
    expiresAt: row.offer.expiresAt,
    offerUrl: `${options.publicUrl}/account/waitlist/offers/${row.offer.id}`,
  };
  // By mail, LINE or both, as the visitor chose (decision 0089); never at night (the
  // matcher makes no offer in the quiet hours, and a push retried into them waits).
  await sendVisitorMessage(
    tx,
    createMailer(tx, { from: options.mailFrom }),
    {
      userId: row.userId,
      kind: "waitlist",
      mail: renderWaitlistOfferMail(details),
      line: () => lineWaitlistOfferMessages(details),
      salonId: row.offer.salonId,
      bookingId: row.offer.holdId,
      timeZone: row.timeZone,
      ownAction: false,
      now,
    },
    options,
  );
}

export function waitlistJobHandlers(options: WaitlistJobOptions): Record<string, JobHandler> {
  return {
    async [waitlistJobKinds.match]({ tx, job, now }) {
      const { salonId, date } = job.payload;
      // A payload from an older version, or damaged: nothing to match.
      if (!isUuid(salonId) || typeof date !== "string" || !isLocalDate(date)) return;
      await matchWaitlist(tx, { salonId, date, now, quietHours: options.quietHours });
    },
    async [waitlistJobKinds.offerMail]({ tx, job, now }) {
      const offerId = offerIdOf(job.payload);
      if (offerId) await sendOfferMail(tx, offerId, options, now);
    },
    async [waitlistJobKinds.expire]({ tx, job, now }) {
      const offerId = offerIdOf(job.payload);
      if (offerId) await expireOffer(tx, offerId, now, options.quietHours);
    },
  };
}
