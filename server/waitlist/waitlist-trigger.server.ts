import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { waitlistEntries, waitlistOffers } from "../db/schema";

/**
 * The waiting list's two hooks into the booking transactions (decision
 * 0055). This module imports nothing from server/bookings/ (which calls it),
 * so there is no import cycle.
 */

export const waitlistJobKinds = {
  /** Offer the freed times of one salon and date to the line (payload salonId, date). */
  match: "waitlist_match",
  /** The offer mail (payload offerId). */
  offerMail: "waitlist_offer_mail",
  /** An offer's deadline (payload offerId): lapse it and offer the time to the next. */
  expire: "waitlist_offer_expire",
} as const;

/**
 * Due at once whatever the worker's clock says: the freeing transaction has
 * no `now` of its own to give, and a job due "now" by the database's clock
 * would wait for a worker whose (test) clock runs behind it.
 */
const AT_ONCE = "1970-01-01T00:00:00Z";

/**
 * Inside the transaction that changed a salon's free times: one
 * waitlist_match job per date on which someone is waiting, in one INSERT …
 * SELECT … WHERE EXISTS (no one waiting, no job). The job commits with the
 * freeing or not at all, so a crash between the two loses no offer.
 * No dedupe key: a pending job for the date may already have read the day
 * before this change committed, so each change gets its own run (the
 * matcher serializes them and a run with nothing to offer does nothing).
 */
export async function enqueueWaitlistMatch(
  tx: Pick<Database, "execute">,
  salonId: string,
  dates: readonly string[],
  /** Later than at once: when a hold lapses without any write (holdSlot). */
  runAt?: Date,
) {
  if (dates.length === 0) return;
  const list = sql.join(
    dates.map((date) => sql`${date}`),
    sql`, `,
  );
  await tx.execute(sql`
    insert into jobs (kind, payload, run_at, salon_id)
    select ${waitlistJobKinds.match}, jsonb_build_object('salonId', ${salonId}::text, 'date', d),
           ${runAt ? runAt.toISOString() : AT_ONCE}::timestamptz, ${salonId}::uuid
    from unnest(array[${list}]::text[]) as d
    where exists (
      select 1 from waitlist_entries e
      where e.salon_id = ${salonId}::uuid and e.date = d::date and e.status = 'waiting'
    )`);
}

/**
 * Inside confirmHold's transaction. The hold was an offer's: the offer is
 * accepted and its entry booked with this booking, together with the
 * booking. Or the visitor booked a time they were waiting for some other
 * way (the booking page): their waiting entry for that salon and date whose
 * window holds the start is booked too, so the time is not offered to them
 * again later.
 */
export async function settleOfferOnConfirm(
  tx: Pick<Database, "update" | "execute">,
  {
    holdId,
    salonId,
    userId,
    startsAt,
    now,
  }: { holdId: string; salonId: string; userId: string; startsAt: Date; now: Date },
) {
  const settled = await tx
    .update(waitlistOffers)
    .set({ status: "accepted", settledAt: now })
    .where(and(eq(waitlistOffers.holdId, holdId), eq(waitlistOffers.status, "open")))
    .returning({ entryId: waitlistOffers.entryId });
  for (const { entryId } of settled) {
    await tx
      .update(waitlistEntries)
      .set({
        status: "booked",
        bookingId: holdId,
        version: sql`${waitlistEntries.version} + 1`,
        updatedAt: now,
      })
      .where(eq(waitlistEntries.id, entryId));
  }
  await tx.execute(sql`
    update waitlist_entries e
    set status = 'booked', booking_id = ${holdId}::uuid, version = e.version + 1,
        updated_at = ${now.toISOString()}::timestamptz
    from salons s, lateral (select ${startsAt.toISOString()}::timestamptz at time zone s.time_zone as at) l
    where s.id = e.salon_id and e.salon_id = ${salonId}::uuid and e.user_id = ${userId}
      and e.status = 'waiting'
      and e.date = l.at::date
      and extract(hour from l.at) * 60 + extract(minute from l.at) >= e.window_start
      and extract(hour from l.at) * 60 + extract(minute from l.at) < e.window_end`);
}
