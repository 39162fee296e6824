import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import { addDays, localToInstant, toLocal } from "../../common/local-time";
import { workingIntervals } from "../bookings/availability";
import {
  type LoadedAvailability,
  loadAvailabilityInput,
} from "../bookings/availability-data.server";
import { recordBookingEvent, salonActor } from "../bookings/booking-history.server";
import { enqueueConfirmationJobs } from "../bookings/booking-jobs.server";
import { newBookingNumber } from "../bookings/booking-number";
import { refreshAfterBookingChange } from "../bookings/free-days.server";
import { nominationFeeFor } from "../bookings/nomination-fee";
import { occupiedRange, occupiedSpan } from "../bookings/occupied-time";
import { attachCustomer, topOfMergeChain } from "../bookings/salon-customers.server";
import { lockStylistsForBooking } from "../bookings/stylist-lock.server";
import type { Database } from "../db/client";
import { bookingMenus, bookings, salonCustomers, salons, staff } from "../db/schema";
import {
  DEADLOCK_DETECTED,
  EXCLUSION_VIOLATION,
  sqlState,
  UNIQUE_VIOLATION,
} from "../db/sql-state";
import { DomainError } from "../errors/domain-error";
import { countBookingMade } from "../metrics/counts";
import { notifySlotChange } from "../realtime/slot-events.server";
import { overlapError } from "./overlaps.server";
import { type BlockInput, blockLabel, type SalonBookingInput } from "./salon-entries.schema";

/**
 * The salon's own entries in its ledger (issue 28, point 5; decision 0042):
 * phone and walk-in bookings, and blocked time (休憩, 打ち合わせ, 研修).
 * The web's lead time, booking window and same-day cutoff do not apply (a
 * walk-in starts now), and the salon may book outside the stylist's
 * schedule once it confirms a warning; but nothing may overlap another
 * booking, hold or block of the stylist: the exclusion constraint
 * bookings_staff_no_overlap decides, as it does for the web.
 */

const MINUTE = 60_000;
type Booking = typeof bookings.$inferSelect;

/** The salon member entering the row (SalonAccess.user). */
export type EntryActor = { userId: string };

/** Dates the salon may enter: a month back (a visit noted afterwards), a year ahead. */
const DAYS_BACK = 31;
const DAYS_AHEAD = 366;

export class OutsideScheduleError extends DomainError {
  constructor(staffName: string, when: string) {
    super(
      "outside_schedule",
      `${staffName}さんは${when}の出勤予定がありません。スタッフの予定外でも予約を入れる場合は、「出勤予定外でも予約する」にチェックを入れて、もう一度登録してください。`,
      422,
    );
  }
}

class EntryDateError extends DomainError {
  constructor() {
    super(
      "date_out_of_range",
      `日付は${DAYS_BACK}日前から${DAYS_AHEAD}日後までで指定してください。`,
      422,
    );
  }
}

class SalonSuspendedError extends DomainError {
  constructor() {
    super(
      "salon_suspended",
      "利用停止中のサロンには予約を入力できません（ブロックは入力できます）。",
      422,
    );
  }
}

class CustomerNotFoundError extends DomainError {
  constructor() {
    super(
      "customer_not_found",
      "選んだお客様が見つかりません。もう一度検索して選び直してください。",
      400,
    );
  }
}

class StaffNotFoundError extends DomainError {
  constructor() {
    super(
      "staff_not_available",
      "選択したスタイリストはこのサロンにいません。スタイリストを選び直してください。",
      400,
    );
  }
}

async function salonOf(db: Database, salonId: string) {
  const [salon] = await db
    .select({ id: salons.id, timeZone: salons.timeZone, status: salons.status })
    .from(salons)
    .where(eq(salons.id, salonId));
  // The guard found it; a salon deleted meanwhile is simply not there.
  if (!salon) throw new DomainError("salon_not_found", "サロンが見つかりません。", 404);
  return salon;
}

function checkDate(date: string, timeZone: string, now: Date) {
  const today = toLocal(now, timeZone).date;
  if (date < addDays(today, -DAYS_BACK) || date > addDays(today, DAYS_AHEAD)) {
    throw new EntryDateError();
  }
}

const hhmm = (instant: Date, timeZone: string) => toLocal(instant, timeZone).time;

