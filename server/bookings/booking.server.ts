import { and, asc, desc, eq, gte, isNull, lte, ne, or, sql } from "drizzle-orm";
import { priceWithCoupon } from "../../common/coupon-pricing";
import { toLocal } from "../../common/local-time";
import type { PolicySnapshot } from "../../common/payment-policy";
import { visitorStatusLabel } from "../../common/status-labels";
import { isUuid } from "../../common/uuid";
import type { Database } from "../db/client";
import { bookingMenus, bookings, couponMenus, coupons, salons, staff, users } from "../db/schema";
import {
  DEADLOCK_DETECTED,
  EXCLUSION_VIOLATION,
  sqlState,
  UNIQUE_VIOLATION,
} from "../db/sql-state";
import { countBookingMade, countHoldMade } from "../metrics/counts";
import type { PaymentRecord } from "../payments/payment-lines";
import { paymentRecordsFromJson, paymentRecordsJson } from "../payments/payment-records.server";
import { notifySlotChange } from "../realtime/slot-events.server";
import { enqueueWaitlistMatch, settleOfferOnConfirm } from "../waitlist/waitlist-trigger.server";
import { approvalAtConfirm, enqueueApprovalLapse } from "./approval.server";
import { findAvailability, pickStaff } from "./availability";
import {
  type LoadedAvailability,
  loadAvailabilityInput,
  publishedSalon,
} from "./availability-data.server";
import {
  BookingNotCancellableError,
  BookingNotFoundError,
  CancellationClosedError,
  CouponNotApplicableError,
  EmailNotVerifiedError,
  HoldExpiredError,
  IdempotencyKeyReusedError,
  SlotTakenError,
  SlotUnavailableError,
} from "./booking-errors";
import { type BookingMoney, planBookingMoney, sendBookingMoney } from "./booking-fees.server";
import { customerActor, recordBookingEvent } from "./booking-history.server";
import { enqueueCancellationJobs, enqueueConfirmationJobs } from "./booking-jobs.server";
import { newBookingNumber } from "./booking-number";
import { type BookingLimits, limitBookingAttempt } from "./booking-rate-limit";
import {
  customerHistory,
  recheckCouponAtConfirm,
  requireCouponFits,
} from "./coupon-eligibility.server";
import { refreshAfterBookingChange } from "./free-days.server";
import { hashHoldBrowserKey } from "./hold-browser.server";
import { limitLiveBookings } from "./live-booking-limit.server";
import { limitLiveHolds } from "./live-hold-limit.server";
import { nominationFeeFor } from "./nomination-fee";
import { occupiedRange, occupiedSpan } from "./occupied-time";
import {
  agreedPolicy,
  needsOnlinePayment,
  PaymentNotDueError,
  PaymentRequiredError,
  type PolicyConsent,
} from "./payment-policy.server";
import { attachCustomer } from "./salon-customers.server";
import { bookingSettingsFor } from "./settings";
import { lockStylistsForBooking } from "./stylist-lock.server";

/**
 * The booking transactions (docs/decisions/0009-booking-data-model.md).
 * The database's exclusion constraint is what prevents double booking; the
 * code here reads price, duration and ability from the database, picks the
 * stylist for 指名なし, and turns a lost race into SlotTakenError.
 */

const MINUTE = 60_000;
export type Booking = typeof bookings.$inferSelect;

/**
 * Who is asking, for the per-address and per-account limits on holds and
 * bookings. Required, and counted by holdSlot and confirmBooking
 * themselves, so that no path that books (page, API, a future one) can
 * skip them.
 */
export type BookingClient = {
  limits: BookingLimits;
  /** The client address (clientIp of the request). */
  ip: string;
};

export type HoldRequest = BookingClient & {
  salonId: string;
  menuIds: readonly string[];
  /** null: 指名なし, the server picks the stylist. */
  staffId: string | null;
  start: Date;
  userId: string | null;
  /** A coupon of the salon to apply; its terms are read from the database. */
  couponId?: string | null;
  /**
   * A guest's browser key (hold-browser.server.ts): only that browser may
   * see and claim the hold. A guest hold without one belongs to nobody.
   */
  browserKey?: string | null;
  /**
   * The salon's time zone, when the caller has just read the salon as
   * published (the API resolves its salon reference): holdSlot then does not
   * read it again. Absent: holdSlot reads it (SalonNotFoundError if unpublished).
   */
  salonTimeZone?: string;
  now: Date;
};

/** What couponPrice checks a coupon against. */
export type CouponAsk = {
  salonId: string;
  couponId: string;
  /** The visit's local date in the salon's zone. */
  date: string;
  userId: string | null;
  menus: readonly { id: string; price: number }[];
  /** The visit's start and the salon's zone (weekday and hours); absent: not known (the waiting list). */
  start?: { at: Date; timeZone: string };
  /** The stylist asked for (null: 指名なし); absent: not known. */
  requestedStaffId?: string | null;
  /** The booking being changed or held (reschedule.server.ts): it is not an earlier visit. */
  exceptBookingId?: string;
};

