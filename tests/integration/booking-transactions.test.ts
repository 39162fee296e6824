import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  cancelBooking,
  confirmBooking,
  getBookingForUser,
  holdSlot,
  listBookingsForUser,
} from "../../server/bookings/booking.server";
import {
  BookingNotFoundError,
  CancellationClosedError,
  CouponNotApplicableError,
  HoldExpiredError,
  IdempotencyKeyReusedError,
  SlotTakenError,
  SlotUnavailableError,
} from "../../server/bookings/booking-errors";
import { TooManyHoldsError } from "../../server/bookings/live-hold-limit.server";
import { bookingMenus, bookings, couponMenus, coupons } from "../../server/db/schema";
import { bookingClient } from "../support/booking-client";
import { buildBooking, buildMenu, buildSalonWithStaff, buildUser } from "../support/builders";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);
const minutesLater = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const customer = {
  name: "予約 花子",
  kana: "よやく はなこ",
  phone: "090-1234-5678",
  email: "hanako@example.jp",
};

async function outcome<T>(work: Promise<T>) {
  try {
    return { value: await work };
  } catch (error) {
    return { error };
  }
}

describe("holdSlot", () => {
  it("holds a time with price, duration and menu order from the database", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
      settings: { bufferAfterMinutes: 15 },
    });
    const color = await buildMenu(database.db, salon.id, {
      name: "カラー",
      price: 7000,
      durationMinutes: 90,
    });
    const user = await buildUser(database.db);
    const held = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [color.id, menu.id],
      staffId: stylists[0]?.id ?? null,
      start: at("2026-12-03T14:00"),
      userId: user.id,
      now: NOW,
    });
    expect(held.status).toBe("held");
    expect(held.holdExpiresAt).toEqual(minutesLater(10));
    expect(held.totalPrice).toBe(12_500);
    expect(held.endsAt).toEqual(at("2026-12-03T16:30"));
    expect(held.occupiedUntil).toEqual(at("2026-12-03T16:45"));
    expect(held.staffRequested).toBe(true);
    expect(held.bookingNumber).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const lines = await database.db
      .select({ name: bookingMenus.name, position: bookingMenus.position })
      .from(bookingMenus)
      .where(eq(bookingMenus.bookingId, held.id))
      .orderBy(bookingMenus.position);
    expect(lines).toEqual([
      { name: "カラー", position: 0 },
      { name: "カット", position: 1 },
    ]);
  });

  it("applies a coupon of the salon from the database, and refuses one that does not fit", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const color = await buildMenu(database.db, salon.id, { name: "カラー", price: 8000 });
    const [forColor, elsewhereCoupon] = await database.db
      .insert(coupons)
      .values([
        {
          salonId: salon.id,
          title: "カラー20%オフ",
          discountKind: "percent",
          discountValue: 20,
          validFrom: "2026-11-01",
        },
        {
          salonId: (await buildSalonWithStaff(database.db)).salon.id,
          title: "他店のクーポン",
          discountKind: "amount",
          discountValue: 1000,
          validFrom: "2026-11-01",
        },
      ])
      .returning();
    if (!forColor || !elsewhereCoupon) throw new Error("coupons");
    await database.db.insert(couponMenus).values({ couponId: forColor.id, menuId: color.id });
    const hold = (menuIds: string[], couponId: string) =>
      holdSlot(database.db, {
        ...bookingClient(database.db),
        salonId: salon.id,
        menuIds,
        staffId: stylists[0]?.id ?? null,
        start: at("2026-12-08T10:00"),
        userId: null,
        couponId,
        now: NOW,
      });
    expect((await outcome(hold([menu.id], forColor.id))).error).toBeInstanceOf(
      CouponNotApplicableError,
    );
    expect((await outcome(hold([menu.id], elsewhereCoupon.id))).error).toBeInstanceOf(
      CouponNotApplicableError,
    );
    const held = await hold([menu.id, color.id], forColor.id);
    expect(held.totalPrice).toBe(5500 + 6400);
    expect(held.couponId).toBe(forColor.id);
  });

  it("refuses a time the salon does not offer, and one inside the lead time", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const attempt = (start: Date) =>
      outcome(
        holdSlot(database.db, {
          ...bookingClient(database.db),
          salonId: salon.id,
          menuIds: [menu.id],
          staffId: stylists[0]?.id ?? null,
          start,
          userId: null,
          now: NOW,
        }),
      );
    expect((await attempt(at("2026-12-03T03:00"))).error).toBeInstanceOf(SlotUnavailableError);
    expect((await attempt(at("2026-12-03T19:30"))).error).toBeInstanceOf(SlotUnavailableError);
    expect((await attempt(at("2026-12-01T09:30"))).error).toBeInstanceOf(SlotUnavailableError);
  });

  // Races: PostgreSQL only, PGlite runs the attempts' transactions one after
  // another (transactionsTakeTurns); the tests after them inject the lost race.
  it.skipIf(transactionsTakeTurns)(
    "lets exactly one of 50 parallel attempts at one slot win",
    async () => {
      const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
      const attempts = await Promise.all(
        Array.from({ length: 50 }, () =>
          outcome(
            holdSlot(database.db, {
              ...bookingClient(database.db),
              salonId: salon.id,
              menuIds: [menu.id],
              staffId: stylists[0]?.id ?? null,
              start: at("2026-12-04T11:00"),
              userId: null,
              now: NOW,
            }),
          ),
        ),
      );
      const won = attempts.filter((a) => a.value);
      expect(won).toHaveLength(1);
      for (const lost of attempts.filter((a) => a.error)) {
        expect(lost.error).toBeInstanceOf(SlotTakenError);
      }
      expect(await database.db.$count(bookings, eq(bookings.salonId, salon.id))).toBe(1);
    },
  );

  it.skipIf(transactionsTakeTurns)(
    "gives 指名なし to exactly as many visitors as there are free stylists, under a race",
    async () => {
      const { salon, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
      const attempts = await Promise.all(
        Array.from({ length: 10 }, () =>
          outcome(
            holdSlot(database.db, {
              ...bookingClient(database.db),
              salonId: salon.id,
              menuIds: [menu.id],
              staffId: null,
              start: at("2026-12-04T15:00"),
              userId: null,
              now: NOW,
            }),
          ),
        ),
      );
      const won = attempts.flatMap((a) => (a.value ? [a.value] : []));
      expect(won).toHaveLength(2);
      expect(new Set(won.map((b) => b.staffId)).size).toBe(2);
      expect(won.every((b) => b.staffRequested === false)).toBe(true);
      for (const lost of attempts.filter((a) => a.error)) {
        expect(lost.error).toBeInstanceOf(SlotTakenError);
      }
    },
  );

  /**
   * Runs `work` while each insert into bookings first inserts, in the same
   * transaction, another visitor's hold of the same stylist and time (the
   * first `competitors` inserts only): what a competing transaction that
   * committed after this one read the availability leaves behind. The insert
   * then fails on bookings_staff_no_overlap with SQLSTATE 23P01, as the loser
   * of a real race does on PostgreSQL and as it never does on PGlite.
   * `inserts`: how many holds were attempted past the availability check.
   */
  async function withCompetitor<T>(competitors: number, work: () => Promise<T>) {
    const run = (statement: string) => database.db.execute(sql.raw(statement));
    await run("create sequence test_competitor_inserts");
    await run(`create function test_competitor() returns trigger language plpgsql as $$
      declare competitor bookings;
      begin
        if pg_trigger_depth() = 1 and nextval('test_competitor_inserts') <= ${competitors} then
          competitor := new;
          competitor.id := gen_random_uuid();
          competitor.booking_number := 'ZZZZ-ZZZZ';
          competitor.user_id := null;
          competitor.holder_key_hash := null;
          insert into bookings select competitor.*;
        end if;
        return new;
      end $$`);
    await run(`create trigger test_competitor before insert on bookings
      for each row execute function test_competitor()`);
    try {
      const result = await outcome(work());
      const counted = (await run(
        "select case when is_called then last_value else 0 end as n from test_competitor_inserts",
      )) as unknown as { rows: { n: string | number }[] };
      return { ...result, inserts: Number(counted.rows[0]?.n) };
    } finally {
      // On PGlite the next test files share this database.
      await run("drop trigger test_competitor on bookings");
      await run("drop function test_competitor()");
      await run("drop sequence test_competitor_inserts");
    }
  }

  it("answers SlotTakenError (409 slot_taken) to a hold whose insert loses a race (SQLSTATE 23P01)", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
    const lost = await withCompetitor(1, () =>
      holdSlot(database.db, {
        ...bookingClient(database.db),
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: stylists[0]?.id ?? null,
        start: at("2026-12-04T13:00"),
        userId: null,
        now: NOW,
      }),
    );
    // Past the availability check, which found the time free: the constraint decided.
    expect(lost.inserts).toBe(1);
    expect(lost.error).toBeInstanceOf(SlotTakenError);
    expect(lost.error).toMatchObject({ status: 409, code: "slot_taken" });
    expect(await database.db.$count(bookings, eq(bookings.salonId, salon.id))).toBe(0);
  });

  it("tries 指名なし again after a lost race (23P01), and answers SlotTakenError when every try loses", async () => {
    const { salon, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
    const hold = (time: string) =>
      holdSlot(database.db, {
        ...bookingClient(database.db),
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: null,
        start: at(`2026-12-04T${time}`),
        userId: null,
        now: NOW,
      });
    const retried = await withCompetitor(1, () => hold("13:00"));
    expect(retried.inserts).toBe(2);
    expect(retried.value).toMatchObject({ status: "held", staffRequested: false });
    const lost = await withCompetitor(1000, () => hold("15:00"));
    expect(lost.inserts).toBeGreaterThan(1);
    expect(lost.error).toBeInstanceOf(SlotTakenError);
    expect(await database.db.$count(bookings, eq(bookings.salonId, salon.id))).toBe(1);
  });

  it("gives 指名なし to the stylist with the fewest bookings that day", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 3 });
    const [first, second, third] = stylists;
    if (!first || !second || !third) throw new Error("three stylists");
    for (const [member, time] of [
      [first, "10:00"],
      [second, "11:00"],
      [first, "12:00"],
    ] as const) {
      await buildBooking(database.db, {
        salonId: salon.id,
        staffId: member.id,
        startsAt: at(`2026-12-05T${time}`),
        endsAt: at(`2026-12-05T${time.replace(":00", ":30")}`),
      });
    }
    const held = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: null,
      start: at("2026-12-05T16:00"),
      userId: null,
      now: NOW,
    });
    expect(held.staffId).toBe(third.id);
  });

  it("no longer counts an expired hold: a new hold wins and removes it in the same transaction", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const request = {
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylists[0]?.id ?? null,
      start: at("2026-12-06T13:00"),
      userId: null,
    };
    const first = await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      now: NOW,
    });
    const whileLive = await outcome(
      holdSlot(database.db, {
        ...bookingClient(database.db),
        ...request,
        now: minutesLater(9),
      }),
    );
    expect(whileLive.error).toBeInstanceOf(SlotTakenError);
    const second = await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      now: minutesLater(10),
    });
    expect(second.id).not.toBe(first.id);
    const old = await database.db.select().from(bookings).where(eq(bookings.id, first.id));
    expect(old).toEqual([]);
  });

  it("releases the visitor's earlier hold at the salon when they pick another time", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const user = await buildUser(database.db);
    const request = {
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylists[0]?.id ?? null,
      userId: user.id,
      now: NOW,
    };
    await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      start: at("2026-12-06T10:00"),
    });
    await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      start: at("2026-12-06T12:00"),
    });
    const held = () =>
      database.db
        .select({ startsAt: bookings.startsAt })
        .from(bookings)
        .where(and(eq(bookings.userId, user.id), eq(bookings.status, "held")));
    expect(await held()).toEqual([{ startsAt: at("2026-12-06T12:00") }]);
    // Picking the same time again (back button, second click) is not a lost race.
    await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      start: at("2026-12-06T12:00"),
    });
    expect(await held()).toEqual([{ startsAt: at("2026-12-06T12:00") }]);
  });
});