/**
 * Whether the stylist works for the whole of [start, end): the engine's own
 * schedule rules (weekly pattern, dated exceptions, the salon's opening
 * hours and holidays), without any of the web's booking rules.
 */
function withinSchedule(
  loaded: LoadedAvailability,
  staffId: string,
  start: Date,
  end: Date,
): boolean {
  const working = workingIntervals(loaded.input, loaded.input.from).get(staffId) ?? [];
  return working.some(
    (interval) => interval.start <= start.getTime() && end.getTime() <= interval.end,
  );
}

/** Expired holds no longer occupy anyone, but their rows would still trip the constraint. */
async function clearExpiredHolds(
  tx: Database,
  where: { salonId: string; staffId: string; start: Date; until: Date; now: Date },
) {
  await tx
    .delete(bookings)
    .where(
      and(
        eq(bookings.salonId, where.salonId),
        eq(bookings.staffId, where.staffId),
        eq(bookings.status, "held"),
        lte(bookings.holdExpiresAt, where.now),
        sql`${occupiedRange} && tstzrange(${where.start}, ${where.until}, '[)')`,
      ),
    );
}

/**
 * Runs one insert attempt, turning the constraint's refusal into a 409 that
 * names what is in the way, and drawing a new booking number on the
 * (1 in 10^12) chance it is already used in this salon.
 */
async function insertWithConstraint<T>(
  db: Database,
  where: { salonId: string; staffId: string; start: Date; until: Date; now: Date },
  timeZone: string,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let tries = 0; tries < 5; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const state = sqlState(error);
      if (state === EXCLUSION_VIOLATION) throw await overlapError(db, where, timeZone);
      // Another booking number, or a deadlock with a simultaneous writer of the same time.
      if (state === UNIQUE_VIOLATION || state === DEADLOCK_DETECTED) continue;
      throw error;
    }
  }
  throw new Error("no free booking number after 5 draws");
}

type Snapshot = {
  customerId: string;
  userId: string | null;
  name: string;
  kana: string;
  phone: string;
  email: string;
};

/** The customer the booking is for: a record the salon picked, or a new person. */
async function customerFor(
  tx: Database,
  salonId: string,
  input: SalonBookingInput,
): Promise<Snapshot> {
  if (input.customerId) {
    const [picked] = await tx
      .select({ id: salonCustomers.id })
      .from(salonCustomers)
      .where(and(eq(salonCustomers.salonId, salonId), eq(salonCustomers.id, input.customerId)));
    if (!picked) throw new CustomerNotFoundError();
    const topId = await topOfMergeChain(tx, salonId, picked.id);
    const [record] = await tx
      .select()
      .from(salonCustomers)
      .where(and(eq(salonCustomers.salonId, salonId), eq(salonCustomers.id, topId)));
    if (!record) throw new CustomerNotFoundError();
    return {
      customerId: record.id,
      // The salon picked this person: the booking is theirs, in their history too.
      userId: record.userId,
      name: record.name,
      kana: record.kana,
      phone: record.phone,
      email: record.email,
    };
  }
  const customer = input.customer;
  if (!customer) throw new CustomerNotFoundError();
  // A match by phone or address is a likely same person for the salon's
  // records, not proof of an account: the booking gets no user.
  const customerId = await attachCustomer(tx, {
    salonId,
    userId: null,
    name: customer.name,
    kana: customer.kana,
    phone: customer.phone,
    email: customer.email,
  });
  return { customerId, userId: null, ...customer };
}

/**
 * A phone or walk-in booking, confirmed at once, for a stylist who can do
 * the menus (price and duration from the menus, the buffer from the
 * salon's settings). A customer mail goes out only when an address is known.
 */