/**
 * The price with the coupon, checked: the salon's coupon, valid on the
 * booking's local date, for one of the chosen menus (or the whole booking),
 * and within its limits (decision 0087: target 新規/再来 and once per
 * customer from the salon's customer records when the visitor is known,
 * weekday and hours in the salon's zone, the stylist asked for).
 */
export async function couponPrice(
  tx: Pick<Database, "select" | "execute">,
  ask: CouponAsk,
): Promise<number> {
  const { salonId, couponId, date } = ask;
  if (!isUuid(couponId)) throw new CouponNotApplicableError();
  const [coupon] = await tx
    .select()
    .from(coupons)
    .where(
      and(
        eq(coupons.id, couponId),
        eq(coupons.salonId, salonId),
        lte(coupons.validFrom, date),
        or(isNull(coupons.validUntil), gte(coupons.validUntil, date)),
      ),
    );
  if (!coupon) throw new CouponNotApplicableError();
  const local = ask.start ? toLocal(ask.start.at, ask.start.timeZone) : null;
  requireCouponFits(coupon, {
    couponId: coupon.id,
    history: ask.userId
      ? await customerHistory(tx, salonId, ask.userId, ask.exceptBookingId)
      : undefined,
    local: local ? { weekday: local.weekday, minutes: local.minutes } : undefined,
    requestedStaffId: ask.requestedStaffId,
  });
  const couponMenuRows = await tx
    .select({ menuId: couponMenus.menuId })
    .from(couponMenus)
    .where(eq(couponMenus.couponId, coupon.id));
  const price = priceWithCoupon(ask.menus, {
    discountKind: coupon.discountKind,
    discountValue: coupon.discountValue,
    menuIds: couponMenuRows.map((row) => row.menuId),
  });
  if (price === null) throw new CouponNotApplicableError();
  return price;
}

export type HoldInsert = {
  /** The day's availability input, loaded in this transaction (loadAvailabilityInput). */
  loaded: LoadedAvailability;
  /** The start's local date in the salon's zone. */
  date: string;
  /** The stylist who takes the time (picked already for 指名なし). */
  staffId: string;
  /** The stylist the visitor asked for; null for 指名なし (no 指名料). */
  requestedStaffId: string | null;
  start: Date;
  userId: string | null;
  couponId: string | null;
  holdExpiresAt: Date;
  holderKeyHash: string | null;
  holderIp: string | null;
  now: Date;
};

/**
 * Inserts a `held` booking (and its menus) for a start the caller found
 * free with findAvailability, priced from the database (coupon, 指名料).
 * Shared by holdSlot and the waiting list's offers, so an offer's hold is
 * the same row a visitor's hold is. Expired holds in the way are cleared
 * first; a live booking in the way raises the exclusion violation, which
 * the caller handles (run it in a savepoint to carry on after one).
 */
export async function insertHold(tx: Database, hold: HoldInsert): Promise<Booking> {
  const { loaded, staffId, start } = hold;
  const salonId = loaded.salon.id;
  // 指名料 of a chosen stylist, after the coupon: it discounts the menus only (0047).
  const nominationFee = await nominationFeeFor(tx, salonId, hold.requestedStaffId);
  const totalPrice =
    (hold.couponId
      ? await couponPrice(tx, {
          salonId,
          couponId: hold.couponId,
          date: hold.date,
          userId: hold.userId,
          menus: loaded.menus,
          start: { at: start, timeZone: loaded.salon.timeZone },
          requestedStaffId: hold.requestedStaffId,
        })
      : loaded.totalPrice) + nominationFee;
  const endsAt = new Date(start.getTime() + loaded.durationMinutes * MINUTE);
  const { occupiedFrom, occupiedUntil } = occupiedSpan(start, endsAt, loaded.rules);

  // Expired holds no longer occupy anyone, but their rows would still
  // trip the exclusion constraint: clear those in the way first.
  await tx
    .delete(bookings)
    .where(
      and(
        eq(bookings.salonId, salonId),
        eq(bookings.staffId, staffId),
        eq(bookings.status, "held"),
        lte(bookings.holdExpiresAt, hold.now),
        sql`${occupiedRange} && tstzrange(${occupiedFrom}, ${occupiedUntil}, '[)')`,
      ),
    );
  const [held] = await tx
    .insert(bookings)
    .values({
      salonId,
      userId: hold.userId,
      staffId,
      staffRequested: hold.requestedStaffId !== null,
      bookingNumber: newBookingNumber(),
      startsAt: start,
      endsAt,
      occupiedFrom,
      occupiedUntil,
      totalPrice,
      nominationFee,
      couponId: hold.couponId,
      status: "held",
      holdExpiresAt: hold.holdExpiresAt,
      holderKeyHash: hold.holderKeyHash,
      holderIp: hold.holderIp,
      source: "web",
    })
    .returning();
  if (!held) throw new Error("hold not inserted");
  await tx.insert(bookingMenus).values(
    loaded.menus.map((menu, position) => ({
      salonId,
      bookingId: held.id,
      position,
      menuId: menu.id,
      name: menu.name,
      price: menu.price,
      durationMinutes: menu.durationMinutes,
    })),
  );
  return held;
}

