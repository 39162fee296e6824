import { and, asc, eq } from "drizzle-orm";
import { toLocal } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import { bookingMenus, bookings, coupons, salons, staff } from "../db/schema";
import { DomainError } from "../errors/domain-error";
import { findAvailability, pickStaff } from "./availability";
import { type LoadedAvailability, loadAvailabilityInput } from "./availability-data.server";
import type { Booking, BookingClient } from "./booking.server";
import { BookingNotFoundError, SlotTakenError, SlotUnavailableError } from "./booking-errors";
import { customerActor } from "./booking-history.server";
import { priceOfMove, refreshMovedDays, runMove, writeMove } from "./booking-move.server";
import { limitBookingAttempt } from "./booking-rate-limit";
import { occupiedSpan } from "./occupied-time";
import { bookingSettingsFor } from "./settings";
import { lockStylistsForBooking } from "./stylist-lock.server";

/**
 * The customer's 予約変更 (issue 28, point 4; docs/decisions/0041-customer-reschedule.md):
 * their confirmed booking moves to another time, stylist or menus in ONE
 * transaction that updates the booking's own row. The booking keeps its id,
 * number and calendar UID; the old time is free and the new one taken at
 * the same commit, so the customer never has two bookings or none. The
 * exclusion constraint decides a race with anybody else; the booking's own
 * old time never stands in its way (it is the same row, and the
 * availability check leaves it out).
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;

export class BookingNotChangeableError extends DomainError {
  constructor() {
    super(
      "booking_not_changeable",
      "この予約はすでにキャンセル済みか、終了しているため変更できません。",
      409,
    );
  }
}

/** The same cutoff as the web cancellation (cancelBooking), and the same code for API clients. */
export class ChangeClosedError extends DomainError {
  constructor(cutoffHours: number) {
    super(
      "cancellation_closed",
      `変更期限（ご来店の${cutoffHours}時間前）を過ぎているため、ウェブからは予約を変更できません。お手数ですがサロンへお電話ください。`,
      409,
      { cutoffHours },
    );
  }
}

/** The booking changed (by the salon, or in another tab) since the customer looked at it. */
export class BookingVersionConflictError extends DomainError {
  constructor() {
    super(
      "booking_changed",
      "このご予約は、表示したあとに変更されています。最新の内容をご確認のうえ、もう一度お試しください。",
      409,
    );
  }
}

export type RescheduleRequest = {
  bookingId: string;
  userId: string;
  start: Date;
  /**
   * undefined: the booking's own choice (its stylist when it was 指名, else
   * 指名なし); null: 指名なし; an id: that stylist (指名).
   */
  staffId?: string | null;
  /** undefined: the booking's menus. */
  menuIds?: readonly string[];
  /** The version the customer saw; a different one is BookingVersionConflictError. */
  version?: number;
  now: Date;
};

/** One side of a change, as the confirmation page, the history entry and the mails name it. */
export type BookingSide = {
  startsAt: Date;
  endsAt: Date;
  staffId: string;
  staffName: string;
  staffRequested: boolean;
  menus: { menuId: string; name: string; price: number; durationMinutes: number }[];
  totalPrice: number;
  couponId: string | null;
  couponTitle: string | null;
};

export type ReschedulePlan = {
  before: BookingSide;
  after: BookingSide & { occupiedFrom: Date; occupiedUntil: Date; nominationFee: number };
  /** The booking's coupon does not apply to the new menus or date: the new price is without it. */
  couponDropped: boolean;
  /** Nothing would change (the same time, stylist and menus). */
  unchanged: boolean;
  salonId: string;
  timeZone: string;
};

type Reader = Pick<Database, "select" | "execute">;

/** The customer's own booking, or BookingNotFoundError (also for anyone else's). */
async function ownBooking(db: Reader, bookingId: string, userId: string, lock: boolean) {
  if (!isUuid(bookingId)) throw new BookingNotFoundError();
  const query = db
    .select()
    .from(bookings)
    .where(
      and(eq(bookings.id, bookingId), eq(bookings.userId, userId), eq(bookings.kind, "booking")),
    );
  const [row] = lock ? await query.for("update") : await query;
  if (!row || row.status === "held") throw new BookingNotFoundError();
  return row;
}

