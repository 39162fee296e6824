import { and, asc, eq, gt, inArray, ne, or, sql } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { occupiedRange } from "../bookings/occupied-time";
import type { Database } from "../db/client";
import { bookingMenus, bookings, occupyingStatuses } from "../db/schema";
import { DomainError } from "../errors/domain-error";

/**
 * What stands in a stylist's way when the exclusion constraint refused a
 * booking the salon entered or moved (issue 28, points 4 and 5): read after
 * the failed transaction, named in one message for every path (the entry
 * form, a move, the API), with the same things as data for a salon's tools.
 */

export type Overlap = {
  kind: "booking" | "hold" | "block";
  startsAt: string;
  endsAt: string;
  /** The customer's name, or the block's label; "" for a hold. */
  label: string;
  /** A booking's menus, in order. */
  menus: string[];
};

/** Something of the stylist is in the way; the message names it. */
export class OverlapError extends DomainError {
  constructor(message: string, conflicts: Overlap[]) {
    super("slot_conflict", message, 409, { conflicts });
  }
}

export type OverlapWindow = {
  salonId: string;
  staffId: string;
  /** The start of the time the new row would occupy (its buffer before included). */
  start: Date;
  /** The end of the time the new row would occupy (its buffer included). */
  until: Date;
  now: Date;
  /** The booking being moved, which is not in its own way. */
  exceptBookingId?: string;
};

/** At most five rows in the way, earliest first; live holds only. */
export async function findOverlaps(
  db: Pick<Database, "select">,
  window: OverlapWindow,
): Promise<Overlap[]> {
  const rows = await db
    .select({
      id: bookings.id,
      kind: bookings.kind,
      status: bookings.status,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      customerName: bookings.customerName,
      salonNote: bookings.salonNote,
    })
    .from(bookings)
    .where(
      and(
        eq(bookings.salonId, window.salonId),
        eq(bookings.staffId, window.staffId),
        window.exceptBookingId ? ne(bookings.id, window.exceptBookingId) : undefined,
        inArray(bookings.status, [...occupyingStatuses]),
        or(sql`${bookings.status} <> 'held'`, gt(bookings.holdExpiresAt, window.now)),
        sql`${occupiedRange} && tstzrange(${window.start}, ${window.until}, '[)')`,
      ),
    )
    .orderBy(asc(bookings.startsAt))
    .limit(5);
  const customers = rows.filter((row) => row.kind === "booking" && row.status !== "held");
  const menuRows =
    customers.length > 0
      ? await db
          .select({ bookingId: bookingMenus.bookingId, name: bookingMenus.name })
          .from(bookingMenus)
          .where(
            and(
              eq(bookingMenus.salonId, window.salonId),
              inArray(
                bookingMenus.bookingId,
                customers.map((row) => row.id),
              ),
            ),
          )
          .orderBy(asc(bookingMenus.bookingId), asc(bookingMenus.position))
      : [];
  return rows.map((row) => {
    const kind = row.kind === "block" ? "block" : row.status === "held" ? "hold" : "booking";
    return {
      kind,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      label:
        kind === "block" ? row.salonNote || "ブロック" : kind === "hold" ? "" : row.customerName,
      menus: menuRows.filter((menu) => menu.bookingId === row.id).map((menu) => menu.name),
    };
  });
}

const hhmm = (iso: string, timeZone: string) => toLocal(new Date(iso), timeZone).time;

/**
 * 「この時間は、14:00〜15:00の山田 花子様の予約（カット）と重なっています。…」: each
 * thing in the way by its time, in the salon's zone.
 */
export function overlapMessage(overlaps: readonly Overlap[], timeZone: string): string {
  const described = overlaps.map((overlap) => {
    const span = `${hhmm(overlap.startsAt, timeZone)}〜${hhmm(overlap.endsAt, timeZone)}`;
    if (overlap.kind === "block") return `${span}のブロック「${overlap.label}」`;
    if (overlap.kind === "hold") return `${span}のWeb予約の仮押さえ（お客様が手続き中）`;
    const menus = overlap.menus.length > 0 ? `（${overlap.menus.join("、")}）` : "";
    return `${span}の${overlap.label || "お客様"}様の予約${menus}`;
  });
  const what =
    described.length > 0 ? `${described.join("、")}と重なっています` : "ほかの予定と重なっています";
  return `この時間は、${what}。時間かスタイリストを変えてください。`;
}

/** The 409 for a refused row: findOverlaps, named. */
export async function overlapError(
  db: Pick<Database, "select">,
  window: OverlapWindow,
  timeZone: string,
): Promise<OverlapError> {
  const overlaps = await findOverlaps(db, window);
  return new OverlapError(overlapMessage(overlaps, timeZone), overlaps);
}