/**
 * Holds a time: inserts a `held` booking that expires after the salon's
 * hold minutes. Inside one transaction it loads availability for that day
 * (menus, ability, schedules, live bookings), checks the start is one the
 * salon offers, picks the stylist for 指名なし (fewest bookings that day,
 * then staff order), deletes expired holds in the way, and inserts; the
 * exclusion constraint decides any race. A 指名なし attempt that loses a
 * race is retried in a fresh transaction with the stylists still free.
 */
export async function holdSlot(db: Database, request: HoldRequest): Promise<Booking> {
  await limitBookingAttempt(request.limits, "hold", { ip: request.ip, userId: request.userId });
  if (Number.isNaN(request.start.getTime())) throw new SlotUnavailableError();
  const salon = request.salonTimeZone
    ? { id: request.salonId, timeZone: request.salonTimeZone }
    : await publishedSalon(db, request.salonId);
  const date = toLocal(request.start, salon.timeZone).date;
  const holderKeyHash =
    request.userId === null && request.browserKey ? hashHoldBrowserKey(request.browserKey) : null;
  let lostRace = false;
  // One retry per stylist who might still be free, plus one for a booking-number clash.
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const held = await db.transaction(async (tx) => {
        // First the stylists' rows (FOR SHARE, before any booking row and the
        // schedule read): a schedule change open right now is waited for and
        // its new working time read (decision 0046).
        await lockStylistsForBooking(tx, salon.id, request.staffId);
        // One live hold per visitor (member or guest browser) and salon:
        // picking another time (or the same one again, e.g. after going
        // back) releases the earlier hold before availability is read, so
        // it does not stand in the way.
        const holder = request.userId
          ? eq(bookings.userId, request.userId)
          : holderKeyHash
            ? and(isNull(bookings.userId), eq(bookings.holderKeyHash, holderKeyHash))
            : null;
        const released = holder
          ? await tx
              .delete(bookings)
              .where(
                and(
                  eq(bookings.salonId, salon.id),
                  holder,
                  eq(bookings.status, "held"),
                  // A waiting-list offer's hold is the visitor's to take or
                  // decline on the offer page, not released by browsing (0055).
                  sql`not exists (select 1 from waitlist_offers o where o.hold_id = ${bookings.id} and o.status = 'open')`,
                ),
              )
              .returning({ startsAt: bookings.startsAt })
          : [];
        // Nobody may hold a salon's day: a cap on live holds per account,
        // guest browser and guest address, counted without the one just released.
        await limitLiveHolds(
          tx,
          { userId: request.userId, holderKeyHash, ip: request.ip },
          request.limits.liveHolds,
          request.now,
        );
        // The salon's limit of live bookings per customer (decision 0048).
        if (request.userId) {
          const customer = { salonId: salon.id, userId: request.userId, now: request.now };
          await limitLiveBookings(tx, customer);
        }
        const loaded = await loadAvailabilityInput(tx, {
          salonId: salon.id,
          menuIds: request.menuIds,
          staffId: request.staffId,
          from: date,
          to: date,
          now: request.now,
        });
        const start = request.start.getTime();
        const slot = findAvailability(loaded.input)
          .flatMap((day) => day.slots)
          .find((candidate) => candidate.start.getTime() === start);
        if (!slot) {
          // Taken, if the salon would offer the time with nobody booked.
          const free = findAvailability({
            ...loaded.input,
            busy: [],
            bookingsPerStaffDay: new Map(),
          }).some((day) => day.slots.some((s) => s.start.getTime() === start));
          throw lostRace || free ? new SlotTakenError() : new SlotUnavailableError();
        }
        const staffId =
          request.staffId ?? pickStaff(slot.staffIds, loaded.input.bookingsPerStaffDay, date);
        if (!staffId) throw new SlotTakenError();
        const held = await insertHold(tx, {
          loaded,
          date,
          staffId,
          requestedStaffId: request.staffId,
          start: request.start,
          userId: request.userId,
          couponId: request.couponId ?? null,
          holdExpiresAt: new Date(request.now.getTime() + loaded.rules.holdMinutes * MINUTE),
          holderKeyHash,
          holderIp: request.userId === null ? request.ip : null,
          now: request.now,
        });
        // A hold that is never confirmed frees its time with no write at all:
        // the waiting list looks again when it lapses (decision 0055).
        if (held.holdExpiresAt) {
          await enqueueWaitlistMatch(tx, salon.id, [date], held.holdExpiresAt);
        }
        // Open booking pages on every app server drop the time (and show a
        // released one) when this transaction commits; never on a rollback.
        await notifySlotChange(tx, salon.id, [
          date,
          ...released.map((hold) => toLocal(hold.startsAt, salon.timeZone).date),
        ]);
        return held;
      });
      countHoldMade();
      return held;
    } catch (error) {
      const state = sqlState(error);
      if (state === EXCLUSION_VIOLATION) {
        // A requested stylist has no one else to try.
        if (request.staffId !== null) throw new SlotTakenError();
        lostRace = true;
        continue;
      }
      // A booking number already used in this salon (1 in 10^12 a pair), or a
      // deadlock with a simultaneous hold of the same time: try again.
      if (state === UNIQUE_VIOLATION || state === DEADLOCK_DETECTED) continue;
      throw error;
    }
  }
  throw new SlotTakenError();
}

