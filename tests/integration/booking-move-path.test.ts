import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findAvailability } from "../../server/bookings/availability";
import { loadAvailabilityInput } from "../../server/bookings/availability-data.server";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import {
  BookingVersionConflictError as CustomerVersionConflictError,
  rescheduleBooking,
} from "../../server/bookings/reschedule.server";
import { bookings, staff } from "../../server/db/schema";
import { bookingActionSchema } from "../../server/owner/booking-actions.schema";
import {
  moveBooking,
  BookingVersionConflictError as OwnerVersionConflictError,
} from "../../server/owner/booking-actions.server";
import { bookingClient } from "../support/booking-client";
import { buildMenu, buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * One write path for moving a booking (issue 38, §7) and 指名 on a move
 * (§1.3): the salon's move and the customer's 予約変更 price, write and
 * retry a move the same way, and 指名 (with its 指名料) stays only on a
 * stylist the customer chose, or the staff kept on purpose.
 */
const database = withTestDatabase();

/** Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const LATER = new Date("2026-12-01T09:05:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);

/** Two stylists (10:00–20:00); the first charges a 1,100 yen 指名料, the second 2,200. */
async function scene(nominated: "first" | "none" = "first") {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
  const [first, second] = stylists;
  if (!first || !second) throw new Error("two stylists");
  await database.db.update(staff).set({ nominationFee: 1100 }).where(eq(staff.id, first.id));
  await database.db.update(staff).set({ nominationFee: 2200 }).where(eq(staff.id, second.id));
  const color = await buildMenu(database.db, salon.id, {
    name: "カラー",
    price: 4400,
    durationMinutes: 30,
  });
  const visitor = await buildUser(database.db);
  const owner = await buildUser(database.db, { role: "owner" });
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId: salon.id,
    menuIds: [menu.id],
    staffId: nominated === "first" ? first.id : null,
    start: at("2026-12-03T14:00"),
    userId: visitor.id,
    now: NOW,
  });
  const booking = await confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId: visitor.id,
    customer: {
      name: "予約 花子",
      kana: "よやく はなこ",
      phone: "090-1234-5678",
      email: `move-${hold.id.slice(0, 8)}@example.jp`,
    },
    notes: "",
    idempotencyKey: null,
    now: NOW,
  });
  return { salon, menu, color, first, second, visitor, booking, actor: salonActor(owner.id) };
}

type Scene = Awaited<ReturnType<typeof scene>>;

const rowOf = async (id: string) => {
  const [row] = await database.db.select().from(bookings).where(eq(bookings.id, id));
  if (!row) throw new Error("no booking");
  return row;
};

/** The salon's move of the scene's booking, through the API's and the form's parser. */
function salonMove(
  s: Scene,
  change: { time: string; staffId?: string; menuIds?: string[]; keepNomination?: boolean },
) {
  const parsed = bookingActionSchema.parse({
    action: "move",
    version: s.booking.version,
    date: "2026-12-03",
    time: change.time,
    staffId: change.staffId ?? s.booking.staffId,
    menuIds: change.menuIds ?? [s.menu.id],
    ...(change.keepNomination === undefined ? {} : { keepNomination: change.keepNomination }),
  });
  if (parsed.action !== "move") throw new Error("not a move");
  return moveBooking(
    database.db,
    { salonId: s.salon.id, bookingId: s.booking.id, ...parsed },
    s.actor,
    LATER,
  );
}

/** The customer's 予約変更 of the scene's booking. */
function customerMove(
  s: Scene,
  change: { time: string; staffId?: string | null; menuIds?: string[] },
) {
  return rescheduleBooking(database.db, {
    ...bookingClient(database.db),
    bookingId: s.booking.id,
    userId: s.visitor.id,
    start: at(`2026-12-03T${change.time}`),
    ...(change.staffId === undefined ? {} : { staffId: change.staffId }),
    ...(change.menuIds ? { menuIds: change.menuIds } : {}),
    version: s.booking.version,
    now: LATER,
  });
}

/**
 * Runs `work` while the first `count` updates of a booking fail with
 * SQLSTATE 40P01, as the loser of a deadlock does on PostgreSQL (two moves
 * onto the same time at once); a sequence counts them across rollbacks.
 */
