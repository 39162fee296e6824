import type { Database } from "../db/client";
import { can, type SalonAccess } from "../salon-access/salon-access.server";
import {
  BookingNotFoundForSalonError,
  getOwnerBooking,
  type OwnerBookingDetail,
} from "./booking-actions.server";

/**
 * What a person may see of the salon's bookings (issue 29, point 1;
 * decision 0045), in one place so every read (the ledger, 今日, a booking's
 * detail, their JSON) shapes it the same way:
 * - `staffId`: a stylist sees only their own column and bookings (another
 *   stylist's booking is not found); null: every stylist's.
 * - `contact`: phone and email go with the customers (customers.manage):
 *   a stylist sees a customer's name and kana, never how to reach them.
 */
export type ViewScope = { staffId: string | null; contact: boolean };

export function viewScope(access: SalonAccess): ViewScope {
  return {
    staffId: access.role === "stylist" ? access.staffId : null,
    contact: can(access, "customers.manage"),
  };
}

/** Whether a booking of this stylist is in the scope. */
export function inScope(scope: ViewScope, staffId: string): boolean {
  return scope.staffId === null || scope.staffId === staffId;
}

/** The detail as this scope may see it; another stylist's booking is not found (404). */
export function scopedBookingDetail(
  scope: ViewScope,
  detail: OwnerBookingDetail,
): OwnerBookingDetail {
  if (!inScope(scope, detail.staff.id)) throw new BookingNotFoundForSalonError();
  if (scope.contact) return detail;
  return {
    ...detail,
    customer: { ...detail.customer, phone: "", email: "" },
    // The customer's record (顧客カルテ) is not theirs to open either.
    customerId: null,
  };
}

/** One booking of the salon for this person (the page and GET …/bookings/{id}). */
export async function readOwnerBooking(
  db: Database,
  access: SalonAccess,
  bookingId: string,
): Promise<OwnerBookingDetail> {
  const detail = await getOwnerBooking(db, { salonId: access.salon.id, bookingId });
  return scopedBookingDetail(viewScope(access), detail);
}