describe("live hold limits", () => {
  const limited = (
    liveHolds: Partial<Record<"perAccount" | "perBrowser" | "perGuestIp", number>>,
    ip?: string,
  ) =>
    bookingClient(database.db, {
      ip,
      liveHolds: { perAccount: 100, perBrowser: 100, perGuestIp: 100, ...liveHolds },
    });
  const salons = (n: number) =>
    Promise.all(Array.from({ length: n }, () => buildSalonWithStaff(database.db)));
  const holdAt = (
    fixture: Awaited<ReturnType<typeof buildSalonWithStaff>>,
    client: ReturnType<typeof limited>,
    who: { userId: string | null; browserKey?: string | null },
    time = "14:00",
    now = NOW,
  ) =>
    holdSlot(database.db, {
      ...client,
      salonId: fixture.salon.id,
      menuIds: [fixture.menu.id],
      staffId: null,
      start: at(`2026-12-03T${time}`),
      ...who,
      now,
    });

  it("caps a member's live holds across salons; re-picking at a salon and lapsed holds do not count", async () => {
    const [a, b, c] = await salons(3);
    if (!a || !b || !c) throw new Error("no salons");
    const user = await buildUser(database.db);
    const client = limited({ perAccount: 2 });
    await holdAt(a, client, { userId: user.id });
    await holdAt(b, client, { userId: user.id });
    const third = await outcome(holdAt(c, client, { userId: user.id }));
    expect(third.error).toBeInstanceOf(TooManyHoldsError);
    const error = third.error as TooManyHoldsError;
    expect(error).toMatchObject({ status: 429, code: "too_many_holds" });
    expect(error.details).toMatchObject({ retryAfter: 600, limit: 2 });
    expect(error.message).toMatch(/上限（同時に2件まで）.*約10分後/);
    // Another time at a salon already held replaces that hold.
    const repicked = await holdAt(a, client, { userId: user.id }, "16:00", minutesLater(1));
    expect(repicked.startsAt).toEqual(at("2026-12-03T16:00"));
    // Once the first holds lapse, there is room again.
    await holdAt(c, client, { userId: user.id }, "14:00", minutesLater(10));
    // Another member is not affected.
    await holdAt(c, client, { userId: (await buildUser(database.db)).id }, "17:00");
  });

  it("caps guests' live holds per address (a fresh browser key each time) and per browser key", async () => {
    const [a, b, c] = await salons(3);
    if (!a || !b || !c) throw new Error("no salons");
    const byAddress = limited({ perGuestIp: 2 }, "198.51.100.7");
    const fresh = () => ({ userId: null, browserKey: randomBytes(32).toString("base64url") });
    await holdAt(a, byAddress, fresh());
    await holdAt(a, byAddress, fresh(), "15:00");
    const third = await outcome(holdAt(b, byAddress, fresh()));
    expect(third.error).toBeInstanceOf(TooManyHoldsError);
    const [stored] = await database.db
      .select({ holderIp: bookings.holderIp })
      .from(bookings)
      .where(and(eq(bookings.salonId, a.salon.id), eq(bookings.status, "held")));
    expect(stored?.holderIp).toBe("198.51.100.7");
    // Another address, and a member at the same address, hold as before.
    await holdAt(b, limited({ perGuestIp: 2 }, "198.51.100.8"), fresh());
    await holdAt(b, byAddress, { userId: (await buildUser(database.db)).id }, "16:00");

    // One browser key moving between addresses is counted by its key.
    const key = randomBytes(32).toString("base64url");
    const byBrowser = (ip: string) => limited({ perBrowser: 2 }, ip);
    await holdAt(a, byBrowser("198.51.100.20"), { userId: null, browserKey: key }, "18:00");
    await holdAt(b, byBrowser("198.51.100.21"), { userId: null, browserKey: key }, "18:00");
    const over = await outcome(
      holdAt(c, byBrowser("198.51.100.22"), { userId: null, browserKey: key }, "18:00"),
    );
    expect(over.error).toBeInstanceOf(TooManyHoldsError);
    // The same browser picking another time at a salon it holds is a replacement.
    await holdAt(a, byBrowser("198.51.100.23"), { userId: null, browserKey: key }, "19:00");
  });

  it("lets only the allowed number of simultaneous holds of one member through", async () => {
    const fixtures = await salons(4);
    const user = await buildUser(database.db);
    const client = limited({ perAccount: 2 });
    const results = await Promise.all(
      fixtures.map((fixture) => outcome(holdAt(fixture, client, { userId: user.id }))),
    );
    expect(results.filter((r) => "value" in r)).toHaveLength(2);
    expect(results.filter((r) => r.error instanceof TooManyHoldsError)).toHaveLength(2);
  });
});

