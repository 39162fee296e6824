import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { CouponTarget } from "../../common/coupon-eligibility";
import { formatDate } from "../../common/format";
import { localToInstant, toLocal } from "../../common/local-time";
import type { PolicySnapshot } from "../../common/payment-policy";
import { isUuid } from "../../common/uuid";
import { workingIntervals } from "../bookings/availability";
import { loadSalonDay } from "../bookings/availability-data.server";
import {
  type BookingMoney,
  planBookingMoney,
  sendBookingMoney,
  takeBackNoShowMoney,
} from "../bookings/booking-fees.server";
import {
  type BookingActor,
  type BookingEventView,
  listBookingEvents,
  recordBookingEvent,
  systemActor,
} from "../bookings/booking-history.server";
import { enqueueApprovalJobs, enqueueCancellationJobs } from "../bookings/booking-jobs.server";
import { priceOfMove, refreshMovedDays, runMove, writeMove } from "../bookings/booking-move.server";
import { refreshAfterBookingChange } from "../bookings/free-days.server";
import { occupiedSpan } from "../bookings/occupied-time";
import { bookingSettingsFor } from "../bookings/settings";
import { lockStylistsForBooking } from "../bookings/stylist-lock.server";
import type { Database } from "../db/client";
import {
  type BookingApproval,
  type BookingSource,
  type BookingStatus,
  bookingEvents,
  bookingMenus,
  bookings,
  checkouts,
  coupons,
  jobs,
  menuStaff,
  menus,
  type SalonCancelCategory,
  salons,
  staff,
} from "../db/schema";
import { EXCLUSION_VIOLATION, sqlState } from "../db/sql-state";
import { DomainError, NotFoundError } from "../errors/domain-error";
import { describeError } from "../logger";
import type { PaymentRecord } from "../payments/payment-lines";
import { paymentRecordsOfBooking } from "../payments/payment-records.server";
import { notifySlotChange } from "../realtime/slot-events.server";
import { enqueueReviewRequest, reviewRequestKey } from "../reviews/review-request-jobs.server";
import {
  type BookingActionInput,
  type CancelInput,
  cancelCategoryLabels,
  type MoveInput,
  type UndoableAction,
} from "./booking-actions.schema";
import { overlapError } from "./overlaps.server";

/**
 * The salon's actions on one booking (issue 28, point 4; decision 0040).
 * Each runs in ONE transaction that locks the booking row, checks it is
 * this salon's and that its version is the one the user saw (else 409: an
 * action is never applied to a state the user did not see), changes it,
 * bumps the version, records the history entry, enqueues the customer's
 * mail where there is one, and tells the open ledgers (notifySlotChange).
 * The exclusion constraint alone decides whether a move fits.
 */

type Booking = typeof bookings.$inferSelect;

const MINUTE = 60_000;

/**
 * How long before the start 来店 may be recorded (issue 38, §1.1). A
 * customer who comes early is seated and marked; a mark hours or a day
 * ahead is a slip on the wrong row (it showed 来店済み and 口コミを書く to
 * the visitor, and booked the sale). An hour covers the early ones.
 */
export const ARRIVAL_EARLIEST_MINUTES = 60;

export class BookingVersionConflictError extends DomainError {
  constructor(message = "この予約は他の操作で変更されました。最新の内容を確認してください。") {
    super("booking_changed", message, 409);
  }
}

export class BookingActionRefusedError extends DomainError {
  constructor(message: string, code = "booking_action_refused") {
    super(code, message, 422);
  }
}

/** The move would leave the stylist's schedule: allowed once the user confirms (decision 0040). */
export class OutsideScheduleError extends DomainError {
  constructor(staffName: string) {
    super(
      "outside_schedule",
      `この時間は ${staffName} の勤務時間外です。それでも移動する場合は「このまま移動する」にチェックしてから送信してください。`,
      422,
      { outsideSchedule: true },
    );
  }
}

/** What stands in the way of a move, named. */
export class BookingNotFoundForSalonError extends NotFoundError {
  constructor() {
    super("予約が見つかりません。");
  }
}

export type ActionTarget = { salonId: string; bookingId: string };

type Tx = Database;

/** The booking row locked for this transaction, if it is this salon's (holds are nobody's yet). */
export async function lockBooking(tx: Tx, target: ActionTarget): Promise<Booking> {
  if (!isUuid(target.salonId) || !isUuid(target.bookingId))
    throw new BookingNotFoundForSalonError();
  const [row] = await tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, target.bookingId), eq(bookings.salonId, target.salonId)))
    .for("update");
  if (!row || row.status === "held") throw new BookingNotFoundForSalonError();
  return row;
}

export function checkVersion(row: Booking, version: number) {
  if (row.version !== version) throw new BookingVersionConflictError();
}

async function salonZone(tx: Pick<Database, "select">, salonId: string) {
  const [salon] = await tx
    .select({ timeZone: salons.timeZone })
    .from(salons)
    .where(eq(salons.id, salonId));
  return salon?.timeZone ?? "Asia/Tokyo";
}

