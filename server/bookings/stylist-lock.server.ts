import { and, asc, eq } from "drizzle-orm";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import { staff } from "../db/schema";

/**
 * The booking side of the schedule-change lock (issue 29; decisions 0046 and 0053).
 * A schedule change locks its stylists' rows FOR UPDATE before it checks
 * for stranded bookings (`guardStranding`). Every path that decides a
 * booking fits a stylist's working time and then writes it (the web hold,
 * the customer's 予約変更, the salon's entries and moves) calls this first
 * in its transaction, before it reads the schedule: FOR SHARE conflicts with
 * the change's FOR UPDATE (and not with other bookings' FOR SHARE), so
 *
 * - a booking that comes first makes the change wait, and the change then
 *   sees it (and refuses or lists it);
 * - a booking that comes while a change is open waits for it to commit,
 *   and then reads the new schedule (READ COMMITTED: each statement after
 *   the lock sees the committed change), instead of inserting on the old one.
 *
 * Lock order, as the change's: the stylists' rows first (in id order),
 * then bookings. `staffId` null (指名なし: the server picks anyone) locks
 * every stylist of the salon. An id that is no UUID locks nothing: the
 * schedule read after it refuses it with its own 4xx.
 */
export async function lockStylistsForBooking(
  tx: Pick<Database, "select">,
  salonId: string,
  staffId: string | null,
): Promise<void> {
  if (!isUuid(salonId) || (staffId !== null && !isUuid(staffId))) return;
  await tx
    .select({ id: staff.id })
    .from(staff)
    .where(
      staffId ? and(eq(staff.id, staffId), eq(staff.salonId, salonId)) : eq(staff.salonId, salonId),
    )
    .orderBy(asc(staff.id))
    .for("share");
}
