import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { localTime } from "../db/local-time";
import { salonBookingSettings } from "../db/schema";
import type { BookingSettings } from "./availability-input";

/** A salon's booking rules: what the engine needs plus what the booking transactions need. */
export type SalonBookingRules = BookingSettings & {
  /** Kept free before each booking (0..240). */
  bufferBeforeMinutes: number;
  /** Web cancellation is allowed until this many hours before the start. */
  cancellationCutoffHours: number;
  /** How long a picked time stays held for the visitor. */
  holdMinutes: number;
};

/**
 * The rules of a salon without a salon_booking_settings row. Written once
 * here; the column defaults in the schema repeat them only for rows
 * inserted by hand.
 */
export const bookingSettingsDefaults: Readonly<SalonBookingRules> = Object.freeze({
  slotStepMinutes: 15,
  leadTimeMinutes: 60,
  bookingWindowDays: 60,
  bufferAfterMinutes: 0,
  bufferBeforeMinutes: 0,
  dailyLimitPerStaff: null,
  sameDayCutoff: null,
  closedOnHolidays: false,
  cancellationCutoffHours: 24,
  holdMinutes: 10,
});

/** The salon's booking rules; a missing row means the defaults. */
export async function bookingSettingsFor(
  db: Pick<Database, "select">,
  salonId: string,
): Promise<SalonBookingRules> {
  const [row] = await db
    .select({
      slotStepMinutes: salonBookingSettings.slotStepMinutes,
      leadTimeMinutes: salonBookingSettings.leadTimeMinutes,
      bookingWindowDays: salonBookingSettings.bookingWindowDays,
      bufferAfterMinutes: salonBookingSettings.bufferAfterMinutes,
      bufferBeforeMinutes: salonBookingSettings.bufferBeforeMinutes,
      dailyLimitPerStaff: salonBookingSettings.dailyLimitPerStaff,
      sameDayCutoff: localTime(salonBookingSettings.sameDayCutoff),
      closedOnHolidays: salonBookingSettings.closedOnPublicHolidays,
      cancellationCutoffHours: salonBookingSettings.cancellationCutoffHours,
      holdMinutes: salonBookingSettings.holdMinutes,
    })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, salonId));
  return row
    ? { ...row, sameDayCutoff: row.sameDayCutoff ?? null }
    : { ...bookingSettingsDefaults };
}
