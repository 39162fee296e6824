import { and, eq, lte, sql } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import type { Database } from "../db/client";
import { bookingMenus, bookings } from "../db/schema";
import { DEADLOCK_DETECTED, EXCLUSION_VIOLATION, sqlState } from "../db/sql-state";
import { notifySlotChange } from "../realtime/slot-events.server";
import { followMovedRequest } from "./approval.server";
import { type Booking, couponPrice } from "./booking.server";
import { BookingNotFoundError, CouponNotApplicableError } from "./booking-errors";
import { type BookingActor, recordBookingEvent } from "./booking-history.server";
import { enqueueMovedJobs, moveReminder } from "./booking-jobs.server";
import { refreshAfterBookingChange } from "./free-days.server";
import { nominationFeeFor } from "./nomination-fee";
import { occupiedRange } from "./occupied-time";

/**
 * The one write path for moving a booking (issue 38, §7): the salon's move
 * (owner/booking-actions.server.ts) and the customer's 予約変更
 * (reschedule.server.ts) check different things before it — the customer
 * only what the salon offers, the salon whatever it decides — but price
 * the move, write it, retry a lost race and tell the world the same way.
 */

/** A menu of the booking as its snapshot keeps it (booking_menus). */
export type MovedMenu = { menuId: string; name: string; price: number; durationMinutes: number };

export type MovePrice = {
  totalPrice: number;
  nominationFee: number;
  couponId: string | null;
  couponDropped: boolean;
};

const sameMenus = (a: readonly { menuId: string }[], b: readonly { menuId: string }[]) =>
  a.length === b.length && a.every((menu, index) => menu.menuId === b[index]?.menuId);

/**
 * What the moved booking costs. Menus kept keep the price they were booked
 * at (with the coupon's discount as booked); other menus cost today's price.
 * The coupon is checked again for the new menus and day, and dropped (list
 * price) where it no longer applies. The 指名料 (decision 0047) is charged
 * only for a stylist chosen on purpose: the booked fee while it is the same
 * chosen stylist, the new stylist's own fee when 指名 moves to them, none
 * for 指名なし (issue 38, §1.3). A coupon never discounts the fee.
 */
export async function priceOfMove(
  tx: Pick<Database, "select" | "execute">,
  row: Booking,
  move: {
    bookedMenus: readonly MovedMenu[];
    menus: readonly MovedMenu[];
    date: string;
    /**
     * The customer's own move: the new start and the salon's zone, so that
     * the coupon's weekdays, hours and stylist are checked again (decision
     * 0087). The salon's moves keep those: the salon chose the new time.
     */
    start?: { at: Date; timeZone: string };
    staffId: string;
    staffRequested: boolean;
  },
): Promise<MovePrice> {
  const menusKept = sameMenus(move.bookedMenus, move.menus);
  const listPrice = move.menus.reduce((sum, menu) => sum + menu.price, 0);
  let menusPrice = menusKept ? row.totalPrice - row.nominationFee : listPrice;
  let couponId = row.couponId;
  let couponDropped = false;
  if (couponId) {
    try {
      const discounted = await couponPrice(tx, {
        salonId: row.salonId,
        couponId,
        date: move.date,
        userId: row.userId,
        menus: move.menus.map((menu) => ({ id: menu.menuId, price: menu.price })),
        ...(move.start
          ? { start: move.start, requestedStaffId: move.staffRequested ? move.staffId : null }
          : {}),
        exceptBookingId: row.id,
      });
      if (!menusKept) menusPrice = discounted;
    } catch (error) {
      if (!(error instanceof CouponNotApplicableError)) throw error;
      couponId = null;
      couponDropped = true;
      menusPrice = listPrice;
    }
  }
  const nominationFee = !move.staffRequested
    ? 0
    : row.staffRequested && row.staffId === move.staffId
      ? row.nominationFee
      : await nominationFeeFor(tx, row.salonId, move.staffId);
  return { totalPrice: menusPrice + nominationFee, nominationFee, couponId, couponDropped };
}

/** The booking after the move, as written to its row. */
export type MoveChange = Omit<MovePrice, "couponDropped"> & {
  startsAt: Date;
  endsAt: Date;
  occupiedFrom: Date;
  occupiedUntil: Date;
  staffId: string;
  staffRequested: boolean;
  menus: readonly MovedMenu[];
};

export type MoveRecord = {
  actor: BookingActor;
  /** Whose move the customer's mail names. */
  by: "customer" | "salon";
  /** The booking's side before, for the mails. */
  previous: { startsAt: Date; endsAt: Date; staffName: string; menus: readonly MovedMenu[] };
  /** The history entry's details. */
  details: Record<string, unknown>;
  timeZone: string;
  now: Date;
};

/**
 * Writes a checked move inside the caller's transaction, the row already
 * locked: expired holds in the way cleared, the row updated in place
 * (version bumped, updatedAt), its menus replaced when they changed, the
 * history entry ('moved', or 'menus_changed' when only the menus did), the
 * customer's mail with the updated .ics and the salon's notice, the
 * reminder moved, and the open pages of both days told.
 */
