import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { SlotUnavailableError } from "../../server/bookings/booking-errors";
import { salonActor } from "../../server/bookings/booking-history.server";
import { rescheduleBooking } from "../../server/bookings/reschedule.server";
import { lockStylistsForBooking } from "../../server/bookings/stylist-lock.server";
import { bookings, scheduleExceptions } from "../../server/db/schema";
import {
  OutsideScheduleError as MoveOutsideError,
  moveBooking,
} from "../../server/owner/booking-actions.server";
import { salonBookingSchema } from "../../server/owner/salon-entries.schema";
import { enterSalonBooking, OutsideScheduleError } from "../../server/owner/salon-entries.server";
import { guardStranding } from "../../server/salon-editor/schedule-stranding.server";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * A booking whose working time was read while a schedule change was open
 * (issue 29; decision 0046's last window): every booking path locks its
 * stylists' rows FOR SHARE before it reads the schedule
 * (`lockStylistsForBooking`), so it waits for the change and reads the new
 * working time, instead of inserting on the old one.
 */
const database = withTestDatabase();

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const DAY = "2026-12-03";
const at = (local: string) => new Date(`${local}:00+09:00`);
const customer = {
  name: "予約 花子",
  kana: "よやく はなこ",
  phone: "090-1234-5678",
  email: "hanako@example.jp",
};

async function outcome<T>(work: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await work };
  } catch (error) {
    return { error };
  }
}

/** A salon open 10:00–20:00 with two stylists working then, a 60-minute cut, and its owner. */
async function scene() {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
  const [first, second] = stylists;
  if (!first || !second) throw new Error("no stylists");
  const owner = await buildUser(database.db, { role: "owner" });
  return { salon, first, second, menu, owner };
}

async function book(salonId: string, userId: string, menuId: string, staffId: string, start: Date) {
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId,
    menuIds: [menuId],
    staffId,
    start,
    userId,
    now: NOW,
  });
  return confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId,
    customer,
    notes: "",
    idempotencyKey: null,
    now: NOW,
  });
}

async function waitersOnLocks() {
  const result = await database.db.execute(
    sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

/**
 * Runs `attempt` while a schedule change (the stylist's 休み on `date`,
 * through `guardStranding` as every schedule writer does) is written and
 * not yet committed; commits the change once the attempt waits on a lock,
 * and returns how the attempt ended.
 */
async function whileDayOffIsSaved<T>(
  target: { salonId: string; staffId: string; actorUserId: string; date: string },
  attempt: () => Promise<T>,
) {
  let commit: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    commit = resolve;
  });
  let written: () => void = () => {};
  const writtenYet = new Promise<void>((resolve) => {
    written = resolve;
  });
  const change = database.db.transaction(async (tx) => {
    await guardStranding(
      tx,
      {
        salonId: target.salonId,
        staffId: target.staffId,
        now: NOW,
        actorUserId: target.actorUserId,
      },
      {},
      async () => {
        await tx.insert(scheduleExceptions).values({
          salonId: target.salonId,
          staffId: target.staffId,
          date: target.date,
          kind: "closed",
        });
      },
    );
    written();
    await gate;
  });
  await writtenYet;
  const result = outcome(attempt());
  // Until the attempt waits on the change's lock: a bounded poll, not a sleep.
  for (let i = 0; i < 500 && (await waitersOnLocks()) === 0; i++);
  commit();
  await change;
  return result;
}

const rowsOf = (salonId: string) =>
  database.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.salonId, salonId), eq(bookings.kind, "booking")));

describe("the stylist lock of the booking paths", () => {
  it("takes the stylist's row, every stylist for 指名なし, and ignores what is no id", async () => {
    const { salon, first } = await scene();
    await database.db.transaction(async (tx) => {
      await lockStylistsForBooking(tx, salon.id, first.id);
      await lockStylistsForBooking(tx, salon.id, null);
      // Hostile ids come to the schedule read, which refuses them with its 4xx.
      await lockStylistsForBooking(tx, salon.id, "not-a-uuid");
      await lockStylistsForBooking(tx, "not-a-uuid", null);
    });
  });

  it("a hold after a day off is saved is refused (the schedule is read after the lock)", async () => {
    const { salon, first, menu } = await scene();
    await database.db
      .insert(scheduleExceptions)
      .values({ salonId: salon.id, staffId: first.id, date: DAY, kind: "closed" });
    const held = await outcome(
      holdSlot(database.db, {
        ...bookingClient(database.db),
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: first.id,
        start: at(`${DAY}T14:00`),
        userId: null,
        now: NOW,
      }),
    );
    expect(held.error).toBeInstanceOf(SlotUnavailableError);
    expect(await rowsOf(salon.id)).toHaveLength(0);
  });
});