const statusRefusal: Partial<Record<BookingStatus, string>> = {
  completed: "この予約はすでに施術完了になっています。",
  no_show: "この予約はすでに無断キャンセルとして記録されています。",
  cancelled_by_user: "この予約はお客様がキャンセル済みです。",
  cancelled_by_salon: "この予約はサロンがキャンセル済みです。",
};

function requireConfirmedBooking(row: Booking) {
  if (row.kind === "block") {
    throw new BookingActionRefusedError(
      "ブロック（休憩・打ち合わせなど）にはこの操作はできません。",
    );
  }
  if (row.status !== "confirmed") {
    throw new BookingActionRefusedError(
      statusRefusal[row.status] ?? "この予約にはこの操作はできません。",
      "booking_not_confirmed",
    );
  }
}

/**
 * The common tail of a status action: update with the version bumped,
 * record the event, tell the ledger. Returns the updated row.
 */
async function applyChange(
  tx: Tx,
  row: Booking,
  set: Partial<typeof bookings.$inferInsert>,
  event: {
    kind: "arrived" | "completed" | "no_show" | "cancelled" | "confirmed" | "undone";
    details?: Record<string, unknown>;
  },
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  const [updated] = await tx
    .update(bookings)
    .set({ ...set, version: sql`${bookings.version} + 1`, updatedAt: now })
    .where(eq(bookings.id, row.id))
    .returning();
  if (!updated) throw new BookingNotFoundForSalonError();
  await recordBookingEvent(tx, {
    salonId: row.salonId,
    bookingId: row.id,
    kind: event.kind,
    actor,
    details: event.details,
    at: now,
  });
  const timeZone = await salonZone(tx, row.salonId);
  await notifySlotChange(tx, row.salonId, [toLocal(row.startsAt, timeZone).date]);
  return updated;
}

type VersionedTarget = ActionTarget & { version: number };

/** 来店: the customer is here. Only for a confirmed booking, once. */
export async function markArrived(
  db: Database,
  input: VersionedTarget,
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  return db.transaction(async (tx) => {
    const row = await lockBooking(tx, input);
    checkVersion(row, input.version);
    requireConfirmedBooking(row);
    if (row.arrivedAt) throw new BookingActionRefusedError("この予約はすでに来店済みです。");
    const earliest = row.startsAt.getTime() - ARRIVAL_EARLIEST_MINUTES * MINUTE;
    if (now.getTime() < earliest) {
      const timeZone = await salonZone(tx, row.salonId);
      const from = toLocal(new Date(earliest), timeZone);
      throw new BookingActionRefusedError(
        `来店は予約の開始${ARRIVAL_EARLIEST_MINUTES}分前（${formatDate(from.date)} ${from.time}）から記録できます。予約の日時を確かめてください。`,
        "arrival_too_early",
      );
    }
    return applyChange(tx, row, { arrivedAt: now }, { kind: "arrived" }, actor, now);
  });
}

/** 施術完了: confirmed → completed (it keeps occupying the time it took). */
export async function markCompleted(
  db: Database,
  input: VersionedTarget,
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  return db.transaction(async (tx) => {
    const row = await lockBooking(tx, input);
    checkVersion(row, input.version);
    return completeLocked(tx, row, actor, now);
  });
}

/**
 * 施術完了 of a booking row already locked in `tx` and version-checked: the
 * one completion path, for the button and for 会計 (decision 0079), which
 * completes the visit in its own transaction.
 */
export async function completeLocked(
  tx: Tx,
  row: Booking,
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  requireConfirmedBooking(row);
  if (!row.arrivedAt && now.getTime() < row.startsAt.getTime()) {
    throw new BookingActionRefusedError(
      "施術完了は、来店を記録してから、または予約の開始時刻を過ぎてから記録できます。",
      "completion_too_early",
    );
  }
  const completed = await applyChange(
    tx,
    row,
    { status: "completed" },
    { kind: "completed" },
    actor,
    now,
  );
  // The customer is asked for a review the next morning (decision 0054).
  if (completed.userId) {
    await enqueueReviewRequest(tx, completed, await salonZone(tx, row.salonId), now);
  }
  return completed;
}

/** 無断キャンセル (no-show): confirmed → no_show, only once the start has passed. */
export async function markNoShow(
  db: Database,
  input: VersionedTarget,
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  const booking = await db.transaction(async (tx) => {
    const row = await lockBooking(tx, input);
    checkVersion(row, input.version);
    requireConfirmedBooking(row);
    if (now.getTime() < row.startsAt.getTime()) {
      throw new BookingActionRefusedError(
        "無断キャンセルは、予約の開始時刻を過ぎてから記録できます。",
        "no_show_too_early",
      );
    }
    if (row.arrivedAt || row.source === "walk_in") {
      throw new BookingActionRefusedError(
        "来店済みの予約は無断キャンセルにできません。施術完了を記録してください。",
      );
    }
    const marked = await applyChange(
      tx,
      row,
      { status: "no_show" },
      { kind: "no_show" },
      actor,
      now,
    );
    // The no-show's fee, its key saved with the mark, charged after the commit (decision 0080).
    await planBookingMoney(tx, marked, "no_show", staffUserOf(actor), now);
    return marked;
  });
  // The time the no-show held is free again (for the rest of the day, in the search too).
  await refreshAfterBookingChange(db, booking, now);
  return booking;
}