export async function enterSalonBooking(
  db: Database,
  salonId: string,
  input: SalonBookingInput,
  actor: EntryActor,
  now: Date,
): Promise<Booking> {
  const salon = await salonOf(db, salonId);
  // A draft salon takes its regulars' calls before it opens on the web; a
  // salon the administrators suspended takes no bookings at all.
  if (salon.status === "suspended") throw new SalonSuspendedError();
  checkDate(input.date, salon.timeZone, now);
  const start = localToInstant(input.date, input.time, salon.timeZone);
  // The time the row would occupy, known once the menus are read in the transaction.
  const span = { salonId, staffId: input.staffId, start, until: start, now };
  const booking = await insertWithConstraint(db, span, salon.timeZone, () =>
    db.transaction(async (tx) => {
      // The stylist's row first (FOR SHARE, before the schedule read and any
      // booking row): a schedule change open now is waited for and its new
      // working time read (decision 0046).
      await lockStylistsForBooking(tx, salonId, input.staffId);
      // Menus, ability and schedules as the web reads them; a stylist of
      // another salon, a retired one or one who does not do a menu is refused here.
      const loaded = await loadAvailabilityInput(tx, {
        salonId,
        menuIds: input.menuIds,
        staffId: input.staffId,
        from: input.date,
        to: input.date,
        now,
        anyStatus: true,
      });
      const endsAt = new Date(start.getTime() + loaded.durationMinutes * MINUTE);
      if (!input.allowOutsideSchedule && !withinSchedule(loaded, input.staffId, start, endsAt)) {
        const [member] = await tx
          .select({ name: staff.name })
          .from(staff)
          .where(and(eq(staff.salonId, salonId), eq(staff.id, input.staffId)));
        throw new OutsideScheduleError(
          member?.name ?? "このスタイリスト",
          `${input.time}〜${hhmm(endsAt, salon.timeZone)}`,
        );
      }
      const { occupiedFrom, occupiedUntil } = occupiedSpan(start, endsAt, loaded.rules);
      span.start = occupiedFrom;
      span.until = occupiedUntil;
      await clearExpiredHolds(tx, span);
      const customer = await customerFor(tx, salonId, input);
      // A customer who asked for this stylist on the phone or at the desk pays
      // their 指名料 as a web visitor would (decision 0047); 指名なし does not.
      const nominationFee = await nominationFeeFor(
        tx,
        salonId,
        input.staffRequested ? input.staffId : null,
      );
      const [row] = await tx
        .insert(bookings)
        .values({
          salonId,
          kind: "booking",
          userId: customer.userId,
          staffId: input.staffId,
          staffRequested: input.staffRequested,
          bookingNumber: newBookingNumber(),
          startsAt: start,
          endsAt,
          occupiedFrom,
          occupiedUntil,
          totalPrice: loaded.totalPrice + nominationFee,
          nominationFee,
          status: "confirmed",
          source: input.source,
          // A walk-in is someone at the desk: 来店済み from the start, never a no-show.
          arrivedAt: input.source === "walk_in" ? now : null,
          customerId: customer.customerId,
          customerName: customer.name,
          customerKana: customer.kana,
          customerPhone: customer.phone,
          customerEmail: customer.email,
          salonNote: input.salonNote,
          version: 1,
        })
        .returning();
      if (!row) throw new Error("booking not inserted");
      await tx.insert(bookingMenus).values(
        loaded.menus.map((menu, position) => ({
          salonId,
          bookingId: row.id,
          position,
          menuId: menu.id,
          name: menu.name,
          price: menu.price,
          durationMinutes: menu.durationMinutes,
        })),
      );
      await recordBookingEvent(tx, {
        salonId,
        bookingId: row.id,
        kind: "created",
        actor: salonActor(actor.userId),
        details: { source: row.source },
        at: now,
      });
      // The customer's confirmation and reminder, when there is an address
      // to send them to; the salon is not told of its own entry.
      if (row.customerEmail) await enqueueConfirmationJobs(tx, row, salon.timeZone, now);
      await notifySlotChange(tx, salonId, [input.date]);
      return row;
    }),
  );
  await refreshAfterBookingChange(db, booking, now);
  countBookingMade(booking.source);
  return booking;
}

/**
 * Blocked time for a stylist (休憩, 打ち合わせ, 研修, その他): a row of kind
 * 'block' with no customer, user or menus, that occupies the stylist for
 * visitors and the salon alike. No buffer: nobody tidies up after a break.
 * Outside the stylist's schedule it is allowed without a warning, since it
 * takes nothing a visitor could have booked.
 */