// Races: PostgreSQL only (PGlite runs one transaction at a time, transactionsTakeTurns).
describe("a booking attempted while the stylist's day off is being saved", () => {
  it.skipIf(transactionsTakeTurns)(
    "a web hold waits for the change and is refused, not held on the old schedule",
    async () => {
      const { salon, first, menu, owner } = await scene();
      const held = await whileDayOffIsSaved(
        { salonId: salon.id, staffId: first.id, actorUserId: owner.id, date: DAY },
        () =>
          holdSlot(database.db, {
            ...bookingClient(database.db),
            salonId: salon.id,
            menuIds: [menu.id],
            staffId: first.id,
            start: at(`${DAY}T14:00`),
            userId: null,
            now: NOW,
          }),
      );
      expect(held.error).toBeInstanceOf(SlotUnavailableError);
      expect(await rowsOf(salon.id)).toHaveLength(0);
    },
  );

  it.skipIf(transactionsTakeTurns)(
    "a 指名なし hold waits for the change and goes to the stylist who still works",
    async () => {
      const { salon, first, second, menu, owner } = await scene();
      const held = await whileDayOffIsSaved(
        { salonId: salon.id, staffId: first.id, actorUserId: owner.id, date: DAY },
        () =>
          holdSlot(database.db, {
            ...bookingClient(database.db),
            salonId: salon.id,
            menuIds: [menu.id],
            staffId: null,
            start: at(`${DAY}T14:00`),
            userId: null,
            now: NOW,
          }),
      );
      expect(held.value?.staffId).toBe(second.id);
    },
  );

  it.skipIf(transactionsTakeTurns)(
    "a salon's phone entry waits for the change and is refused as outside the schedule",
    async () => {
      const { salon, first, menu, owner } = await scene();
      const entered = await whileDayOffIsSaved(
        { salonId: salon.id, staffId: first.id, actorUserId: owner.id, date: DAY },
        () =>
          enterSalonBooking(
            database.db,
            salon.id,
            salonBookingSchema.parse({
              source: "phone",
              staffId: first.id,
              date: DAY,
              time: "14:00",
              menuIds: [menu.id],
              customer: { name: "電話 太郎", kana: "でんわ たろう", phone: "090-1111-2222" },
            }),
            { userId: owner.id },
            NOW,
          ),
      );
      expect(entered.error).toBeInstanceOf(OutsideScheduleError);
      expect(await rowsOf(salon.id)).toHaveLength(0);
    },
  );

  it.skipIf(transactionsTakeTurns)(
    "the salon's move onto that day waits for the change and asks for the confirmation",
    async () => {
      const { salon, first, second, menu, owner } = await scene();
      const visitor = await buildUser(database.db);
      const booking = await book(salon.id, visitor.id, menu.id, second.id, at("2026-12-04T14:00"));
      const moved = await whileDayOffIsSaved(
        { salonId: salon.id, staffId: first.id, actorUserId: owner.id, date: DAY },
        () =>
          moveBooking(
            database.db,
            {
              salonId: salon.id,
              bookingId: booking.id,
              version: booking.version,
              date: DAY,
              time: "14:00",
              staffId: first.id,
              menuIds: [menu.id],
              confirmOutsideSchedule: false,
            },
            salonActor(owner.id),
            NOW,
          ),
      );
      expect(moved.error).toBeInstanceOf(MoveOutsideError);
      const [row] = await database.db.select().from(bookings).where(eq(bookings.id, booking.id));
      expect(row?.staffId).toBe(second.id);
    },
  );

  it.skipIf(transactionsTakeTurns)(
    "the customer's 予約変更 onto that day waits for the change and is refused",
    async () => {
      const { salon, first, menu, owner } = await scene();
      const visitor = await buildUser(database.db);
      const booking = await book(salon.id, visitor.id, menu.id, first.id, at("2026-12-04T14:00"));
      const moved = await whileDayOffIsSaved(
        { salonId: salon.id, staffId: first.id, actorUserId: owner.id, date: DAY },
        () =>
          rescheduleBooking(database.db, {
            ...bookingClient(database.db),
            bookingId: booking.id,
            userId: visitor.id,
            start: at(`${DAY}T14:00`),
            now: NOW,
          }),
      );
      expect(moved.error).toBeInstanceOf(SlotUnavailableError);
      const [row] = await database.db.select().from(bookings).where(eq(bookings.id, booking.id));
      expect(row?.startsAt).toEqual(at("2026-12-04T14:00"));
    },
  );
});
