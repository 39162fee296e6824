import { and, asc, eq, inArray, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { quietHoursEnd, WAITLIST_OFFER_MINUTES_DEFAULT } from "../../common/waitlist";
import { findAvailability, pickStaff } from "../bookings/availability";
import { loadAvailabilityInput } from "../bookings/availability-data.server";
import { type Booking, insertHold } from "../bookings/booking.server";
import { CouponNotApplicableError } from "../bookings/booking-errors";
import { lockStylistsForBooking } from "../bookings/stylist-lock.server";
import type { Database } from "../db/client";
import {
  bookings,
  salonBookingSettings,
  salons,
  users,
  waitlistEntries,
  waitlistOffers,
} from "../db/schema";
import { DEADLOCK_DETECTED, EXCLUSION_VIOLATION, sqlState } from "../db/sql-state";
import { DomainError } from "../errors/domain-error";
import { enqueue } from "../jobs/queue.server";
import { publishSlotChange } from "../realtime/slot-events.server";
import { notifyWaitlistOffer } from "./live-offers.server";
import { waitlistJobKinds } from "./waitlist-trigger.server";

/**
 * The matcher (decision 0055): offers a salon's free times on one date to
 * its waiting list, first in line first, each through a hold, so a freed
 * time is offered to one person at a time and the exclusion constraint
 * decides any race with a visitor booking it directly.
 */

const MINUTE = 60_000;

export type MatchRequest = {
  salonId: string;
  date: string;
  now: Date;
  /** False only where the deployment turned quiet hours off (WAITLIST_QUIET_HOURS=off, e2e). */
  quietHours?: boolean;
};
export type MatchResult = { offerIds: string[]; deferredUntil: Date | null };

/** Serializes matchers of one salon and date across app servers (and on PGlite's one session). */
async function lockSalonDate(tx: Pick<Database, "execute">, salonId: string, date: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`waitlist:${salonId}:${date}`}, 0))`,
  );
}

/**
 * Inside the job's transaction: offers the free times of `date` to the
 * salon's waiting entries in order (created_at, id). For each, the earliest
 * free start in its window for its menus and stylist (指名なし: picked as
 * holdSlot picks), by the same engine as holdSlot with `now`, so the
 * minimum notice, booking window and same-day cutoff hold. The hold is
 * inserted in a savepoint: someone who booked the time meanwhile just means
 * the next start (or entry). Between 22:00 and 08:00 in the salon's zone it
 * makes no offer and queues itself for 08:00 instead (once per salon, date
 * and morning). Entries of past dates are expired.
 */
export async function matchWaitlist(tx: Database, request: MatchRequest): Promise<MatchResult> {
  const { salonId, date, now } = request;
  await lockSalonDate(tx, salonId, date);
  // The salon's stylists FOR SHARE before any schedule read or hold (decision
  // 0053's order: stylists, then bookings): a schedule change open now is
  // waited for and its new working time read, so no offer's hold lands on a
  // day off being saved (issue 38, §4.1). Every stylist: an entry may be 指名なし.
  await lockStylistsForBooking(tx, salonId, null);
  const [salon] = await tx
    .select({ timeZone: salons.timeZone, status: salons.status })
    .from(salons)
    .where(eq(salons.id, salonId));
  const none: MatchResult = { offerIds: [], deferredUntil: null };
  if (!salon) return none;
  const local = toLocal(now, salon.timeZone);
  await expirePastEntries(tx, { salonId, today: local.date, now });
  if (date < local.date || salon.status !== "published") return none;
  const runAt = (request.quietHours ?? true) ? quietHoursEnd(now, salon.timeZone) : null;
  if (runAt) {
    const morning = toLocal(runAt, salon.timeZone).date;
    await enqueue(tx, {
      kind: waitlistJobKinds.match,
      payload: { salonId, date },
      runAt,
      dedupeKey: `waitlist-morning:${salonId}:${date}:${morning}`,
      salonId,
    });
    return { offerIds: [], deferredUntil: runAt };
  }
  const [settings] = await tx
    .select({ offerMinutes: salonBookingSettings.waitlistOfferMinutes })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, salonId));
  const offerMinutes = settings?.offerMinutes ?? WAITLIST_OFFER_MINUTES_DEFAULT;

  const line = await tx
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.salonId, salonId),
        eq(waitlistEntries.date, date),
        eq(waitlistEntries.status, "waiting"),
        inArray(waitlistEntries.userId, accountsThatCanBook(tx, now)),
      ),
    )
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
    .for("update");
  const offerIds: string[] = [];
  for (const entry of line) {
    const offerId = await offerTo(tx, entry, { now, offerMinutes, timeZone: salon.timeZone });
    if (offerId) offerIds.push(offerId);
  }
  if (offerIds.length > 0) await publishSlotChange(tx, salonId, [date]);
  return { offerIds, deferredUntil: null };
}

/**
 * Accounts that could confirm an offer's hold now: the address verified
 * (confirmBooking requires it, decision 0027) and not suspended (a ban that
 * has run out is lifted at the next sign-in, so it does not count). An offer
 * to anyone else would hold the freed time for its whole deadline while
 * those behind them wait, so they are skipped; their entries keep their
 * place in line for the next freed time, once they can book.
 */
function accountsThatCanBook(tx: Database, now: Date) {
  return tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.emailVerified, true),
        or(eq(users.banned, false), and(isNotNull(users.banExpires), lte(users.banExpires, now))),
      ),
    );
}

type Entry = typeof waitlistEntries.$inferSelect;

/** The entry's offer of the earliest free start in its window, or null when none is free. */
async function offerTo(
  tx: Database,
  entry: Entry,
  { now, offerMinutes, timeZone }: { now: Date; offerMinutes: number; timeZone: string },
): Promise<string | null> {
  let loaded: Awaited<ReturnType<typeof loadAvailabilityInput>>;
  try {
    loaded = await loadAvailabilityInput(tx, {
      salonId: entry.salonId,
      menuIds: entry.menuIds,
      staffId: entry.staffId,
      from: entry.date,
      to: entry.date,
      now,
    });
  } catch (error) {
    // A menu or stylist the salon removed since: the wish can no longer be met.
    if (!(error instanceof DomainError)) throw error;
    await tx
      .update(waitlistEntries)
      .set({ status: "expired", version: sql`${waitlistEntries.version} + 1`, updatedAt: now })
      .where(eq(waitlistEntries.id, entry.id));
    return null;
  }
  const slots = findAvailability(loaded.input)
    .flatMap((day) => day.slots)
    .filter((slot) => {
      const minutes = toLocal(slot.start, timeZone).minutes;
      return minutes >= entry.windowStart && minutes < entry.windowEnd;
    });
  const leadMs = loaded.rules.leadTimeMinutes * MINUTE;
  for (const slot of slots) {
    const staffId =
      entry.staffId ?? pickStaff(slot.staffIds, loaded.input.bookingsPerStaffDay, entry.date);
    if (!staffId) continue;
    // The offer ends in time for the salon's minimum notice before the start.
    const expiresAt = new Date(
      Math.min(now.getTime() + offerMinutes * MINUTE, slot.start.getTime() - leadMs),
    );
    if (expiresAt.getTime() <= now.getTime()) continue;
    const hold = await tryHold(tx, entry, {
      loaded,
      staffId,
      start: slot.start,
      expiresAt,
      now,
    });
    if (!hold) continue;
    const [offer] = await tx
      .insert(waitlistOffers)
      .values({
        entryId: entry.id,
        salonId: entry.salonId,
        holdId: hold.id,
        staffId,
        startsAt: hold.startsAt,
        endsAt: hold.endsAt,
        expiresAt,
        createdAt: now,
      })
      .returning({ id: waitlistOffers.id });
    if (!offer) throw new Error("waitlist offer not inserted");
    await tx
      .update(waitlistEntries)
      .set({ status: "offered", version: sql`${waitlistEntries.version} + 1`, updatedAt: now })
      .where(eq(waitlistEntries.id, entry.id));
    // The visitor's open pages show the notice on commit (GET /api/waitlist/events).
    await notifyWaitlistOffer(tx, entry.userId, entry.date);
    await enqueue(tx, {
      kind: waitlistJobKinds.offerMail,
      payload: { offerId: offer.id },
      runAt: now,
      dedupeKey: `waitlist-offer-mail:${offer.id}`,
      salonId: entry.salonId,
    });
    await enqueue(tx, {
      kind: waitlistJobKinds.expire,
      payload: { offerId: offer.id },
      runAt: expiresAt,
      dedupeKey: `waitlist-offer-expire:${offer.id}`,
      salonId: entry.salonId,
    });
    return offer.id;
  }
  return null;
}

/**
 * The hold in a savepoint: a live booking in the way (someone booked the
 * time a moment ago) rolls back only the savepoint, and the caller tries the
 * next start. A coupon no longer valid is dropped rather than losing the offer.
 */
async function tryHold(
  tx: Database,
  entry: Entry,
  hold: {
    loaded: Awaited<ReturnType<typeof loadAvailabilityInput>>;
    staffId: string;
    start: Date;
    expiresAt: Date;
    now: Date;
  },
): Promise<Booking | null> {
  for (const couponId of entry.couponId ? [entry.couponId, null] : [null]) {
    try {
      return await tx.transaction((savepoint) =>
        insertHold(savepoint, {
          loaded: hold.loaded,
          date: entry.date,
          staffId: hold.staffId,
          requestedStaffId: entry.staffId,
          start: hold.start,
          userId: entry.userId,
          couponId,
          holdExpiresAt: hold.expiresAt,
          holderKeyHash: null,
          holderIp: null,
          now: hold.now,
        }),
      );
    } catch (error) {
      // A deadlock here is the same lost race seen from the other side: two
      // writers of one time each waiting on the other's uncommitted row (this
      // insert and a visitor's hold or confirmation); the savepoint is rolled
      // back, the visitor's transaction goes on and has the time.
      const state = sqlState(error);
      if (state === EXCLUSION_VIOLATION || state === DEADLOCK_DETECTED) return null;
      if (error instanceof CouponNotApplicableError) continue;
      throw error;
    }
  }
  return null;
}

/**
 * Entries of dates already past in the salon's zone end as expired (the
 * visitor's history shows them); an open offer of such a date lapses with
 * its hold. With `salonId`, one salon's; without, every salon's (housekeeping).
 */
export async function expirePastEntries(
  tx: Database,
  { salonId, today, now }: { salonId?: string; today?: string; now: Date },
) {
  // Without a salon: each salon's own today, read in SQL from its zone.
  const past = salonId
    ? and(eq(waitlistEntries.salonId, salonId), lt(waitlistEntries.date, today ?? ""))
    : sql`${waitlistEntries.date} < (select (${now.toISOString()}::timestamptz at time zone s.time_zone)::date from salons s where s.id = ${waitlistEntries.salonId})`;
  const expired = await tx
    .update(waitlistEntries)
    .set({ status: "expired", version: sql`${waitlistEntries.version} + 1`, updatedAt: now })
    .where(and(past, inArray(waitlistEntries.status, ["waiting", "offered"])))
    .returning({ id: waitlistEntries.id });
  if (expired.length === 0) return 0;
  const lapsed = await tx
    .update(waitlistOffers)
    .set({ status: "lapsed", settledAt: now })
    .where(
      and(
        inArray(
          waitlistOffers.entryId,
          expired.map((entry) => entry.id),
        ),
        eq(waitlistOffers.status, "open"),
      ),
    )
    .returning({ holdId: waitlistOffers.holdId });
  const holdIds = lapsed.flatMap((offer) => (offer.holdId ? [offer.holdId] : []));
  if (holdIds.length > 0) {
    await tx
      .delete(bookings)
      .where(and(inArray(bookings.id, holdIds), eq(bookings.status, "held")));
  }
  return expired.length;
}