export async function blockTime(
  db: Database,
  salonId: string,
  input: BlockInput,
  actor: EntryActor,
  now: Date,
): Promise<Booking> {
  const salon = await salonOf(db, salonId);
  checkDate(input.date, salon.timeZone, now);
  const [member] = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.salonId, salonId), eq(staff.id, input.staffId), eq(staff.active, true)));
  if (!member) throw new StaffNotFoundError();
  const start = localToInstant(input.date, input.from, salon.timeZone);
  const end = localToInstant(input.date, input.to, salon.timeZone);
  if (end <= start) {
    throw new DomainError("block_time_invalid", "終了時刻は開始時刻より後にしてください。", 400);
  }
  const label = blockLabel(input.reason, input.text);
  const where = { salonId, staffId: member.id, start, until: end, now };
  const block = await insertWithConstraint(db, where, salon.timeZone, () =>
    db.transaction(async (tx) => {
      await clearExpiredHolds(tx, where);
      const [row] = await tx
        .insert(bookings)
        .values({
          salonId,
          kind: "block",
          userId: null,
          customerId: null,
          staffId: member.id,
          staffRequested: true,
          bookingNumber: newBookingNumber(),
          startsAt: start,
          endsAt: end,
          // A block has no buffers (migration 0020): it occupies just its time.
          occupiedFrom: start,
          occupiedUntil: end,
          totalPrice: 0,
          status: "confirmed",
          // Entered at the salon's desk, like a phone booking; never 'web',
          // which means a visitor made it (decision 0042).
          source: "phone",
          salonNote: label,
          version: 1,
        })
        .returning();
      if (!row) throw new Error("block not inserted");
      await recordBookingEvent(tx, {
        salonId,
        bookingId: row.id,
        kind: "created",
        actor: salonActor(actor.userId),
        details: { kind: "block", reason: input.reason, label },
        at: now,
      });
      await notifySlotChange(tx, salonId, [input.date]);
      return row;
    }),
  );
  // The search's free-time summary loses the blocked time too.
  await refreshAfterBookingChange(db, block, now);
  return block;
}

export type CustomerMatch = {
  id: string;
  name: string;
  kana: string;
  phone: string;
  email: string;
  hasAccount: boolean;
};

export const MAX_CUSTOMER_MATCHES = 20;
const MAX_QUERY = 50;

/** "+81 90-12" → "09012": the digits of a phone number as typed, for a prefix match. */
function phoneDigits(query: string): string | null {
  let text = query.normalize("NFKC").replace(/[\s\-‐－ー―()（）.]/gu, "");
  if (text.startsWith("+81")) text = `0${text.slice(3).replace(/^0/, "")}`;
  return /^\d+$/.test(text) ? text : null;
}

const hiraganaToKatakana = (text: string) =>
  text.replace(/[\u3041-\u3096]/gu, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0x60));

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The salon's customer records (tops of merge chains only) matching a
 * phone number (digits, from the start) or part of a name or its kana
 * (ひらがな finds カタカナ), at most 20, for the entry form's lookup.
 */
export async function findCustomers(
  db: Database,
  salonId: string,
  query: string,
): Promise<CustomerMatch[]> {
  const text = query.trim().slice(0, MAX_QUERY);
  if (!text) return [];
  const digits = phoneDigits(text);
  let match: ReturnType<typeof sql>;
  if (digits) {
    if (digits.length < 2) return [];
    match = sql`${salonCustomers.phone} like ${`${likeEscape(digits)}%`}`;
  } else {
    const words = text.normalize("NFKC").replace(/\s+/gu, " ");
    const kana = hiraganaToKatakana(words);
    match = sql`(${salonCustomers.name} ilike ${`%${likeEscape(words)}%`} or ${salonCustomers.kana} like ${`%${likeEscape(kana)}%`} or replace(${salonCustomers.kana}, ' ', '') like ${`%${likeEscape(kana.replace(/ /g, ""))}%`})`;
  }
  const rows = await db
    .select({
      id: salonCustomers.id,
      name: salonCustomers.name,
      kana: salonCustomers.kana,
      phone: salonCustomers.phone,
      email: salonCustomers.email,
      userId: salonCustomers.userId,
    })
    .from(salonCustomers)
    .where(and(eq(salonCustomers.salonId, salonId), isNull(salonCustomers.mergedIntoId), match))
    .orderBy(asc(salonCustomers.kana), asc(salonCustomers.name), asc(salonCustomers.id))
    .limit(MAX_CUSTOMER_MATCHES);
  return rows.map(({ userId, ...row }) => ({ ...row, hasAccount: userId !== null }));
}