async function withDeadlocks<T>(count: number, work: () => Promise<T>) {
  const run = (statement: string) => database.db.execute(sql.raw(statement));
  await run("create sequence test_move_deadlocks");
  await run(`create function test_move_deadlock() returns trigger language plpgsql as $$
    begin
      if nextval('test_move_deadlocks') <= ${count} then
        raise exception 'deadlock detected (injected)' using errcode = '40P01';
      end if;
      return new;
    end $$`);
  await run(`create trigger test_move_deadlock before update on bookings
    for each row execute function test_move_deadlock()`);
  try {
    return await work();
  } finally {
    // On PGlite the next test files share this database.
    await run("drop trigger test_move_deadlock on bookings");
    await run("drop function test_move_deadlock()");
    await run("drop sequence test_move_deadlocks");
  }
}

const doors: Record<string, (s: Scene, time: string) => Promise<unknown>> = {
  salon: (s, time) => salonMove(s, { time }),
  customer: (s, time) => customerMove(s, { time }),
};

describe("one write path for both doors (issue 38, §7)", () => {
  for (const [door, move] of Object.entries(doors)) {
    it(`${door}: the move stamps updatedAt with its own clock and bumps the version`, async () => {
      const s = await scene();
      await move(s, "16:00");
      const row = await rowOf(s.booking.id);
      expect(row.startsAt).toEqual(at("2026-12-03T16:00"));
      expect(row.updatedAt).toEqual(LATER);
      expect(row.version).toBe(s.booking.version + 1);
    });

    it(`${door}: a move that loses a deadlock three times is tried again and lands once`, async () => {
      const s = await scene();
      await withDeadlocks(3, () => move(s, "16:00"));
      const row = await rowOf(s.booking.id);
      expect(row.startsAt).toEqual(at("2026-12-03T16:00"));
      expect(row.version).toBe(s.booking.version + 1);
    });

    it(`${door}: a move on the same chosen stylist keeps the 指名料 the booking was made with`, async () => {
      const s = await scene();
      // The stylist's fee went up after the booking was made: the booking keeps its price.
      await database.db.update(staff).set({ nominationFee: 3300 }).where(eq(staff.id, s.first.id));
      await move(s, "16:00");
      expect(await rowOf(s.booking.id)).toMatchObject({
        staffId: s.first.id,
        staffRequested: true,
        nominationFee: 1100,
        totalPrice: 5500 + 1100,
      });
    });
  }

  it("salon and customer adding a menu price it alike: today's price of the new menu, the booked fee", async () => {
    const bySalon = await scene();
    await salonMove(bySalon, { time: "14:00", menuIds: [bySalon.menu.id, bySalon.color.id] });
    const byCustomer = await scene();
    await customerMove(byCustomer, {
      time: "14:00",
      menuIds: [byCustomer.menu.id, byCustomer.color.id],
    });
    for (const s of [bySalon, byCustomer]) {
      expect(await rowOf(s.booking.id)).toMatchObject({
        endsAt: at("2026-12-03T15:30"),
        nominationFee: 1100,
        totalPrice: 5500 + 4400 + 1100,
      });
    }
  });
});

describe("指名 when a booking moves to another stylist (issue 38, §1.3)", () => {
  it("the salon's move to another stylist clears 指名 and its 指名料 by default", async () => {
    const s = await scene();
    const moved = await salonMove(s, { time: "14:00", staffId: s.second.id });
    expect(moved).toMatchObject({
      staffId: s.second.id,
      staffRequested: false,
      nominationFee: 0,
      totalPrice: 5500,
    });
  });

  it("指名を引き継ぐ keeps 指名 on the new stylist, with that stylist's 指名料", async () => {
    const s = await scene();
    const moved = await salonMove(s, {
      time: "15:00",
      staffId: s.second.id,
      keepNomination: true,
    });
    expect(moved).toMatchObject({
      staffId: s.second.id,
      staffRequested: true,
      nominationFee: 2200,
      totalPrice: 5500 + 2200,
    });
  });

  it("the salon never makes a 指名なし booking 指名 by moving it", async () => {
    const s = await scene("none");
    expect(s.booking).toMatchObject({ staffRequested: false, nominationFee: 0 });
    const moved = await salonMove(s, {
      time: "14:00",
      staffId: s.booking.staffId === s.first.id ? s.second.id : s.first.id,
      keepNomination: true,
    });
    expect(moved).toMatchObject({ staffRequested: false, nominationFee: 0, totalPrice: 5500 });
  });

  it("the customer's 予約変更: 指名 and its 指名料 follow the stylist the customer chose", async () => {
    const s = await scene();
    await customerMove(s, { time: "14:00", staffId: s.second.id });
    expect(await rowOf(s.booking.id)).toMatchObject({
      staffId: s.second.id,
      staffRequested: true,
      nominationFee: 2200,
      totalPrice: 5500 + 2200,
    });
    const again = { ...s, booking: await rowOf(s.booking.id) };
    await customerMove(again, { time: "16:00", staffId: null });
    expect(await rowOf(s.booking.id)).toMatchObject({
      staffRequested: false,
      nominationFee: 0,
      totalPrice: 5500,
    });
  });
});

