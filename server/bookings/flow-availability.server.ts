import type { AvailabilityLookup } from "./confirm-page.server";

/**
 * The free days and times of the booking window for a selection. Wired to
 * loadAvailabilityInput + findAvailability once they are merged.
 */
export const flowAvailability: AvailabilityLookup = async () => [];
