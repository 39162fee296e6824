import type { RateLimitStore } from "../accounts/rate-limit";
import type { Config } from "../config";
import { DomainError } from "../errors/domain-error";

/** Too many holds or bookings in a short time: 429 with Retry-After. */
export class TooManyBookingAttemptsError extends DomainError {
  constructor(readonly retryAfter: number) {
    super(
      "too_many_requests",
      `操作が多すぎます。${retryAfter}秒ほど待ってから、もう一度お試しください。`,
      429,
      { retryAfter },
    );
  }
}

export type BookingAction = "hold" | "booking";

export type BookingLimits = {
  store: RateLimitStore;
  window: number;
  perIp: number;
  perAccount: number;
};

export function bookingLimitsFrom(config: Config, store: RateLimitStore): BookingLimits {
  return {
    store,
    window: config.RATE_LIMIT_WINDOW,
    perIp: config.BOOKING_RATE_LIMIT_PER_IP,
    perAccount: config.BOOKING_RATE_LIMIT_PER_ACCOUNT,
  };
}

/**
 * Counts one hold or booking attempt against the client address and the
 * account, in the shared counter store (database or Redis), so a script
 * cannot hold a salon's whole day from one account or one address, and the
 * limit holds across app servers. Called by holdSlot and confirmBooking
 * themselves, so every path that books counts in the same buckets.
 * Throws TooManyBookingAttemptsError.
 */
export async function limitBookingAttempt(
  limits: BookingLimits,
  action: BookingAction,
  who: { ip: string; userId: string | null },
) {
  const byIp = await limits.store.consume(`${action}:ip:${who.ip}`, {
    window: limits.window,
    max: limits.perIp,
  });
  if (!byIp.allowed) throw new TooManyBookingAttemptsError(byIp.retryAfter ?? limits.window);
  // A guest may hold a time on the booking page before signing in: the address alone counts.
  if (who.userId === null) return;
  const byAccount = await limits.store.consume(`${action}:user:${who.userId}`, {
    window: limits.window,
    max: limits.perAccount,
  });
  if (!byAccount.allowed) {
    throw new TooManyBookingAttemptsError(byAccount.retryAfter ?? limits.window);
  }
}