export type CustomerSnapshot = { name: string; kana: string; phone: string; email: string };

export type ConfirmRequest = BookingClient & {
  holdId: string;
  userId: string;
  customer: CustomerSnapshot;
  notes: string;
  /** The client's key for this submission; the same key returns the same booking. */
  idempotencyKey: string | null;
  /**
   * The visitor's consent to the salon's payment and cancellation policy
   * (decision 0075): required when the salon has one, checked in the
   * confirming transaction, which stores the policy agreed to.
   */
  policyConsent?: PolicyConsent;
  /** 学割: the visitor ticked 「学生です」 on the confirm step (decision 0087). */
  studentDeclared?: boolean;
  now: Date;
};

/**
 * Turns the visitor's live hold into a confirmed booking with the customer
 * snapshot. Submitting again with the same idempotency key returns the
 * booking already made (confirmBookingOnce checks the key's other uses and
 * the verified address).
 * An expired, missing or foreign hold is HoldExpiredError (410).
 */
async function confirmHold(db: Database, request: ConfirmRequest): Promise<Booking> {
  if (!isUuid(request.holdId)) throw new HoldExpiredError();
  // The update re-checks the exclusion constraint: a hold being inserted for
  // the same time at that moment (a visitor's, or the waiting list's offer)
  // waits on this row while this waits on that one, and PostgreSQL ends one
  // of the two with a deadlock. Ours is then simply run again (it reads
  // everything afresh); the other writer has lost the race.
  for (let attempt = 1; ; attempt++) {
    try {
      return await confirmHoldOnce(db, request);
    } catch (error) {
      if (attempt < 3 && sqlState(error) === DEADLOCK_DETECTED) continue;
      throw error;
    }
  }
}

async function confirmHoldOnce(db: Database, request: ConfirmRequest): Promise<Booking> {
  const booking = await db.transaction(async (tx) => {
    const locked = await lockLiveHold(tx, request);
    if ("replay" in locked) return locked.replay;
    const { row, timeZone, paymentPolicy } = locked;
    // Money due at booking: only the provider's answer confirms (decision 0078).
    if (paymentPolicy && needsOnlinePayment(paymentPolicy)) throw new PaymentRequiredError();
    return confirmLockedHold(tx, row, {
      userId: request.userId,
      customer: request.customer,
      studentDeclared: request.studentDeclared ?? false,
      checkCoupon: true,
      notes: request.notes,
      idempotencyKey: request.idempotencyKey,
      paymentPolicy,
      timeZone,
      now: request.now,
    });
  });
  // The search summary leaves holds out, so the time counts as taken from now on.
  await refreshAfterBookingChange(db, booking, request.now);
  return booking;
}

/**
 * The visitor's live hold, locked (FOR UPDATE) after its stylist, checked
 * against the salon's limits and the policy consent: what confirming and
 * sending the visitor to pay both start from.
 */
async function lockLiveHold(
  tx: Database,
  request: ConfirmRequest,
): Promise<
  { replay: Booking } | { row: Booking; timeZone: string; paymentPolicy: PolicySnapshot | null }
