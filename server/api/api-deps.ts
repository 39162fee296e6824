import type { AccountServices } from "../accounts/account-services";
import type { BookingLimits } from "../bookings/booking-rate-limit";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import type { PaymentProvider } from "../payments/provider.server";
import type { SlotEvents } from "../realtime/slot-events.server";
import type { createApiApp } from "./api-app";

/*
 * What every /api route module is given. A module of its own, so that the route modules and the
 * registry that mounts them (booking-api.ts) never import each other.
 */

export type BookingApiDeps = {
  db: Database;
  config: Config;
  log: Logger;
  accounts: AccountServices;
  slotEvents: SlotEvents;
  /** Holds and bookings per account and per address; from config and the accounts' counter store when not given. */
  limits?: BookingLimits;
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
  /** The payment provider, for the fees and refunds an action moves (decision 0080); absent: none. */
  payments?: PaymentProvider | null;
  /** Comment interval of the availability stream (25 s; tests shorten it). */
  heartbeatMs?: number;
};

export type BookingApiApp = ReturnType<typeof createApiApp>;
export type ResolvedBookingApiDeps = BookingApiDeps & {
  limits: BookingLimits;
  now: () => Date;
};
