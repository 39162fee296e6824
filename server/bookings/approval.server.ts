import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { type BookingApproval, salonBookingSettings } from "../db/schema";

/**
 * Approval mode (仮予約, issue 29 point 4; decision 0051). A salon whose
 * booking settings say `requires_approval` gets each new WEB booking as a
 * confirmed row with `approval = 'pending'`: it occupies the time like any
 * booking (nobody else can take it), and the salon then approves it
 * ('approved') or refuses it (cancelled by the salon, 'refused'). Bookings
 * the salon enters itself (phone, walk-in) are never pending.
 */

/** Whether the salon asks to approve new web bookings (a salon without settings does not). */
export async function salonRequiresApproval(
  db: Pick<Database, "select">,
  salonId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ requiresApproval: salonBookingSettings.requiresApproval })
    .from(salonBookingSettings)
    .where(eq(salonBookingSettings.salonId, salonId));
  return row?.requiresApproval ?? false;
}

/** The approval a web booking confirmed now gets. */
export async function approvalAtConfirm(
  db: Pick<Database, "select">,
  salonId: string,
): Promise<BookingApproval | null> {
  return (await salonRequiresApproval(db, salonId)) ? "pending" : null;
}

/** A confirmed booking that still waits for the salon's answer (common/, for pages too). */
export { isPendingApproval } from "../../common/status-labels";