> {
  const mine = and(eq(bookings.id, request.holdId), eq(bookings.userId, request.userId));
  // The hold's stylist first, FOR SHARE, before its row (the schedule change's
  // lock order, decision 0053): a change open now is waited for, and if it
  // left this hold outside working time it has released it, so the row is
  // gone below and the visitor picks again. Otherwise the update below would
  // wait on the change's delete of the hold and confirm it once the change
  // committed: a booking on the new day off (issue 38, §4.1).
  const [seen] = await tx
    .select({ salonId: bookings.salonId, staffId: bookings.staffId })
    .from(bookings)
    .where(mine);
  if (!seen) throw new HoldExpiredError();
  await lockStylistsForBooking(tx, seen.salonId, seen.staffId);
  const [row] = await tx.select().from(bookings).where(mine).for("update");
  if (!row || row.staffId !== seen.staffId) throw new HoldExpiredError();
  // This hold, confirmed with this key already: the same booking again.
  if (request.idempotencyKey && row.idempotencyKey === request.idempotencyKey) {
    return { replay: row };
  }
  if (row.status !== "held" || !row.holdExpiresAt || row.holdExpiresAt <= request.now) {
    throw new HoldExpiredError();
  }
  // The salon's limit of live bookings per customer (decision 0048).
  await limitLiveBookings(tx, {
    salonId: row.salonId,
    userId: request.userId,
    now: request.now,
    confirming: row.id,
  });
  const [salon] = await tx
    .select({ timeZone: salons.timeZone })
    .from(salons)
    .where(eq(salons.id, row.salonId));
  const timeZone = salon?.timeZone ?? "Asia/Tokyo";
  // Consent to the policy in force now, whose terms are stored with the booking (decision 0075).
  const paymentPolicy = await agreedPolicy(tx, row, timeZone, request.policyConsent, request.now);
  return { row, timeZone, paymentPolicy };
}

type ConfirmDetails = {
  userId: string;
  customer: CustomerSnapshot;
  studentDeclared: boolean;
  /**
   * Check the hold's coupon again with the person known (decision 0087);
   * false for a paid hold, checked before the visitor was sent to pay.
   */
  checkCoupon: boolean;
  notes: string;
  idempotencyKey: string | null;
  paymentPolicy: PolicySnapshot | null;
  timeZone: string;
  now: Date;
};

/** The hold's coupon against the person confirming and the visit's local time. */
function recheckCoupon(
  tx: Database,
  row: Booking,
  userId: string,
  studentDeclared: boolean,
  timeZone: string,
) {
  const local = toLocal(row.startsAt, timeZone);
  return recheckCouponAtConfirm(tx, row, userId, studentDeclared, {
    weekday: local.weekday,
    minutes: local.minutes,
  });
}

/** The locked hold becomes the booking, with its mails, jobs and history, in `tx`. */
async function confirmLockedHold(
  tx: Database,
  row: Booking,
  request: ConfirmDetails,
): Promise<Booking> {
  const { timeZone, paymentPolicy } = request;
  if (request.checkCoupon)
    await recheckCoupon(tx, row, request.userId, request.studentDeclared, timeZone);
  const customerId = await attachCustomer(tx, {
    salonId: row.salonId,
    userId: request.userId,
    name: request.customer.name,
    kana: request.customer.kana,
    phone: request.customer.phone,
    email: request.customer.email,
  });
  // Approval mode (decision 0051): a confirmed row that waits for the salon's answer.
  const { approval, approvalExpiresAt } = await approvalAtConfirm(
    tx,
    row.salonId,
    row.startsAt,
    request.now,
  );
  const [confirmed] = await tx
    .update(bookings)
    .set({
      status: "confirmed",
      holdExpiresAt: null,
      customerId,
      version: sql`${bookings.version} + 1`,
      customerName: request.customer.name,
      customerKana: request.customer.kana,
      customerPhone: request.customer.phone,
      customerEmail: request.customer.email,
      studentDeclared: request.studentDeclared,
      notes: request.notes,
      idempotencyKey: request.idempotencyKey,
      approval,
      approvalExpiresAt,
      paymentPolicy,
    })
    .where(eq(bookings.id, row.id))
    .returning();
  if (!confirmed) throw new HoldExpiredError();
  // A waiting-list offer's hold, or a time its visitor waited for: entry booked (decision 0055).
  await settleOfferOnConfirm(tx, {
    holdId: confirmed.id,
    salonId: confirmed.salonId,
    userId: request.userId,
    startsAt: confirmed.startsAt,
    now: request.now,
  });
  // The mails and the reminder are jobs of this transaction: they exist
  // exactly when the booking does, and no mail is sent inside the request.
  await enqueueConfirmationJobs(tx, confirmed, timeZone, request.now);
  // Unanswered by then, the request lapses (decision 0071).
  if (approvalExpiresAt) await enqueueApprovalLapse(tx, confirmed, approvalExpiresAt);
  await recordBookingEvent(tx, {
    salonId: confirmed.salonId,
    bookingId: confirmed.id,
    kind: "created",
    actor: customerActor(request.userId),
    details: { source: confirmed.source, ...(approval ? { approval } : {}) },
    at: request.now,
  });
  // The salon's open ledger shows the hold turned booking (the free times did not change).
  await notifySlotChange(tx, confirmed.salonId, [toLocal(confirmed.startsAt, timeZone).date]);
  return confirmed;
}

