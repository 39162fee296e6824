import { and, count, eq, gt, ne, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bookings, salonBookingSettings } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { accountHoldLock } from "./live-hold-limit.server";

/**
 * The most live bookings one customer may hold at a salon (issue 29,
 * point 4; decision 0048): salon_booking_settings.max_live_bookings_per_customer,
 * null for no limit. Counted per account: the customer's confirmed bookings
 * at this salon that have not started (any source, a phone booking the
 * salon tied to the account included; waiting for approval included) plus
 * their live holds there. Only a visitor's new web booking is refused (a
 * hold, and its confirmation); the salon's own phone and walk-in entries
 * never are. A guest holds without an account and is counted when they
 * confirm, which needs one.
 */
export class TooManyBookingsError extends DomainError {
  constructor(limit: number) {
    super(
      "too_many_bookings",
      `このサロンでお持ちのご予約が上限（同時に${limit}件まで）に達しています。ご来店後か、今のご予約をキャンセルしてから、もう一度お申し込みください。`,
      409,
      { limit },
    );
  }
}

/**
 * Refuses when the account already holds the salon's limit, inside the
 * hold's or the confirmation's transaction. Takes the account's advisory
 * lock of live-hold-limit.server.ts (held to the end of the transaction),
 * so two confirmations or holds of one customer count one after the other.
 * A new hold counts the confirmed bookings and the live holds; a
 * confirmation (`confirming`: its hold, not counted against itself) only the
 * confirmed bookings, so of two holds confirmed at once exactly the limit
 * goes through.
 */
export async function limitLiveBookings(
  tx: Pick<Database, "execute" | "select">,
  {
    salonId,
    userId,
    now,
    confirming,
  }: { salonId: string; userId: string; now: Date; confirming?: string },
) {
  const [settings] = await tx
    .select({ limit: salonBookingSettings.maxLiveBookingsPerCustomer })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, salonId));
  const limit = settings?.limit ?? null;
  if (limit === null) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${accountHoldLock(userId)}, 0))`,
  );
  const [live] = await tx
    .select({ bookings: count() })
    .from(bookings)
    .where(
      and(
        eq(bookings.salonId, salonId),
        eq(bookings.userId, userId),
        eq(bookings.kind, "booking"),
        confirming ? ne(bookings.id, confirming) : undefined,
        or(
          and(eq(bookings.status, "confirmed"), gt(bookings.startsAt, now)),
          confirming
            ? undefined
            : and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now)),
        ),
      ),
    );
  if ((live?.bookings ?? 0) >= limit) throw new TooManyBookingsError(limit);
}
