import { sql } from "drizzle-orm";
import { bookings } from "../db/schema";

/**
 * The time a booking occupies its stylist (decision 0048): [starts_at −
 * buffer before, ends_at + buffer after), stored as occupied_from (null =
 * starts_at: blocks and bookings from before migration 0022) and
 * occupied_until. The exclusion constraint bookings_staff_no_overlap is over
 * this range, so every check before an insert or a move uses it too.
 */

const MINUTE = 60_000;

/** occupied_from and occupied_until of a booking of [startsAt, endsAt) under these buffers. */
export function occupiedSpan(
  startsAt: Date,
  endsAt: Date,
  buffers: { bufferBeforeMinutes: number; bufferAfterMinutes: number },
): { occupiedFrom: Date; occupiedUntil: Date } {
  return {
    occupiedFrom: new Date(startsAt.getTime() - buffers.bufferBeforeMinutes * MINUTE),
    occupiedUntil: new Date(endsAt.getTime() + buffers.bufferAfterMinutes * MINUTE),
  };
}

/** A stored booking's occupied range, as the exclusion constraint sees it. */
export const occupiedRange = sql`tstzrange(coalesce(${bookings.occupiedFrom}, ${bookings.startsAt}), ${bookings.occupiedUntil}, '[)')`;
