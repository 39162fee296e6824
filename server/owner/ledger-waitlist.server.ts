import { formatMinutes, toLocal } from "../../common/local-time";
import { waitlistWindowText } from "../../common/waitlist";
import type { Database } from "../db/client";
import type { SalonAccess } from "../salon-access/salon-access.server";
import { listWaitlistForSalonDay } from "../waitlist/waitlist.server";
import { viewScope } from "./scope.server";

/**
 * The day's waiting list under the ledger's day view (issue 30, point 4):
 * in line order, what each customer waits for, and an open offer's time and
 * deadline. A stylist sees their own entries and the 指名なし ones (the
 * ledger's scope, decision 0045); never how to reach the customer.
 */
export type LedgerWaitlistEntry = {
  id: string;
  /** Place in the live line (1 = offered first); null once the entry left it. */
  position: number | null;
  statusLabel: string;
  customerName: string;
  menuNames: string[];
  staffLabel: string;
  windowText: string;
  /** The open offer: the held time and until when, local "HH:MM" (the deadline with its date when another day). */
  offer: { time: string; deadline: string } | null;
};

export async function ledgerWaitlist(
  db: Database,
  access: SalonAccess,
  date: string,
): Promise<LedgerWaitlistEntry[]> {
  const { staffId } = viewScope(access);
  const entries = await listWaitlistForSalonDay(db, { salonId: access.salon.id, date, staffId });
  const zone = access.salon.timeZone;
  return entries.map((entry) => {
    const deadline = entry.offer ? toLocal(entry.offer.expiresAt, zone) : null;
    return {
      id: entry.id,
      position: entry.position,
      statusLabel: entry.statusLabel,
      customerName: entry.customer.name,
      menuNames: entry.menus.map((menu) => menu.name),
      staffLabel: entry.staffLabel,
      windowText: waitlistWindowText(entry.windowStart, entry.windowEnd),
      offer:
        entry.offer && deadline
          ? {
              time: `${toLocal(entry.offer.startsAt, zone).time}〜${toLocal(entry.offer.endsAt, zone).time}`,
              deadline:
                deadline.date === date
                  ? formatMinutes(deadline.minutes)
                  : `${deadline.date} ${deadline.time}`,
            }
          : null,
    };
  });
}