/** Confirmed and before the cancellation cutoff (the same rule as cancelBooking). */
async function assertChangeable(db: Reader, row: Booking, now: Date) {
  if (row.status !== "confirmed") throw new BookingNotChangeableError();
  const { cancellationCutoffHours } = await bookingSettingsFor(db, row.salonId);
  if (now.getTime() > row.startsAt.getTime() - cancellationCutoffHours * HOUR) {
    throw new ChangeClosedError(cancellationCutoffHours);
  }
  return cancellationCutoffHours;
}

/** The booking's side as it is now: its menus, stylist and coupon. */
async function currentSide(db: Reader, row: Booking): Promise<BookingSide> {
  // One after the other: inside the swap they share the transaction's connection.
  const menus = await db
    .select({
      menuId: bookingMenus.menuId,
      name: bookingMenus.name,
      price: bookingMenus.price,
      durationMinutes: bookingMenus.durationMinutes,
    })
    .from(bookingMenus)
    .where(and(eq(bookingMenus.salonId, row.salonId), eq(bookingMenus.bookingId, row.id)))
    .orderBy(asc(bookingMenus.position));
  const [who] = await db
    .select({ name: staff.name })
    .from(staff)
    .where(and(eq(staff.id, row.staffId), eq(staff.salonId, row.salonId)));
  const [coupon] = row.couponId
    ? await db.select({ title: coupons.title }).from(coupons).where(eq(coupons.id, row.couponId))
    : [];
  return {
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    staffId: row.staffId,
    staffName: who?.name ?? "",
    staffRequested: row.staffRequested,
    menus,
    totalPrice: row.totalPrice,
    couponId: row.couponId,
    couponTitle: coupon?.title ?? null,
  };
}

/**
 * The availability input with the booking itself left out: its own time is
 * free for it (a move 30 minutes later on the same stylist overlaps it),
 * and it does not count towards its stylist's daily limit. Busy time names
 * no booking, but one stylist has at most one occupying booking starting at
 * an instant (the exclusion constraint), so stylist and start find it.
 */
export function withoutBooking(
  loaded: LoadedAvailability,
  booking: { staffId: string; startsAt: Date },
): LoadedAvailability {
  const { input } = loaded;
  // Busy time starts earlier when the booking kept a longer buffer before
  // than today's (availability-data.sql): the one holding the start is it.
  const at = booking.startsAt.getTime();
  const index = input.busy.findIndex(
    (item) =>
      item.staffId === booking.staffId &&
      !item.block &&
      item.start.getTime() <= at &&
      item.end.getTime() > at,
  );
  if (index === -1) return loaded;
  const busy = input.busy.filter((_, position) => position !== index);
  const bookingsPerStaffDay = new Map(input.bookingsPerStaffDay);
  const key = `${booking.staffId}|${toLocal(booking.startsAt, input.timeZone).date}`;
  const count = bookingsPerStaffDay.get(key);
  if (count !== undefined) bookingsPerStaffDay.set(key, Math.max(0, count - 1));
  return { ...loaded, input: { ...input, busy, bookingsPerStaffDay } };
}

/**
 * What the change would make of the booking, checked against the salon's
 * availability on the new day with the booking itself left out: the start
 * must be one the salon offers for these menus and stylist. Reads only;
 * the swap runs it again inside its transaction.
 */
/** The stylist the customer asks for: the one given, or the booking's own when it was chosen. */
function requestedStaffOf(row: Booking, request: { staffId?: string | null }) {
  return request.staffId === undefined
    ? row.staffRequested
      ? row.staffId
      : null
    : request.staffId;
}

