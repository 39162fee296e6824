import { describe, expect, it } from "vitest";
import { bookingStatusLabels, staffBookingStatusLabels } from "../../common/status-labels";
import { bookingStatuses } from "../../server/db/schema/bookings";

describe("status labels", () => {
  it("name every booking status, for visitors and for the back office", () => {
    expect(Object.keys(bookingStatusLabels).sort()).toEqual([...bookingStatuses].sort());
    expect(Object.keys(staffBookingStatusLabels).sort()).toEqual([...bookingStatuses].sort());
  });
});