/**
 * The salon's キャンセル: confirmed → cancelled with the reason and the
 * message to the customer (kept in cancel_reason); the customer's mail
 * (with an .ics that cancels the event) goes through the job queue. Only
 * サロン都合 is the salon's cancellation; a customer who phoned ahead or
 * that day, or never came, cancelled themselves (decision 0065).
 */
export async function cancelBySalon(
  db: Database,
  input: VersionedTarget & Pick<CancelInput, "category" | "message">,
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  return cancelAsSalon(db, input, input.category, actor, now, { check: requireConfirmedBooking });
}

/**
 * What a cancellation by the salon is, for 「サロン都合でキャンセル」 and 承認しない
 * alike: one transaction under the version check, the booking cancelled by
 * the salon with its category and message (and, for a refusal, approval
 * 'refused'), the customer's mail, and the time freed, in the search too.
 */
async function cancelAsSalon(
  db: Database,
  input: VersionedTarget & { message: string },
  category: SalonCancelCategory,
  actor: BookingActor,
  now: Date,
  how: {
    check: (row: Booking) => void;
    approval?: "refused";
    /** The system entered it (a request that lapsed, decision 0071), not the salon's staff. */
    by?: "system";
    details?: Record<string, unknown>;
  },
): Promise<Booking> {
  const approval = how.approval ? { approval: how.approval } : {};
  const status = cancelStatusOf(category);
  const booking = await db.transaction(async (tx) => {
    const row = await lockBooking(tx, input);
    checkVersion(row, input.version);
    how.check(row);
    const cancelled = await applyChange(
      tx,
      row,
      {
        status,
        cancelledAt: now,
        // Who entered it; the status says whose cancellation it is.
        cancelledBy: how.by ?? "salon",
        cancelCategory: category,
        cancelReason: input.message,
        ...approval,
      },
      {
        kind: "cancelled",
        details: {
          ...approval,
          category,
          categoryLabel: cancelCategoryLabels[category],
          message: input.message,
          ...how.details,
        },
      },
      actor,
      now,
    );
    await enqueueCancellationJobs(tx, cancelled, now);
    // The salon's cancellation refunds what was paid; the customer's (phoned in) owes its window's fee.
    await planBookingMoney(
      tx,
      cancelled,
      status === "cancelled_by_salon" ? "salon_cancel" : "customer_cancel",
      staffUserOf(actor),
      now,
    );
    return cancelled;
  });
  await refreshAfterBookingChange(db, booking, now);
  return booking;
}

/** The salon's person behind an action (payments.created_by), null for the system. */
const staffUserOf = (actor: BookingActor) => (actor.kind === "system" ? null : actor.userId);

/** Whose cancellation a reason makes it: the salon's for サロン都合 only (decision 0065). */
export function cancelStatusOf(category: SalonCancelCategory): BookingStatus {
  return category === "salon" ? "cancelled_by_salon" : "cancelled_by_user";
}

/** Approval mode (decision 0051): only a confirmed booking still waiting for the salon's answer. */
function requirePendingApproval(row: Booking) {
  requireConfirmedBooking(row);
  if (row.approval === "approved") {
    throw new BookingActionRefusedError("この予約はすでに承認済みです。", "booking_not_pending");
  }
  if (row.approval !== "pending") {
    throw new BookingActionRefusedError(
      "この予約は承認待ち（仮予約）ではありません。",
      "booking_not_pending",
    );
  }
}

/**
 * 承認する: the pending booking becomes final (approval 'approved'; the
 * status stays confirmed and the time stays taken). The history records a
 * 'confirmed' entry, and the customer's mail carries an .ics that turns the
 * tentative event confirmed (REQUEST, same UID, the next SEQUENCE).
 */
export async function approveBooking(
  db: Database,
  input: VersionedTarget,
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  return db.transaction(async (tx) => {
    const row = await lockBooking(tx, input);
    checkVersion(row, input.version);
    requirePendingApproval(row);
    const approved = await applyChange(
      tx,
      row,
      { approval: "approved" },
      { kind: "confirmed", details: { approval: "approved" } },
      actor,
      now,
    );
    await enqueueApprovalJobs(tx, approved, now);
    return approved;
  });
}

/**
 * 承認しない: the salon declines the pending booking. It is cancelled by the
 * salon (category サロン都合, approval 'refused', the message kept in
 * cancel_reason), which frees the time at once; the customer's mail says
 * the booking could not be accepted and cancels the tentative event.
 */