async function plan(
  db: Reader,
  row: Booking,
  request: Omit<RescheduleRequest, "bookingId" | "userId" | "version">,
): Promise<ReschedulePlan> {
  if (Number.isNaN(request.start.getTime())) throw new SlotUnavailableError();
  const before = await currentSide(db, row);
  const [salon] = await db
    .select({ timeZone: salons.timeZone })
    .from(salons)
    .where(eq(salons.id, row.salonId));
  if (!salon) throw new BookingNotFoundError();
  const requestedStaff = requestedStaffOf(row, request);
  const menuIds = request.menuIds ?? before.menus.map((menu) => menu.menuId);
  const date = toLocal(request.start, salon.timeZone).date;
  const loaded = withoutBooking(
    await loadAvailabilityInput(db, {
      salonId: row.salonId,
      menuIds,
      staffId: requestedStaff,
      from: date,
      to: date,
      now: request.now,
    }),
    row,
  );
  const start = request.start.getTime();
  const slot = findAvailability(loaded.input)
    .flatMap((day) => day.slots)
    .find((candidate) => candidate.start.getTime() === start);
  if (!slot) {
    const free = findAvailability({ ...loaded.input, busy: [], bookingsPerStaffDay: new Map() })
      .flatMap((day) => day.slots)
      .some((candidate) => candidate.start.getTime() === start);
    throw free ? new SlotTakenError() : new SlotUnavailableError();
  }
  // 指名なし keeps the stylist the customer had when they are free then.
  const staffId =
    requestedStaff ??
    (slot.staffIds.includes(row.staffId)
      ? row.staffId
      : pickStaff(slot.staffIds, loaded.input.bookingsPerStaffDay, date));
  if (!staffId) throw new SlotTakenError();
  const menus = loaded.menus.map((menu) => ({
    menuId: menu.id,
    name: menu.name,
    price: menu.price,
    durationMinutes: menu.durationMinutes,
  }));
  const menusKept =
    menus.length === before.menus.length &&
    menus.every((menu, index) => menu.menuId === before.menus[index]?.menuId);
  const staffRequested = requestedStaff !== null;
  // Kept menus keep their booked price; the 指名料 follows the stylist the customer now chose.
  const price = await priceOfMove(db, row, {
    bookedMenus: before.menus,
    menus: menusKept ? before.menus : menus,
    date,
    start: { at: request.start, timeZone: loaded.salon.timeZone },
    staffId,
    staffRequested,
  });
  const [who] =
    staffId === row.staffId
      ? [{ name: before.staffName }]
      : await db
          .select({ name: staff.name })
          .from(staff)
          .where(and(eq(staff.id, staffId), eq(staff.salonId, row.salonId)));
  const endsAt = new Date(start + loaded.durationMinutes * MINUTE);
  const after = {
    startsAt: request.start,
    endsAt,
    ...occupiedSpan(request.start, endsAt, loaded.rules),
    staffId,
    staffName: who?.name ?? "",
    staffRequested,
    menus: menusKept ? before.menus : menus,
    totalPrice: price.totalPrice,
    nominationFee: price.nominationFee,
    couponId: price.couponId,
    couponTitle: price.couponDropped ? null : before.couponTitle,
  };
  const unchanged =
    after.startsAt.getTime() === before.startsAt.getTime() &&
    after.staffId === before.staffId &&
    after.staffRequested === before.staffRequested &&
    after.menus.map((menu) => menu.menuId).join() === before.menus.map((m) => m.menuId).join();
  return {
    before,
    after,
    couponDropped: price.couponDropped,
    unchanged,
    salonId: row.salonId,
    timeZone: salon.timeZone,
  };
}

/**
 * The change page's preview (old → new, the price, whether the coupon
 * stays), with the same checks as the swap; nothing is written or held.
 */
export async function previewReschedule(
  db: Database,
  request: Omit<RescheduleRequest, "version">,
): Promise<ReschedulePlan & { version: number }> {
  const row = await ownBooking(db, request.bookingId, request.userId, false);
  await assertChangeable(db, row, request.now);
  return { ...(await plan(db, row, request)), version: row.version };
}

/**
 * The booking the customer is changing, for the flow's pickers: their own,
 * confirmed and before the cutoff (else the error says why).
 */