export async function writeMove(
  tx: Database,
  row: Booking,
  change: MoveChange,
  record: MoveRecord,
): Promise<Booking> {
  await tx
    .delete(bookings)
    .where(
      and(
        eq(bookings.salonId, row.salonId),
        eq(bookings.staffId, change.staffId),
        eq(bookings.status, "held"),
        lte(bookings.holdExpiresAt, record.now),
        sql`${occupiedRange} && tstzrange(${change.occupiedFrom}, ${change.occupiedUntil}, '[)')`,
      ),
    );
  const [moved] = await tx
    .update(bookings)
    .set({
      startsAt: change.startsAt,
      endsAt: change.endsAt,
      occupiedFrom: change.occupiedFrom,
      occupiedUntil: change.occupiedUntil,
      staffId: change.staffId,
      staffRequested: change.staffRequested,
      totalPrice: change.totalPrice,
      nominationFee: change.nominationFee,
      couponId: change.couponId,
      version: sql`${bookings.version} + 1`,
      updatedAt: record.now,
    })
    .where(eq(bookings.id, row.id))
    .returning();
  if (!moved) throw new BookingNotFoundError();
  if (!sameMenus(record.previous.menus, change.menus)) {
    await tx
      .delete(bookingMenus)
      .where(and(eq(bookingMenus.salonId, row.salonId), eq(bookingMenus.bookingId, row.id)));
    await tx.insert(bookingMenus).values(
      change.menus.map((menu, position) => ({
        salonId: row.salonId,
        bookingId: row.id,
        position,
        menuId: menu.menuId,
        name: menu.name,
        price: menu.price,
        durationMinutes: menu.durationMinutes,
      })),
    );
  }
  const onlyMenus =
    change.startsAt.getTime() === row.startsAt.getTime() &&
    change.staffId === row.staffId &&
    change.staffRequested === row.staffRequested;
  await recordBookingEvent(tx, {
    salonId: row.salonId,
    bookingId: row.id,
    kind: onlyMenus ? "menus_changed" : "moved",
    actor: record.actor,
    details: record.details,
    at: record.now,
  });
  await enqueueMovedJobs(tx, moved, {
    by: record.by,
    previous: {
      startsAt: record.previous.startsAt,
      endsAt: record.previous.endsAt,
      staffName: record.previous.staffName,
      menuNames: record.previous.menus.map((menu) => menu.name),
    },
    now: record.now,
  });
  await moveReminder(tx, moved, record.timeZone, record.now);
  const deadline = await followMovedRequest(tx, moved, change.startsAt, record.now);
  await notifySlotChange(tx, row.salonId, [
    toLocal(row.startsAt, record.timeZone).date,
    toLocal(change.startsAt, record.timeZone).date,
  ]);
  return deadline ? { ...moved, approvalExpiresAt: deadline } : moved;
}

/** Where an attempt tried to put the booking, for the refusal of a lost race. */
export type MoveAttempt = {
  staffId: string;
  occupiedFrom: Date;
  occupiedUntil: Date;
  /** 指名なし: the system picked the stylist, and may pick another on a new try. */
  stylistPicked: boolean;
};

export const MOVE_ATTEMPTS = 5;

/**
 * Runs a move's transaction, and runs it again in a fresh one when it
 * lost a race: a deadlock (two moves onto the same time may end so on the
 * exclusion constraint) always, the constraint itself only when the system
 * picked the stylist (another may be free now). Any other lost race is the
 * door's refusal, `refuseTaken` (the customer's SlotTakenError, the salon's
 * message naming what is in the way).
 */
export async function runMove<T>(
  db: Database,
  work: (tx: Database, tried: (attempt: MoveAttempt) => void) => Promise<T>,
  refuseTaken: (attempt: MoveAttempt | null) => Promise<Error>,
): Promise<T> {
  for (let round = 1; ; round++) {
    let attempted: MoveAttempt | null = null;
    try {
      return await db.transaction((tx) =>
        work(tx, (attempt) => {
          attempted = attempt;
        }),
      );
    } catch (error) {
      const state = sqlState(error);
      const last = round >= MOVE_ATTEMPTS;
      if (state === DEADLOCK_DETECTED && !last) continue;
      if (state !== EXCLUSION_VIOLATION && state !== DEADLOCK_DETECTED) throw error;
      const tried = attempted as MoveAttempt | null;
      if (state === EXCLUSION_VIOLATION && tried?.stylistPicked && !last) continue;
      throw await refuseTaken(tried);
    }
  }
}

/** After the commit: both days' free-time summaries for the search (the old day gained a time). */
export async function refreshMovedDays(
  db: Database,
  moved: Booking,
  previousStart: Date,
  now: Date,
): Promise<void> {
  await refreshAfterBookingChange(db, { ...moved, startsAt: previousStart }, now);
  await refreshAfterBookingChange(db, moved, now);
}