/**
 * Before the visitor is sent to pay (decision 0078): the same checks as
 * confirming (live hold, limits, consent), then what the visitor typed and
 * the terms agreed are kept on the held row, and the hold lasts until the
 * payment page closes (`holdUntil`, never shortened). Returns the row and
 * its terms; the caller saves the payment's key in the same transaction.
 */
export async function prepareHoldForPayment(
  tx: Database,
  request: ConfirmRequest & { holdUntil: Date },
): Promise<{ row: Booking; terms: PolicySnapshot }> {
  const locked = await lockLiveHold(tx, { ...request, idempotencyKey: null });
  if ("replay" in locked) throw new HoldExpiredError();
  const { row, paymentPolicy, timeZone } = locked;
  if (!paymentPolicy || !needsOnlinePayment(paymentPolicy)) throw new PaymentNotDueError();
  // The coupon is decided before the visitor pays, not after.
  await recheckCoupon(tx, row, request.userId, request.studentDeclared ?? false, timeZone);
  const holdExpiresAt =
    row.holdExpiresAt && row.holdExpiresAt > request.holdUntil
      ? row.holdExpiresAt
      : request.holdUntil;
  const [kept] = await tx
    .update(bookings)
    .set({
      holdExpiresAt,
      customerName: request.customer.name,
      customerKana: request.customer.kana,
      customerPhone: request.customer.phone,
      customerEmail: request.customer.email,
      studentDeclared: request.studentDeclared ?? false,
      notes: request.notes,
      paymentPolicy,
    })
    .where(eq(bookings.id, row.id))
    .returning();
  if (!kept) throw new HoldExpiredError();
  return { row: kept, terms: paymentPolicy };
}

/**
 * The provider said the booking's payment succeeded (decision 0078): the
 * hold it paid for becomes the booking through the same path as any other
 * confirmation, from what was kept on the row when the visitor was sent to
 * pay. A hold past its time whose row is still there still holds the time
 * (the exclusion constraint: nobody could take it without deleting the
 * row), so it is confirmed too. "gone": the row was cleared or is no
 * longer a hold: the caller refunds. "done": confirmed already.
 */
export async function confirmPaidHold(
  tx: Database,
  bookingId: string | null,
  now: Date,
): Promise<Booking | "gone" | "done"> {
  if (!bookingId) return "gone";
  const [seen] = await tx
    .select({ salonId: bookings.salonId, staffId: bookings.staffId })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  if (!seen) return "gone";
  await lockStylistsForBooking(tx, seen.salonId, seen.staffId);
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for("update");
  if (!row) return "gone";
  if (row.status !== "held") return row.status === "confirmed" ? "done" : "gone";
  if (!row.userId || !row.paymentPolicy) return "gone";
  const [salon] = await tx
    .select({ timeZone: salons.timeZone })
    .from(salons)
    .where(eq(salons.id, row.salonId));
  return confirmLockedHold(tx, row, {
    userId: row.userId,
    customer: {
      name: row.customerName,
      kana: row.customerKana,
      phone: row.customerPhone,
      email: row.customerEmail,
    },
    studentDeclared: row.studentDeclared,
    checkCoupon: false,
    notes: row.notes,
    idempotencyKey: null,
    paymentPolicy: row.paymentPolicy,
    timeZone: salon?.timeZone ?? "Asia/Tokyo",
    now,
  });
}

/** Confirms a hold (see confirmBookingOnce), counted against the booking limits. */
export async function confirmBooking(db: Database, request: ConfirmRequest): Promise<Booking> {
  return (await confirmBookingOnce(db, request)).booking;
}

/** The visitor's booking made with this Idempotency-Key, if any. */
export async function findBookingByIdempotencyKey(
  db: Pick<Database, "select">,
  { userId, idempotencyKey }: { userId: string; idempotencyKey: string },
): Promise<string | null> {
  const [row] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.userId, userId),
        eq(bookings.idempotencyKey, idempotencyKey),
        ne(bookings.status, "held"),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/**
 * Booking needs an address the customer confirmed (decision 0027), read
 * from the account, not the session, so a path that forgets to ask cannot
 * book for an unverified one. Holding does not need it.
 */
export async function requireVerifiedAddress(db: Pick<Database, "select">, userId: string) {
  const [user] = await db
    .select({ emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId));
  // A missing account has no hold to confirm either: HoldExpiredError says so.
  if (user && !user.emailVerified) throw new EmailNotVerifiedError();
}

/**
 * Counts the attempt against the booking limits, then confirms the hold,
 * once per idempotency key: two submissions with the same key (a double
 * click, a retry after a timeout) wait for each other on an advisory lock
 * of the user's key, so the second finds the first's booking and is told
 * it is a replay, instead of both answering "created". A key belongs to its
 * user: another customer's identical key is no concern of this one, and the
 * user's key that already confirmed another hold (at any salon) is
 * IdempotencyKeyReusedError (422), not that other booking passed off as
 * this one. The limit is counted before any transaction opens (PGlite's
 * one session would wait on itself).
 */
