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

/** Unexpired holds one visitor may have at once, across salons (live-hold-limit.server.ts). */
export type LiveHoldLimits = {
  perAccount: number;
  perBrowser: number;
  /** Guests' holds from one client address. */
  perGuestIp: number;
};

export type BookingLimits = {
  store: RateLimitStore;
  window: number;
  perIp: number;
  perAccount: number;
  liveHolds: LiveHoldLimits;
};

export function bookingLimitsFrom(config: Config, store: RateLimitStore): BookingLimits {
  return {
    store,
    window: config.RATE_LIMIT_WINDOW,
    perIp: config.BOOKING_RATE_LIMIT_PER_IP,
    perAccount: config.BOOKING_RATE_LIMIT_PER_ACCOUNT,
    liveHolds: {
      perAccount: config.LIVE_HOLDS_PER_ACCOUNT,
      perBrowser: config.LIVE_HOLDS_PER_BROWSER,
      perGuestIp: config.LIVE_GUEST_HOLDS_PER_IP,
    },
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