export async function refuseBooking(
  db: Database,
  input: VersionedTarget & { message: string },
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  return cancelAsSalon(db, input, "salon", actor, now, {
    check: requirePendingApproval,
    approval: "refused",
  });
}

/**
 * A request the salon left unanswered past its deadline lapses (issue 38,
 * §1.2; decision 0071): declined as 承認しない is, through the same path —
 * cancelled by the salon, approval 'refused', the time freed (the waiting
 * list is offered it by the slot notice), the customer's mail — but entered
 * by the system (cancelled_by 'system', a system history entry marked
 * `lapsed`) and with no message, since the salon said nothing. Null when
 * there is nothing to do: the salon answered first, the customer
 * cancelled, or the deadline is not reached (the booking was moved).
 */
export async function lapseUnansweredRequest(
  db: Database,
  bookingId: string,
  now: Date,
): Promise<Booking | null> {
  if (!isUuid(bookingId)) return null;
  const [row] = await db
    .select({
      salonId: bookings.salonId,
      version: bookings.version,
      status: bookings.status,
      approval: bookings.approval,
      approvalExpiresAt: bookings.approvalExpiresAt,
    })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  if (row?.status !== "confirmed" || row.approval !== "pending") return null;
  if (!row.approvalExpiresAt || row.approvalExpiresAt.getTime() > now.getTime()) return null;
  // The version read here is checked under the row lock: an answer that
  // lands in between makes this a conflict, and the job's retry finds it answered.
  return cancelAsSalon(
    db,
    { salonId: row.salonId, bookingId, version: row.version, message: "" },
    "salon",
    systemActor,
    now,
    {
      check: requirePendingApproval,
      approval: "refused",
      by: "system",
      details: { lapsed: true, deadline: row.approvalExpiresAt.toISOString() },
    },
  );
}

/** 削除: releases a block (休憩, 打ち合わせ…); the row stays cancelled so its history stays. */
export async function releaseBlock(
  db: Database,
  input: VersionedTarget,
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  const booking = await db.transaction(async (tx) => {
    const row = await lockBooking(tx, input);
    checkVersion(row, input.version);
    if (row.kind !== "block") {
      throw new BookingActionRefusedError(
        "予約は削除できません。キャンセルする場合は「キャンセルを記録」を使ってください。",
      );
    }
    if (row.status !== "confirmed") {
      throw new BookingActionRefusedError("このブロックはすでに削除されています。");
    }
    return applyChange(
      tx,
      row,
      { status: "cancelled_by_salon", cancelledAt: now, cancelledBy: "salon" },
      { kind: "cancelled", details: { block: true, label: row.salonNote } },
      actor,
      now,
    );
  });
  await refreshAfterBookingChange(db, booking, now);
  return booking;
}

/**
 * The salon's own note (never shown to the customer). It changes nothing
 * another action depends on, so it is not refused for a stale version and
 * does not bump it; the row lock still orders two notes saved at once.
 */
export async function saveSalonNote(
  db: Database,
  input: ActionTarget & { note: string },
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  return db.transaction(async (tx) => {
    const row = await lockBooking(tx, input);
    if (row.salonNote === input.note) return row;
    const [updated] = await tx
      .update(bookings)
      .set({ salonNote: input.note, updatedAt: now })
      .where(eq(bookings.id, row.id))
      .returning();
    if (!updated) throw new BookingNotFoundForSalonError();
    await recordBookingEvent(tx, {
      salonId: row.salonId,
      bookingId: row.id,
      kind: "note_changed",
      actor,
      details: { length: input.note.length },
      at: now,
    });
    const timeZone = await salonZone(tx, row.salonId);
    await notifySlotChange(tx, row.salonId, [toLocal(row.startsAt, timeZone).date]);
    return updated;
  });
}

type MenuRow = { id: string; name: string; price: number; durationMinutes: number };

/** The chosen menus of the salon in the order chosen, and whether the stylist does them all. */
async function movedMenus(tx: Tx, salonId: string, staffId: string, menuIds: readonly string[]) {
  const rows = await tx
    .select({
      id: menus.id,
      name: menus.name,
      price: menus.price,
      durationMinutes: menus.durationMinutes,
    })
    .from(menus)
    .where(and(eq(menus.salonId, salonId), inArray(menus.id, [...menuIds])));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const chosen = menuIds.map((id) => byId.get(id));
  if (chosen.some((menu) => !menu)) {
    throw new BookingActionRefusedError(
      "選択したメニューはこのサロンにありません。メニューを選び直してください。",
      "menu_not_available",
    );
  }
  // The same rule as the availability engine: a menu with menu_staff rows is done by those only.
  const abilities = await tx
    .select({ menuId: menuStaff.menuId, staffId: menuStaff.staffId })
    .from(menuStaff)
    .where(inArray(menuStaff.menuId, [...menuIds]));
  const cannot = (chosen as MenuRow[]).filter((menu) => {
    const allowed = abilities.filter((a) => a.menuId === menu.id);
    return allowed.length > 0 && !allowed.some((a) => a.staffId === staffId);
  });
  return { chosen: chosen as MenuRow[], cannot };
}