export async function confirmBookingOnce(
  db: Database,
  request: ConfirmRequest,
): Promise<{ booking: Booking; replayed: boolean }> {
  const { userId } = request;
  await limitBookingAttempt(request.limits, "booking", { ip: request.ip, userId });
  await requireVerifiedAddress(db, userId);
  const made = await confirmOnceByKey(db, request);
  if (!made.replayed) countBookingMade("web");
  return made;
}

async function confirmOnceByKey(
  db: Database,
  request: ConfirmRequest,
): Promise<{ booking: Booking; replayed: boolean }> {
  const { idempotencyKey, userId } = request;
  if (!idempotencyKey) return { booking: await confirmHold(db, request), replayed: false };
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`booking:${userId}:${idempotencyKey}`}, 0))`,
    );
    const earlier = await findBookingByIdempotencyKey(tx, { userId, idempotencyKey });
    if (earlier && earlier !== request.holdId.toLowerCase()) throw new IdempotencyKeyReusedError();
    if (earlier) {
      const [booking] = await tx.select().from(bookings).where(eq(bookings.id, earlier));
      if (booking) return { booking, replayed: true };
    }
    return { booking: await confirmHold(tx, request), replayed: false };
  });
}

export type CancelRequest = {
  bookingId: string;
  userId: string;
  reason: string;
  now: Date;
  /** A late cancellation's fee or the refund of what was paid, sent after the commit (decision 0080). */
  money?: BookingMoney;
};

/**
 * The visitor cancels their own confirmed booking, until the salon's
 * cutoff before the start. The status leaves the occupying list, so the
 * time is free again at once.
 */
export async function cancelBooking(db: Database, request: CancelRequest): Promise<Booking> {
  if (!isUuid(request.bookingId)) throw new BookingNotFoundError();
  const booking = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(bookings)
      .where(and(eq(bookings.id, request.bookingId), eq(bookings.userId, request.userId)))
      .for("update");
    if (!row || row.status === "held") throw new BookingNotFoundError();
    if (row.status !== "confirmed") throw new BookingNotCancellableError();
    const { cancellationCutoffHours } = await bookingSettingsFor(tx, row.salonId);
    if (request.now.getTime() > row.startsAt.getTime() - cancellationCutoffHours * 3_600_000) {
      throw new CancellationClosedError(cancellationCutoffHours);
    }
    const [cancelled] = await tx
      .update(bookings)
      .set({
        status: "cancelled_by_user",
        cancelledAt: request.now,
        cancelledBy: "user",
        cancelReason: request.reason,
        version: sql`${bookings.version} + 1`,
      })
      .where(eq(bookings.id, row.id))
      .returning();
    if (!cancelled) throw new BookingNotFoundError();
    await recordBookingEvent(tx, {
      salonId: cancelled.salonId,
      bookingId: cancelled.id,
      kind: "cancelled",
      actor: customerActor(request.userId),
      details: { reason: request.reason },
      at: request.now,
    });
    await enqueueCancellationJobs(tx, cancelled, request.now);
    // A cancellation inside a fee window owes its fee; what was paid beyond it comes back (decision 0080).
    await planBookingMoney(tx, cancelled, "customer_cancel", null, request.now);
    // The time is free again at once, also on pages open on other app servers.
    const [salon] = await tx
      .select({ timeZone: salons.timeZone })
      .from(salons)
      .where(eq(salons.id, row.salonId));
    if (salon) {
      await notifySlotChange(tx, row.salonId, [toLocal(row.startsAt, salon.timeZone).date]);
    }
    return cancelled;
  });
  // Free again at once in the search too.
  await refreshAfterBookingChange(db, booking, request.now);
  if (request.money) {
    await sendBookingMoney(db, request.money.provider, booking.id, {
      ...request.money,
      now: request.now,
    });
  }
  return booking;
}

/** A booking as the visitor's history shows it. */
export type BookingSummary = {
  id: string;
  bookingNumber: string;
  status: Booking["status"];
  /** Approval mode: "pending" while the salon has not answered (decision 0051); else its answer or null. */
  approval: Booking["approval"];
  /** The status in the visitor's words (仮予約（サロンの承認待ち） while pending). */
  statusLabel: string;
  startsAt: Date;
  endsAt: Date;
  /** With the 指名料 and after the coupon (decision 0047). */
  totalPrice: number;
  /** 指名料 included in totalPrice: 0 for 指名なし or a stylist without one. */
  nominationFee: number;
  staffRequested: boolean;
  salon: { id: string; slug: string; name: string; timeZone: string };
  staff: { slug: string; name: string };
  menus: { menuId: string; name: string; price: number; durationMinutes: number }[];
  customer: CustomerSnapshot;
  notes: string;
  /** The policy agreed to at booking (decision 0075); null when none was in force. */
  paymentPolicy: PolicySnapshot | null;
  /** What was paid, refunded, or kept on a card, oldest first (decision 0083). */
  payments: PaymentRecord[];
  cancelledAt: Date | null;
  /** Raised by every change; a change names the version it saw (reschedule.server.ts). */
  version: number;
};

const summaryColumns = {
  id: bookings.id,
  bookingNumber: bookings.bookingNumber,
  status: bookings.status,
  approval: bookings.approval,
  startsAt: bookings.startsAt,
  endsAt: bookings.endsAt,
  totalPrice: bookings.totalPrice,
  nominationFee: bookings.nominationFee,
  staffRequested: bookings.staffRequested,
  notes: bookings.notes,
  paymentPolicy: bookings.paymentPolicy,
  cancelledAt: bookings.cancelledAt,
  version: bookings.version,
  customerName: bookings.customerName,
  customerKana: bookings.customerKana,
  customerPhone: bookings.customerPhone,
  customerEmail: bookings.customerEmail,
  salonId: salons.id,
  salonSlug: salons.slug,
  salonName: salons.name,
  timeZone: salons.timeZone,
  staffSlug: staff.slug,
  staffName: staff.name,
  // In the same statement (one round trip less per summary read: the answer
  // of POST /api/bookings, bench/README.md). Looked up on booking_menus' key
  // (salon_id, booking_id, position): booking ids alone would read the whole
  // table (a parallel sequential scan: 125 ms at 690,000 rows, growing with
  // every booking ever made).
  menus: sql<BookingSummary["menus"]>`(
    select coalesce(json_agg(json_build_object('menuId', m.menu_id, 'name', m.name,
      'price', m.price, 'durationMinutes', m.duration_minutes) order by m.position), '[]'::json)
    from booking_menus m where m.salon_id = ${bookings.salonId} and m.booking_id = ${bookings.id})`,
  // Its payments too, by the payments' booking index.
  payments: paymentRecordsJson(bookings.id),
};

async function summaries(
  db: Database,
  where: ReturnType<typeof and>,
  order: ReturnType<typeof asc>[],
): Promise<BookingSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(bookings)
    .innerJoin(salons, eq(salons.id, bookings.salonId))
    .innerJoin(staff, and(eq(staff.id, bookings.staffId), eq(staff.salonId, bookings.salonId)))
    .where(where)
    .orderBy(...order);
  return rows.map((row) => ({
    id: row.id,
    bookingNumber: row.bookingNumber,
    status: row.status,
    approval: row.approval,
    statusLabel: visitorStatusLabel(row.status, row.approval),
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    totalPrice: row.totalPrice,
    nominationFee: row.nominationFee,
    staffRequested: row.staffRequested,
    salon: { id: row.salonId, slug: row.salonSlug, name: row.salonName, timeZone: row.timeZone },
    staff: { slug: row.staffSlug, name: row.staffName },
    menus: row.menus,
    customer: {
      name: row.customerName,
      kana: row.customerKana,
      phone: row.customerPhone,
      email: row.customerEmail,
    },
    notes: row.notes,
    paymentPolicy: row.paymentPolicy,
    payments: paymentRecordsFromJson(row.payments),
    cancelledAt: row.cancelledAt,
    version: row.version,
  }));
}

/**
 * The visitor's bookings (holds left out): upcoming ones (confirmed, not yet
 * started) soonest first, and the rest (past, cancelled) newest first.
 */
export async function listBookingsForUser(
  db: Database,
  { userId, now }: { userId: string; now: Date },
): Promise<{ upcoming: BookingSummary[]; past: BookingSummary[] }> {
  const all = await summaries(
    db,
    and(eq(bookings.userId, userId), sql`${bookings.status} <> 'held'`),
    [desc(bookings.startsAt)],
  );
  const isUpcoming = (b: BookingSummary) =>
    b.status === "confirmed" && b.startsAt.getTime() > now.getTime();
  return {
    upcoming: all.filter(isUpcoming).reverse(),
    past: all.filter((b) => !isUpcoming(b)),
  };
}

/** One of the visitor's bookings (or their live hold); BookingNotFoundError for anyone else's. */
export async function getBookingForUser(
  db: Database,
  { bookingId, userId }: { bookingId: string; userId: string },
): Promise<BookingSummary> {
  if (!isUuid(bookingId)) throw new BookingNotFoundError();
  const [found] = await summaries(
    db,
    and(eq(bookings.id, bookingId), eq(bookings.userId, userId)),
    [asc(bookings.startsAt)],
  );
  if (!found) throw new BookingNotFoundError();
  return found;
}
