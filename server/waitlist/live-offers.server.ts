import { and, asc, eq, gt } from "drizzle-orm";
import type { Database } from "../db/client";
import { salons, waitlistEntries, waitlistOffers } from "../db/schema";
import { publishSlotChange } from "../realtime/slot-events.server";

/**
 * The live notice of an offer (issue 30, point 4): a signed-in visitor's
 * open pages (/account/history, the booking flow) follow
 * GET /api/waitlist/events, a stream on the live-slot hub's LISTEN
 * connection (server/realtime/) under a key of their own, so an offer made
 * on any app server reaches them without a connection per visitor.
 */

/** The visitor's key on the live-slot hub (never a salon's UUID). */
export const waitlistVisitorKey = (userId: string) => `waitlist-visitor:${userId}`;

/**
 * Inside the transaction that makes an offer: tells the visitor's open
 * pages on commit (nothing on rollback). `date` is the offer's local date.
 */
export async function notifyWaitlistOffer(db: Database, userId: string, date: string) {
  await publishSlotChange(db, waitlistVisitorKey(userId), [date]);
}

export type LiveOffer = {
  offerId: string;
  href: string;
  salonName: string;
  /** ISO instants and the salon's zone, for the notice's wording. */
  startsAt: string;
  expiresAt: string;
  timeZone: string;
};

/** The visitor's open offers not past their deadline, soonest deadline first. */
export async function liveOffersFor(db: Database, userId: string, now: Date): Promise<LiveOffer[]> {
  const rows = await db
    .select({
      offerId: waitlistOffers.id,
      salonName: salons.name,
      timeZone: salons.timeZone,
      startsAt: waitlistOffers.startsAt,
      expiresAt: waitlistOffers.expiresAt,
    })
    .from(waitlistOffers)
    .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
    .innerJoin(salons, eq(salons.id, waitlistOffers.salonId))
    .where(
      and(
        eq(waitlistEntries.userId, userId),
        eq(waitlistOffers.status, "open"),
        gt(waitlistOffers.expiresAt, now),
      ),
    )
    .orderBy(asc(waitlistOffers.expiresAt));
  return rows.map((row) => ({
    offerId: row.offerId,
    href: `/account/waitlist/offers/${row.offerId}`,
    salonName: row.salonName,
    startsAt: row.startsAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    timeZone: row.timeZone,
  }));
}
