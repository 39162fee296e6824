import { databaseRateLimitStore } from "../../server/accounts/rate-limit";
import type { BookingClient } from "../../server/bookings/booking.server";
import type { BookingLimits } from "../../server/bookings/booking-rate-limit";
import type { Database } from "../../server/db/client";

/**
 * What holdSlot and confirmBooking need to count an attempt: the real
 * limiter (the database store) with limits no test reaches, unless given.
 */
export function bookingClient(
  db: Database,
  options: Partial<Omit<BookingLimits, "store">> & { ip?: string } = {},
): BookingClient {
  const { ip = "192.0.2.10", ...limits } = options;
  return {
    ip,
    limits: {
      store: databaseRateLimitStore(db),
      window: 60,
      perIp: 100_000,
      perAccount: 100_000,
      liveHolds: { perAccount: 100_000, perBrowser: 100_000, perGuestIp: 100_000 },
      ...limits,
    },
  };
}