/** Whether [start, end) lies inside one of the stylist's working intervals that local day. */
async function withinSchedule(
  tx: Tx,
  salonId: string,
  staffId: string,
  date: string,
  start: Date,
  end: Date,
  now: Date,
) {
  const day = await loadSalonDay(tx, { salonId, date, now });
  if (!day) return false;
  const intervals = workingIntervals(day, date).get(staffId) ?? [];
  return intervals.some(
    (interval) => interval.start <= start.getTime() && end.getTime() <= interval.end,
  );
}

export type MoveRequest = VersionedTarget &
  Pick<MoveInput, "date" | "time" | "staffId" | "menuIds" | "confirmOutsideSchedule"> & {
    /**
     * 指名を引き継ぐ: a 指名 booking moved to another stylist stays 指名 (with
     * that stylist's 指名料) only when the staff says so; by default the
     * customer never chose them, so it becomes 指名なし (issue 38, §1.3).
     */
    keepNomination?: boolean;
  };

/**
 * 予約の移動・メニュー変更: another start, stylist and/or menus, with the
 * duration and price of the chosen menus. The exclusion constraint decides
 * a conflict; the refusal names what is in the way (read after the failed
 * transaction). Outside the stylist's schedule only with the confirmation.
 * Priced, written and retried by the customer's 予約変更's own path
 * (bookings/booking-move.server.ts).
 */
export async function moveBooking(
  db: Database,
  input: MoveRequest,
  actor: BookingActor,
  now: Date,
): Promise<Booking> {
  let timeZone = "Asia/Tokyo";
  const { moved, previousStart } = await runMove(
    db,
    async (tx, tried) => {
      // The target stylist's row before the booking's (the schedule change's
      // lock order) and before the schedule read: a change open now is waited
      // for and its new working time read (decision 0046).
      await lockStylistsForBooking(tx, input.salonId, input.staffId);
      const row = await lockBooking(tx, input);
      checkVersion(row, input.version);
      requireConfirmedBooking(row);
      timeZone = await salonZone(tx, row.salonId);
      const [member] = await tx
        .select({ id: staff.id, name: staff.name, active: staff.active })
        .from(staff)
        .where(and(eq(staff.id, input.staffId), eq(staff.salonId, row.salonId)));
      if (!member?.active) {
        throw new BookingActionRefusedError(
          "選択したスタイリストはこのサロンにいません。選び直してください。",
          "staff_not_available",
        );
      }
      const { chosen, cannot } = await movedMenus(tx, row.salonId, member.id, input.menuIds);
      if (cannot.length > 0) {
        throw new BookingActionRefusedError(
          `${member.name} は「${cannot.map((m) => m.name).join("」「")}」を担当していません。別のスタイリストかメニューを選んでください。`,
          "staff_cannot_do_menu",
        );
      }
      const start = localToInstant(input.date, input.time, timeZone);
      // A local time that does not exist that day (a DST gap) comes back as another time.
      if (toLocal(start, timeZone).time !== input.time) {
        throw new BookingActionRefusedError(
          "この日にその時刻はありません。別の時刻を入力してください。",
        );
      }
      const duration = chosen.reduce((sum, menu) => sum + menu.durationMinutes, 0);
      const end = new Date(start.getTime() + duration * MINUTE);
      const rules = await bookingSettingsFor(tx, row.salonId);
      const { occupiedFrom, occupiedUntil } = occupiedSpan(start, end, rules);
      const before = await tx
        .select({
          menuId: bookingMenus.menuId,
          name: bookingMenus.name,
          price: bookingMenus.price,
          durationMinutes: bookingMenus.durationMinutes,
        })
        .from(bookingMenus)
        .where(and(eq(bookingMenus.salonId, row.salonId), eq(bookingMenus.bookingId, row.id)))
        .orderBy(asc(bookingMenus.position));
      const [previousStaff] = await tx
        .select({ name: staff.name })
        .from(staff)
        .where(eq(staff.id, row.staffId));
      const menusChanged =
        before.length !== chosen.length || before.some((m, i) => m.menuId !== chosen[i]?.id);
      const staffChanged = row.staffId !== member.id;
      if (!menusChanged && !staffChanged && row.startsAt.getTime() === start.getTime()) {
        throw new BookingActionRefusedError(
          "変更内容がありません。日時・スタイリスト・メニューのいずれかを変えてください。",
          "nothing_changed",
        );
      }
      const inSchedule = await withinSchedule(
        tx,
        row.salonId,
        member.id,
        input.date,
        start,
        end,
        now,
      );
      if (!inSchedule && !input.confirmOutsideSchedule) throw new OutsideScheduleError(member.name);
      const staffRequested = row.staffRequested && (!staffChanged || input.keepNomination === true);
      const menus = menusChanged
        ? chosen.map((menu) => ({
            menuId: menu.id,
            name: menu.name,
            price: menu.price,
            durationMinutes: menu.durationMinutes,
          }))
        : before;
      const price = await priceOfMove(tx, row, {
        bookedMenus: before,
        menus,
        date: input.date,
        staffId: member.id,
        staffRequested,
      });
      tried({ staffId: member.id, occupiedFrom, occupiedUntil, stylistPicked: false });
      const side = (
        startsAt: Date,
        endsAt: Date,
        staffId: string,
        staffName: string,
        requested: boolean,
        sideMenus: readonly { name: string }[],
        totalPrice: number,
        nominationFee: number,
      ) => ({
        startsAt: startsAt.toISOString(),
        endsAt: endsAt.toISOString(),
        staffId,
        staffName,
        staffRequested: requested,
        menus: sideMenus.map((m) => m.name),
        totalPrice,
        nominationFee,
      });
      const updated = await writeMove(
        tx,
        row,
        {
          startsAt: start,
          endsAt: end,
          occupiedFrom,
          occupiedUntil,
          staffId: member.id,
          staffRequested,
          menus,
          totalPrice: price.totalPrice,
          nominationFee: price.nominationFee,
          couponId: price.couponId,
        },
        {
          actor,
          by: "salon",
          previous: {
            startsAt: row.startsAt,
            endsAt: row.endsAt,
            staffName: previousStaff?.name ?? "",
            menus: before,
          },
          details: {
            from: side(
              row.startsAt,
              row.endsAt,
              row.staffId,
              previousStaff?.name ?? "",
              row.staffRequested,
              before,
              row.totalPrice,
              row.nominationFee,
            ),
            to: side(
              start,
              end,
              member.id,
              member.name,
              staffRequested,
              menus,
              price.totalPrice,
              price.nominationFee,
            ),
            ...(inSchedule ? {} : { outsideSchedule: true }),
            ...(price.couponDropped ? { couponRemoved: true } : {}),
            ...(row.staffRequested && !staffRequested ? { nominationCleared: true } : {}),
          },
          timeZone,
          now,
        },
      );
      return { moved: updated, previousStart: row.startsAt };
    },
    async (attempt) =>
      attempt
        ? overlapError(
            db,
            {
              salonId: input.salonId,
              staffId: attempt.staffId,
              start: attempt.occupiedFrom,
              until: attempt.occupiedUntil,
              now,
              exceptBookingId: input.bookingId,
            },
            timeZone,
          )
        : new BookingVersionConflictError(),
  );
  await refreshMovedDays(db, moved, previousStart, now);
  return moved;
}