export async function changeTarget(
  db: Database,
  { bookingId, userId, now }: { bookingId: string; userId: string; now: Date },
) {
  const row = await ownBooking(db, bookingId, userId, false);
  const cutoffHours = await assertChangeable(db, row, now);
  const [side, [salon]] = await Promise.all([
    currentSide(db, row),
    db
      .select({ slug: salons.slug, timeZone: salons.timeZone })
      .from(salons)
      .where(eq(salons.id, row.salonId)),
  ]);
  const [member] = await db
    .select({ slug: staff.slug })
    .from(staff)
    .where(and(eq(staff.id, row.staffId), eq(staff.salonId, row.salonId)));
  return {
    id: row.id,
    bookingNumber: row.bookingNumber,
    salonId: row.salonId,
    salonSlug: salon?.slug ?? "",
    version: row.version,
    staffSlug: member?.slug ?? "",
    startsAt: row.startsAt,
    cutoffHours,
    side,
  };
}

export type RescheduleResult = {
  booking: Booking;
  /** false: the booking was already like this (a second submit): nothing was written. */
  changed: boolean;
  couponDropped: boolean;
  before: BookingSide;
};

/**
 * Moves the customer's booking in one transaction: the row is locked, the
 * new time checked with the booking itself left out, the row updated in
 * place (time, stylist, menus, price, coupon; version bumped), its menus
 * replaced, a 'moved' (or 'menus_changed') history entry written, and the
 * live channel told of both days. A conflict with anybody else is the
 * exclusion constraint's SlotTakenError and the booking stays as it was.
 * Counted against the booking limits (a change sends mails).
 */
export async function rescheduleBooking(
  db: Database,
  request: RescheduleRequest & BookingClient,
): Promise<RescheduleResult> {
  await limitBookingAttempt(request.limits, "booking", {
    ip: request.ip,
    userId: request.userId,
  });
  // One write path with the salon's move (issue 38, §7): a race lost on the
  // constraint is tried again only for 指名なし, where another stylist may be free.
  const result = await runMove(
    db,
    async (tx, tried) => {
      // The stylists the new time may go to, locked first (FOR SHARE; the
      // schedule change's order: stylists, then bookings) and before the
      // schedule read: a change open now is waited for and its new working
      // time read (decision 0046). Which ones depends on the booking, read
      // once unlocked for that; changed meanwhile, it is a version conflict.
      const seen = await ownBooking(tx, request.bookingId, request.userId, false);
      await lockStylistsForBooking(tx, seen.salonId, requestedStaffOf(seen, request));
      const row = await ownBooking(tx, request.bookingId, request.userId, true);
      if (requestedStaffOf(row, request) !== requestedStaffOf(seen, request)) {
        throw new BookingVersionConflictError();
      }
      await assertChangeable(tx, row, request.now);
      const planned = await plan(tx, row, request);
      // Already so (a double submit, a retried request): the booking as it is.
      if (planned.unchanged) {
        return { booking: row, changed: false, couponDropped: false, before: planned.before };
      }
      if (request.version !== undefined && request.version !== row.version) {
        throw new BookingVersionConflictError();
      }
      const { after, before } = planned;
      tried({
        staffId: after.staffId,
        occupiedFrom: after.occupiedFrom,
        occupiedUntil: after.occupiedUntil,
        stylistPicked: requestedStaffOf(row, request) === null,
      });
      const moved = await writeMove(tx, row, after, {
        actor: customerActor(request.userId),
        by: "customer",
        previous: before,
        details: {
          from: sideDetails(before),
          to: sideDetails(after),
          couponDropped: planned.couponDropped,
        },
        timeZone: planned.timeZone,
        now: request.now,
      });
      return { booking: moved, changed: true, couponDropped: planned.couponDropped, before };
    },
    async () => new SlotTakenError(),
  );
  if (result.changed) {
    await refreshMovedDays(db, result.booking, result.before.startsAt, request.now);
  }
  return result;
}

/** The history entry's and the mails' words for one side. */
function sideDetails(side: BookingSide) {
  return {
    startsAt: side.startsAt.toISOString(),
    endsAt: side.endsAt.toISOString(),
    staffId: side.staffId,
    staffName: side.staffName,
    staffRequested: side.staffRequested,
    menus: side.menus.map((menu) => menu.name),
    totalPrice: side.totalPrice,
    couponTitle: side.couponTitle,
  };
}
