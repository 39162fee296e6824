import { addDays, calendarDay } from "../../../common/local-time";
import { findAvailability } from "../availability";
import { loadAvailabilityInput, MAX_RANGE_DAYS } from "../availability-data.server";
import { bookingSettingsFor } from "../settings";
import type { AvailabilityLookup } from "./confirm-page.server";

/**
 * The free days and times of the whole booking window (today to today +
 * window days, at most what one request may ask) for a checked selection,
 * from the availability engine.
 */
export const flowAvailability: AvailabilityLookup = async (db, selection, now) => {
  const { salon } = selection;
  const today = calendarDay(now, salon.timeZone);
  const rules = await bookingSettingsFor(db, salon.id);
  const span = Math.min(rules.bookingWindowDays, MAX_RANGE_DAYS - 1);
  const loaded = await loadAvailabilityInput(db, {
    salonId: salon.id,
    menuIds: selection.menus.map((menu) => menu.id),
    staffId: selection.stylist?.id ?? null,
    from: today,
    to: addDays(today, span),
    now,
  });
  return findAvailability(loaded.input);
};