type HistoryEntry = { kind: string; at: Date };

/**
 * The status action the salon may take back now, if any (issue 38, §1.1):
 * the last one recorded (施術完了 before 来店), only on the salon's day it
 * was recorded. A walk-in's arrival is not offered: it was entered as
 * arrived, and a walk-in that never happened is cancelled, not "not yet
 * arrived" (which would offer 無断キャンセル for someone who came).
 */
export function undoableStatus(
  booking: Pick<Booking, "kind" | "status" | "arrivedAt" | "source">,
  history: readonly HistoryEntry[],
  now: Date,
  timeZone: string,
): UndoableAction | null {
  if (booking.kind !== "booking") return null;
  const last = (kind: string) =>
    history
      .filter((event) => event.kind === kind)
      .reduce<Date | null>(
        (latest, event) => (latest && latest > event.at ? latest : event.at),
        null,
      );
  const candidate: { action: UndoableAction; at: Date | null } | null =
    booking.status === "completed"
      ? { action: "completed", at: last("completed") }
      : booking.status === "no_show"
        ? { action: "no_show", at: last("no_show") }
        : booking.status === "confirmed" && booking.arrivedAt && booking.source !== "walk_in"
          ? { action: "arrived", at: booking.arrivedAt }
          : null;
  if (!candidate?.at) return null;
  const today = toLocal(now, timeZone).date;
  return toLocal(candidate.at, timeZone).date === today ? candidate.action : null;
}

const undoLabels: Record<UndoableAction, string> = {
  arrived: "来店",
  completed: "施術完了",
  no_show: "無断キャンセル",
};

/**
 * 取り消す: the salon takes back its 来店, 施術完了 or 無断キャンセル the day it
 * recorded it, with an 'undone' history entry. 施術完了 goes back to
 * confirmed (still 来店済み if it was), and its review request is dropped
 * (the job also checks at send time); 無断キャンセル takes the time back,
 * unless someone booked it since (409).
 */