describe("what the mutants of issue 38, §6 got past", () => {
  it("a move with a version the user no longer sees is refused (409) by the salon's door, on every engine", async () => {
    const s = await scene();
    await database.db
      .update(bookings)
      .set({ salonNote: "", version: s.booking.version + 1 })
      .where(eq(bookings.id, s.booking.id));
    const stale = await salonMove(s, { time: "16:00" }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(stale).toBeInstanceOf(OwnerVersionConflictError);
    expect((stale as OwnerVersionConflictError).status).toBe(409);
    expect((await rowOf(s.booking.id)).startsAt).toEqual(at("2026-12-03T14:00"));
    // The customer's door refuses it the same way.
    const mine = await customerMove(s, { time: "16:00" }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(mine).toBeInstanceOf(CustomerVersionConflictError);
    expect((await rowOf(s.booking.id)).startsAt).toEqual(at("2026-12-03T14:00"));
  });

  /**
   * The booking 14:00–15:00 with another right after it, 15:00–16:00, on
   * the same stylist. Moving it earlier to 13:30 overlaps only its own old
   * time and must go through; moving it to 14:30 overlaps the next booking
   * and must not. An overlap check that left out the wrong range (the one
   * holding the old end) or none at all fails one of the two.
   */
  async function withNextBooking() {
    const s = await scene();
    const neighbour = await buildUser(database.db);
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: s.salon.id,
      menuIds: [s.menu.id],
      staffId: s.first.id,
      start: at("2026-12-03T15:00"),
      userId: neighbour.id,
      now: NOW,
    });
    await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId: neighbour.id,
      customer: {
        name: "隣 次郎",
        kana: "となり じろう",
        phone: "090-2222-3333",
        email: `next-${hold.id.slice(0, 8)}@example.jp`,
      },
      notes: "",
      idempotencyKey: null,
      now: NOW,
    });
    return s;
  }

  for (const [door, move] of Object.entries(doors)) {
    it(`${door}: moving earlier over its own old time goes through while the old end touches the next booking`, async () => {
      const s = await withNextBooking();
      await move(s, "13:30");
      expect(await rowOf(s.booking.id)).toMatchObject({
        startsAt: at("2026-12-03T13:30"),
        endsAt: at("2026-12-03T14:30"),
        staffId: s.first.id,
      });
    });

    it(`${door}: moving later onto the next booking is refused and leaves the booking where it was`, async () => {
      const s = await withNextBooking();
      const refused = await move(s, "14:30").then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toMatchObject({ status: 409 });
      expect((await rowOf(s.booking.id)).startsAt).toEqual(at("2026-12-03T14:00"));
    });
  }

  it("a pending booking (仮予約, the salon's approval awaited) keeps its time out of the offered times", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
      settings: { requiresApproval: true },
    });
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const offered = async () => {
      const loaded = await loadAvailabilityInput(database.db, {
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: stylist.id,
        from: "2026-12-03",
        to: "2026-12-03",
        now: NOW,
      });
      return findAvailability(loaded.input)
        .flatMap((day) => day.slots)
        .map((slot) => slot.start.getTime());
    };
    expect(await offered()).toContain(at("2026-12-03T14:00").getTime());
    const visitor = await buildUser(database.db);
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylist.id,
      start: at("2026-12-03T14:00"),
      userId: visitor.id,
      now: NOW,
    });
    const pending = await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId: visitor.id,
      customer: {
        name: "仮予 花子",
        kana: "かりよ はなこ",
        phone: "090-1234-5678",
        email: `pending-${hold.id.slice(0, 8)}@example.jp`,
      },
      notes: "",
      idempotencyKey: null,
      now: NOW,
    });
    expect(pending).toMatchObject({ status: "confirmed", approval: "pending" });
    // The hold became the booking: what occupies the time now is the pending booking.
    const times = await offered();
    for (const taken of ["13:30", "14:00", "14:30"]) {
      expect(times, taken).not.toContain(at(`2026-12-03T${taken}`).getTime());
    }
    expect(times).toContain(at("2026-12-03T15:00").getTime());
    expect(times).toContain(at("2026-12-03T13:00").getTime());
  });
});