describe("confirmBooking and cancelBooking", () => {
  async function heldBooking(start = at("2026-12-10T14:00")) {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const user = await buildUser(database.db);
    const request = {
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylists[0]?.id ?? null,
      start,
      userId: user.id,
    };
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      now: NOW,
    });
    return { salon, user, hold, request };
  }

  /** A held booking, confirmed a minute later with no notes. */
  async function confirmedBooking() {
    const held = await heldBooking();
    await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: held.hold.id,
      userId: held.user.id,
      customer,
      notes: "",
      idempotencyKey: null,
      now: minutesLater(1),
    });
    return held;
  }

  it("confirms a hold once per idempotency key", async () => {
    const { salon, user, hold } = await heldBooking();
    const confirm = () =>
      confirmBooking(database.db, {
        ...bookingClient(database.db),
        holdId: hold.id,
        userId: user.id,
        customer,
        notes: "前髪は短めに",
        idempotencyKey: "form-1",
        now: minutesLater(5),
      });
    const first = await confirm();
    const second = await confirm();
    const third = await confirm();
    expect(first.id).toBe(hold.id);
    expect(second.id).toBe(hold.id);
    expect(third.id).toBe(hold.id);
    expect(first.status).toBe("confirmed");
    expect(first.holdExpiresAt).toBeNull();
    expect(first.customerKana).toBe("よやく はなこ");
    expect(await database.db.$count(bookings, eq(bookings.salonId, salon.id))).toBe(1);
  });

  // A race: PostgreSQL only (transactionsTakeTurns); the test above is its turn-taking form.
  it.skipIf(transactionsTakeTurns)(
    "confirms a hold once for two simultaneous submissions with one key",
    async () => {
      const { salon, user, hold } = await heldBooking();
      const confirm = () =>
        confirmBooking(database.db, {
          ...bookingClient(database.db),
          holdId: hold.id,
          userId: user.id,
          customer,
          notes: "",
          idempotencyKey: "form-1",
          now: minutesLater(5),
        });
      const both = await Promise.all([confirm(), confirm()]);
      expect(both.map((booking) => [booking.id, booking.status])).toEqual([
        [hold.id, "confirmed"],
        [hold.id, "confirmed"],
      ]);
      expect(await database.db.$count(bookings, eq(bookings.salonId, salon.id))).toBe(1);
    },
  );

  it("scopes an idempotency key to its user: another customer's same key books their own hold", async () => {
    const { salon, user, hold, request } = await heldBooking();
    const confirmWith = (userId: string, holdId: string) =>
      confirmBooking(database.db, {
        ...bookingClient(database.db),
        holdId,
        userId,
        customer,
        notes: "",
        idempotencyKey: "shared-key-0001",
        now: minutesLater(1),
      });
    await confirmWith(user.id, hold.id);
    const other = await buildUser(database.db);
    const otherHold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      start: at("2026-12-10T16:00"),
      userId: other.id,
      now: NOW,
    });
    const theirs = await confirmWith(other.id, otherHold.id);
    expect(theirs).toMatchObject({ id: otherHold.id, status: "confirmed", userId: other.id });
    expect(
      await database.db.$count(
        bookings,
        and(eq(bookings.salonId, salon.id), eq(bookings.status, "confirmed")),
      ),
    ).toBe(2);
  });

  it("refuses a key the same user already confirmed another hold with (422), at any salon", async () => {
    const { user, hold, request } = await heldBooking();
    const confirmWith = (holdId: string) =>
      confirmBooking(database.db, {
        ...bookingClient(database.db),
        holdId,
        userId: user.id,
        customer,
        notes: "",
        idempotencyKey: "reused-key-0001",
        now: minutesLater(1),
      });
    await confirmWith(hold.id);
    const second = await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      start: at("2026-12-11T14:00"),
      now: NOW,
    });
    const reused = await outcome(confirmWith(second.id));
    expect(reused.error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect((reused.error as IdempotencyKeyReusedError).status).toBe(422);
    expect((reused.error as Error).message).toMatch(/別の予約/);
    const [left] = await database.db.select().from(bookings).where(eq(bookings.id, second.id));
    expect(left?.status).toBe("held");
    // Another salon: the key is still this user's, and still used.
    const elsewhere = await buildSalonWithStaff(database.db);
    const third = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: elsewhere.salon.id,
      menuIds: [elsewhere.menu.id],
      staffId: null,
      start: at("2026-12-10T14:00"),
      userId: user.id,
      now: NOW,
    });
    expect((await outcome(confirmWith(third.id))).error).toBeInstanceOf(IdempotencyKeyReusedError);
    // The first hold replayed with its key is still the same booking.
    expect((await confirmWith(hold.id)).id).toBe(hold.id);
  });

  it("refuses an expired hold, and a hold of someone else", async () => {
    const { user, hold } = await heldBooking();
    const late = await outcome(
      confirmBooking(database.db, {
        ...bookingClient(database.db),
        holdId: hold.id,
        userId: user.id,
        customer,
        notes: "",
        idempotencyKey: null,
        now: minutesLater(10),
      }),
    );
    expect(late.error).toBeInstanceOf(HoldExpiredError);
    const stranger = await buildUser(database.db);
    const foreign = await outcome(
      confirmBooking(database.db, {
        ...bookingClient(database.db),
        holdId: hold.id,
        userId: stranger.id,
        customer,
        notes: "",
        idempotencyKey: null,
        now: minutesLater(1),
      }),
    );
    expect(foreign.error).toBeInstanceOf(HoldExpiredError);
  });

  it("cancels before the cutoff and frees the time at once", async () => {
    const { user, hold, request } = await confirmedBooking();
    const stranger = await buildUser(database.db);
    const foreign = await outcome(
      cancelBooking(database.db, {
        bookingId: hold.id,
        userId: stranger.id,
        reason: "",
        now: NOW,
      }),
    );
    expect(foreign.error).toBeInstanceOf(BookingNotFoundError);
    const cancelled = await cancelBooking(database.db, {
      bookingId: hold.id,
      userId: user.id,
      reason: "予定が入ったため",
      now: minutesLater(2),
    });
    expect(cancelled.status).toBe("cancelled_by_user");
    expect(cancelled.cancelledBy).toBe("user");
    expect(cancelled.cancelledAt).toEqual(minutesLater(2));
    const other = await buildUser(database.db);
    const again = await holdSlot(database.db, {
      ...bookingClient(database.db),
      ...request,
      userId: other.id,
      now: minutesLater(3),
    });
    expect(again.startsAt).toEqual(request.start);
  });

  it("refuses to cancel after the cutoff (24 hours before the start by default)", async () => {
    const { user, hold } = await heldBooking(at("2026-12-02T12:00"));
    await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId: user.id,
      customer,
      notes: "",
      idempotencyKey: null,
      now: minutesLater(1),
    });
    const late = await outcome(
      cancelBooking(database.db, {
        bookingId: hold.id,
        userId: user.id,
        reason: "",
        now: at("2026-12-01T12:01"),
      }),
    );
    expect(late.error).toBeInstanceOf(CancellationClosedError);
    const onTime = await cancelBooking(database.db, {
      bookingId: hold.id,
      userId: user.id,
      reason: "",
      now: at("2026-12-01T12:00"),
    });
    expect(onTime.status).toBe("cancelled_by_user");
  });

  it("lists and shows only the visitor's own bookings", async () => {
    const { user, hold, salon } = await confirmedBooking();
    const { upcoming, past } = await listBookingsForUser(database.db, {
      userId: user.id,
      now: NOW,
    });
    expect(upcoming.map((b) => b.id)).toEqual([hold.id]);
    expect(upcoming[0]?.salon.id).toBe(salon.id);
    expect(upcoming[0]?.menus.map((m) => m.name)).toEqual(["カット"]);
    expect(past).toEqual([]);
    const later = await listBookingsForUser(database.db, {
      userId: user.id,
      now: at("2026-12-11T00:00"),
    });
    expect(later.past.map((b) => b.id)).toEqual([hold.id]);
    const detail = await getBookingForUser(database.db, { bookingId: hold.id, userId: user.id });
    expect(detail.customer.name).toBe("予約 花子");
    const stranger = await buildUser(database.db);
    const foreign = await outcome(
      getBookingForUser(database.db, { bookingId: hold.id, userId: stranger.id }),
    );
    expect(foreign.error).toBeInstanceOf(BookingNotFoundError);
  });
});