export async function undoStatus(
  db: Database,
  input: VersionedTarget & { undo: UndoableAction },
  actor: BookingActor,
  now: Date,
  /** The money taking back a no-show moves (its fee refunded; decision 0084), sent after the commit. */
  money?: BookingMoney,
): Promise<Booking> {
  let linkToExpire: string | null = null;
  try {
    const booking = await db.transaction(async (tx) => {
      const row = await lockBooking(tx, input);
      checkVersion(row, input.version);
      const timeZone = await salonZone(tx, row.salonId);
      const history = await tx
        .select({ kind: bookingEvents.kind, at: bookingEvents.createdAt })
        .from(bookingEvents)
        .where(and(eq(bookingEvents.salonId, row.salonId), eq(bookingEvents.bookingId, row.id)));
      const undoable = undoableStatus(row, history, now, timeZone);
      if (undoable !== input.undo) {
        throw new BookingActionRefusedError(
          `この予約の${undoLabels[input.undo]}は取り消せません。取り消せるのは、記録したその日のうち（サロンの日付）の最後の記録だけです。`,
          "undo_not_allowed",
        );
      }
      if (undoable === "completed") {
        // What was paid stays the visit's (decision 0079): a 会計 keeps it completed.
        const [paid] = await tx
          .select({ id: checkouts.id })
          .from(checkouts)
          .where(and(eq(checkouts.salonId, row.salonId), eq(checkouts.bookingId, row.id)));
        if (paid) {
          throw new BookingActionRefusedError(
            "会計が登録されているため、施術完了は取り消せません。",
            "undo_not_allowed",
          );
        }
      }
      const set: Partial<typeof bookings.$inferInsert> =
        undoable === "arrived" ? { arrivedAt: null } : { status: "confirmed" };
      const undone = await applyChange(
        tx,
        row,
        set,
        { kind: "undone", details: { undid: undoable } },
        actor,
        now,
      );
      if (undoable === "completed") {
        await tx
          .delete(jobs)
          .where(and(eq(jobs.dedupeKey, reviewRequestKey(row.id)), isNull(jobs.doneAt)));
      }
      if (undoable === "no_show") {
        // Its fee comes back, or is not taken (decision 0084); the refund is sent after the commit.
        const { expireSessionId } = await takeBackNoShowMoney(tx, row, staffUserOf(actor), now);
        linkToExpire = expireSessionId;
      }
      return undone;
    });
    if (linkToExpire && money?.provider) {
      await money.provider.expireCheckoutSession(linkToExpire).catch((error: unknown) => {
        money.log?.warn("payments: fee link not expired", describeError(error));
      });
    }
    if (money && input.undo === "no_show") {
      await sendBookingMoney(db, money.provider, booking.id, { ...money, now });
    }
    // A no-show's time is taken again (and a completion's stays taken).
    await refreshAfterBookingChange(db, booking, now);
    return booking;
  } catch (error) {
    if (sqlState(error) === EXCLUSION_VIOLATION) {
      throw new BookingVersionConflictError(
        "この時間には、無断キャンセルの後に別の予約が入っています。無断キャンセルは取り消せません。",
      );
    }
    throw error;
  }
}

/** One entry point for the page and the API: the parsed action, applied. */
export async function applyBookingAction(
  db: Database,
  target: ActionTarget,
  action: BookingActionInput,
  actor: BookingActor,
  now: Date,
  /** The money the action moves (a fee, a refund; decision 0080), sent after its commit. */
  money?: BookingMoney,
): Promise<Booking> {
  const booking = await applyAction(db, target, action, actor, now, money);
  if (
    money &&
    (action.action === "no_show" || action.action === "cancel" || action.action === "refuse")
  ) {
    await sendBookingMoney(db, money.provider, booking.id, { ...money, now });
  }
  return booking;
}

function applyAction(
  db: Database,
  target: ActionTarget,
  action: BookingActionInput,
  actor: BookingActor,
  now: Date,
  money?: BookingMoney,
): Promise<Booking> {
  switch (action.action) {
    case "arrived":
      return markArrived(db, { ...target, version: action.version }, actor, now);
    case "completed":
      return markCompleted(db, { ...target, version: action.version }, actor, now);
    case "no_show":
      return markNoShow(db, { ...target, version: action.version }, actor, now);
    case "release":
      return releaseBlock(db, { ...target, version: action.version }, actor, now);
    case "cancel":
      return cancelBySalon(
        db,
        { ...target, version: action.version, category: action.category, message: action.message },
        actor,
        now,
      );
    case "move":
      return moveBooking(
        db,
        {
          ...target,
          version: action.version,
          date: action.date,
          time: action.time,
          staffId: action.staffId,
          menuIds: action.menuIds,
          confirmOutsideSchedule: action.confirmOutsideSchedule,
          keepNomination: action.keepNomination,
        },
        actor,
        now,
      );
    case "note":
      return saveSalonNote(db, { ...target, note: action.note }, actor, now);
    case "approve":
      return approveBooking(db, { ...target, version: action.version }, actor, now);
    case "undo":
      return undoStatus(
        db,
        { ...target, version: action.version, undo: action.undo },
        actor,
        now,
        money,
      );
    case "refuse":
      return refuseBooking(
        db,
        { ...target, version: action.version, message: action.message },
        actor,
        now,
      );
  }
}

