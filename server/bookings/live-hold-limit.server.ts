import { and, count, eq, gt, isNull, min, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bookings } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import type { LiveHoldLimits } from "./booking-rate-limit";

/**
 * The visitor already holds as many times as they may at once: 429, with
 * Retry-After set to when the first of those holds lapses.
 */
export class TooManyHoldsError extends DomainError {
  constructor(limit: number, retryAfter: number) {
    const minutes = Math.max(1, Math.ceil(retryAfter / 60));
    super(
      "too_many_holds",
      `お取り置き中のお時間が上限（同時に${limit}件まで）に達しています。お取り置き中のご予約を確定するか、約${minutes}分後にもう一度お試しください。`,
      429,
      { retryAfter, limit },
    );
  }
}

/** The advisory lock of an account's live holds, also taken by live-booking-limit.server.ts. */
export const accountHoldLock = (userId: string) => `hold-limit:user:${userId}`;

export type LiveHoldHolder = {
  userId: string | null;
  /** A guest's browser key hash (hold-browser.server.ts), or null. */
  holderKeyHash: string | null;
  ip: string;
};

/**
 * Refuses a new hold to a visitor who already has the most live holds
 * allowed (decision 0034): a member per account; a guest per browser key
 * and, since a client without cookies gets a fresh key for every hold, per
 * client address. Runs inside the hold's transaction, after the visitor's
 * own earlier hold at this salon was released (so picking another time
 * there is never counted twice), under advisory locks of the identities
 * counted, so two simultaneous holds of one visitor cannot both pass.
 */
export async function limitLiveHolds(
  tx: Pick<Database, "execute" | "select">,
  holder: LiveHoldHolder,
  limits: LiveHoldLimits,
  now: Date,
) {
  const checks: { lock: string; where: SQL | undefined; limit: number }[] = holder.userId
    ? [
        {
          lock: accountHoldLock(holder.userId),
          where: eq(bookings.userId, holder.userId),
          limit: limits.perAccount,
        },
      ]
    : [
        ...(holder.holderKeyHash
          ? [
              {
                lock: `hold-limit:browser:${holder.holderKeyHash}`,
                where: and(
                  isNull(bookings.userId),
                  eq(bookings.holderKeyHash, holder.holderKeyHash),
                ),
                limit: limits.perBrowser,
              },
            ]
          : []),
        {
          lock: `hold-limit:ip:${holder.ip}`,
          where: and(isNull(bookings.userId), eq(bookings.holderIp, holder.ip)),
          limit: limits.perGuestIp,
        },
      ];
  // Always in the same order (browser before address), so two holds never wait on each other.
  for (const check of checks) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${check.lock}, 0))`);
  }
  for (const check of checks) {
    const [live] = await tx
      .select({ holds: count(), firstExpiry: min(bookings.holdExpiresAt) })
      .from(bookings)
      .where(and(check.where, eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now)));
    if ((live?.holds ?? 0) >= check.limit) {
      const lapse = live?.firstExpiry ? new Date(live.firstExpiry).getTime() - now.getTime() : 0;
      throw new TooManyHoldsError(check.limit, Math.max(1, Math.ceil(lapse / 1000)));
    }
  }
}