/** A booking as the salon's detail page and API show it. */
export type OwnerBookingDetail = {
  id: string;
  kind: "booking" | "block";
  bookingNumber: string;
  status: BookingStatus;
  /** Approval mode (decision 0051): "pending" while the salon has not answered; else its answer or null. */
  approval: BookingApproval | null;
  source: BookingSource;
  version: number;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  staff: { id: string; name: string };
  staffRequested: boolean;
  customer: { name: string; kana: string; phone: string; email: string };
  customerId: string | null;
  hasAccount: boolean;
  menus: { menuId: string; name: string; price: number; durationMinutes: number }[];
  /** With its target 新規・再来・全員 (decision 0087). */
  coupon: { id: string; title: string; target: CouponTarget } | null;
  /** 学割: the customer stated on the confirm step that they are a student. */
  studentDeclared: boolean;
  totalPrice: number;
  /** 指名料 in totalPrice (decision 0047). */
  nominationFee: number;
  notes: string;
  /** The payment and cancellation policy the customer agreed to (decision 0075); null: none. */
  paymentPolicy: PolicySnapshot | null;
  /** What was paid, refunded or kept on a card, oldest first (decision 0083). */
  payments: PaymentRecord[];
  salonNote: string;
  arrivedAt: Date | null;
  cancelledAt: Date | null;
  cancelledBy: string | null;
  cancelCategory: SalonCancelCategory | null;
  cancelReason: string;
  createdAt: Date;
  history: BookingEventView[];
};

/** This salon's booking (or block) with its history; 404 for anything else. */
export async function getOwnerBooking(
  db: Database,
  target: ActionTarget,
): Promise<OwnerBookingDetail> {
  if (!isUuid(target.salonId) || !isUuid(target.bookingId))
    throw new BookingNotFoundForSalonError();
  const [row] = await db
    .select({
      booking: bookings,
      staffName: staff.name,
      timeZone: salons.timeZone,
      couponTitle: coupons.title,
      couponTarget: coupons.target,
    })
    .from(bookings)
    .innerJoin(salons, eq(salons.id, bookings.salonId))
    .innerJoin(staff, and(eq(staff.id, bookings.staffId), eq(staff.salonId, bookings.salonId)))
    .leftJoin(coupons, eq(coupons.id, bookings.couponId))
    .where(and(eq(bookings.id, target.bookingId), eq(bookings.salonId, target.salonId)));
  if (!row || row.booking.status === "held") throw new BookingNotFoundForSalonError();
  const b = row.booking;
  const menuRows = await db
    .select({
      menuId: bookingMenus.menuId,
      name: bookingMenus.name,
      price: bookingMenus.price,
      durationMinutes: bookingMenus.durationMinutes,
    })
    .from(bookingMenus)
    .where(and(eq(bookingMenus.salonId, b.salonId), eq(bookingMenus.bookingId, b.id)))
    .orderBy(asc(bookingMenus.position));
  const history = await listBookingEvents(db, { salonId: b.salonId, bookingId: b.id });
  const payments = await paymentRecordsOfBooking(db, b.id);
  return {
    id: b.id,
    kind: b.kind,
    bookingNumber: b.bookingNumber,
    status: b.status,
    approval: b.approval,
    source: b.source,
    version: b.version,
    startsAt: b.startsAt,
    endsAt: b.endsAt,
    timeZone: row.timeZone,
    staff: { id: b.staffId, name: row.staffName },
    staffRequested: b.staffRequested,
    customer: {
      name: b.customerName,
      kana: b.customerKana,
      phone: b.customerPhone,
      email: b.customerEmail,
    },
    customerId: b.customerId,
    hasAccount: b.userId !== null,
    menus: menuRows,
    coupon:
      b.couponId && row.couponTitle
        ? { id: b.couponId, title: row.couponTitle, target: row.couponTarget ?? "all" }
        : null,
    studentDeclared: b.studentDeclared,
    totalPrice: b.totalPrice,
    nominationFee: b.nominationFee,
    notes: b.notes,
    paymentPolicy: b.paymentPolicy,
    payments,
    salonNote: b.salonNote,
    arrivedAt: b.arrivedAt,
    cancelledAt: b.cancelledAt,
    cancelledBy: b.cancelledBy,
    cancelCategory: b.cancelCategory,
    cancelReason: b.cancelReason,
    createdAt: b.createdAt,
    history,
  };
}

/** What the move form offers: the salon's active stylists and its menus with who does them. */
export async function moveChoices(db: Database, salonId: string) {
  const stylists = await db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.active, true)))
    .orderBy(asc(staff.sortOrder), asc(staff.name));
  const menuRows = await db
    .select({
      id: menus.id,
      category: menus.category,
      name: menus.name,
      price: menus.price,
      durationMinutes: menus.durationMinutes,
      published: menus.published,
    })
    .from(menus)
    .where(eq(menus.salonId, salonId))
    .orderBy(asc(menus.sortOrder), asc(menus.name));
  return { stylists, menus: menuRows };
}
