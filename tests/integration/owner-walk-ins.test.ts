import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as entryRoute from "../../app/routes/owner.salons.$id.bookings.new";
import { toLocal } from "../../common/local-time";
import { adminDashboard } from "../../server/admin/dashboard";
import { findAvailability } from "../../server/bookings/availability";
import { loadAvailabilityInput } from "../../server/bookings/availability-data.server";
import { holdSlot, listBookingsForUser } from "../../server/bookings/booking.server";
import { listBookingEvents } from "../../server/bookings/booking-history.server";
import { bookingJobHandlers } from "../../server/bookings/booking-jobs.server";
import {
  bookingMenus,
  bookings,
  jobs,
  mailOutbox,
  salonCustomers,
  salonFreeDays,
  salonOwners,
  salons,
  scheduleExceptions,
  users,
} from "../../server/db/schema";
import type { DomainError } from "../../server/errors/domain-error";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import {
  type BlockInput,
  blockSchema,
  type SalonBookingInput,
  salonBookingSchema,
} from "../../server/owner/salon-entries.schema";
import {
  blockTime,
  enterSalonBooking,
  findCustomers,
} from "../../server/owner/salon-entries.server";
import type { SalonEntryPageData } from "../../server/owner/salon-entry-form.server";
import { createSlotEvents, type SlotEvent } from "../../server/realtime/slot-events.server";
import { browser, ORIGIN, setRole } from "../support/accounts";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import { buildMenu, buildSalonWithStaff, buildUser } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { Inbox } from "../support/inbox";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const DAY = "2026-12-03";
const at = (local: string) => new Date(`${local}:00+09:00`);

async function outcome<T>(work: Promise<T>) {
  try {
    return { value: await work, error: undefined };
  } catch (error) {
    return { value: undefined, error: error as DomainError };
  }
}

/** A salon (10:00–20:00 every day), two stylists, a 60-minute cut, and its owner. */
async function salonFixture(
  settings?: NonNullable<Parameters<typeof buildSalonWithStaff>[1]>["settings"],
) {
  const fixture = await buildSalonWithStaff(database.db, { staffCount: 2, settings });
  const owner = await buildUser(database.db, { role: "owner" });
  await database.db.insert(salonOwners).values({ salonId: fixture.salon.id, userId: owner.id });
  const [first, second] = fixture.stylists;
  if (!first || !second) throw new Error("no stylists");
  return { ...fixture, owner, first, second, actor: { userId: owner.id } };
}

type Fixture = Awaited<ReturnType<typeof salonFixture>>;

const bookingInput = (f: Fixture, overrides: Record<string, unknown> = {}): SalonBookingInput =>
  salonBookingSchema.parse({
    source: "phone",
    staffId: f.first.id,
    date: DAY,
    time: "14:00",
    menuIds: [f.menu.id],
    customer: { name: "電話 太郎", kana: "でんわ たろう", phone: "090-1111-2222" },
    ...overrides,
  });

const blockInput = (f: Fixture, overrides: Record<string, unknown> = {}): BlockInput =>
  blockSchema.parse({
    staffId: f.first.id,
    date: DAY,
    from: "12:00",
    to: "13:00",
    reason: "break",
    ...overrides,
  });

const bookingsOf = (salonId: string) =>
  database.db.select().from(bookings).where(eq(bookings.salonId, salonId));

/** The web's free start times of a stylist for the salon's 60-minute menu on DAY. */
async function webTimes(f: Fixture, staffId: string) {
  const loaded = await loadAvailabilityInput(database.db, {
    salonId: f.salon.id,
    menuIds: [f.menu.id],
    staffId,
    from: DAY,
    to: DAY,
    now: NOW,
  });
  return findAvailability(loaded.input).flatMap((day) => day.slots.map((slot) => slot.time));
}

describe("blocks and salon status in the web's free times", () => {
  it("a block takes its own time only: no buffer after it, and it uses none of the daily limit", async () => {
    const f = await salonFixture({ bufferAfterMinutes: 30, dailyLimitPerStaff: 1 });
    await blockTime(database.db, f.salon.id, blockInput(f), f.actor, NOW);
    const times = await webTimes(f, f.first.id);
    // Right after the 12:00–13:00 break: no clean-up follows a break…
    expect(times).toContain("13:00");
    // …while a booking still keeps its own buffer before the break.
    expect(times).not.toContain("11:00");
    expect(times).toContain("10:30");
    // One booking that day reaches the limit of one: the block did not.
    await enterSalonBooking(
      database.db,
      f.salon.id,
      bookingInput(f, { time: "15:00" }),
      f.actor,
      NOW,
    );
    expect(await webTimes(f, f.first.id)).toEqual([]);
  });

  it("takes a phone booking at a draft salon, and none at a suspended one", async () => {
    const f = await salonFixture();
    await database.db.update(salons).set({ status: "draft" }).where(eq(salons.id, f.salon.id));
    const booking = await enterSalonBooking(database.db, f.salon.id, bookingInput(f), f.actor, NOW);
    expect(booking).toMatchObject({ status: "confirmed", source: "phone" });
    await database.db.update(salons).set({ status: "suspended" }).where(eq(salons.id, f.salon.id));
    const refused = await outcome(
      enterSalonBooking(database.db, f.salon.id, bookingInput(f, { time: "16:00" }), f.actor, NOW),
    );
    expect(refused.error?.status).toBe(422);
    expect(refused.error?.message).toContain("利用停止中");
  });
});

describe("enterSalonBooking", () => {
  it("enters a phone booking for a new customer: record, snapshot, menus, history, version 1", async () => {
    const f = await salonFixture({ bufferAfterMinutes: 15 });
    const color = await buildMenu(database.db, f.salon.id, {
      name: "カラー",
      price: 7000,
      durationMinutes: 90,
    });
    const booking = await enterSalonBooking(
      database.db,
      f.salon.id,
      bookingInput(f, { menuIds: [color.id, f.menu.id] }),
      f.actor,
      NOW,
    );
    expect(booking).toMatchObject({
      kind: "booking",
      status: "confirmed",
      source: "phone",
      userId: null,
      staffId: f.first.id,
      startsAt: at("2026-12-03T14:00"),
      endsAt: at("2026-12-03T16:30"),
      occupiedUntil: at("2026-12-03T16:45"),
      totalPrice: 12_500,
      customerName: "電話 太郎",
      customerKana: "デンワ タロウ",
      customerPhone: "09011112222",
      customerEmail: "",
      version: 1,
    });
    const [record] = await database.db
      .select()
      .from(salonCustomers)
      .where(eq(salonCustomers.salonId, f.salon.id));
    expect(record).toMatchObject({
      name: "電話 太郎",
      kana: "デンワ タロウ",
      phone: "09011112222",
    });
    expect(booking.customerId).toBe(record?.id);
    const lines = await database.db
      .select({ name: bookingMenus.name })
      .from(bookingMenus)
      .where(eq(bookingMenus.bookingId, booking.id))
      .orderBy(bookingMenus.position);
    expect(lines.map((line) => line.name)).toEqual(["カラー", "カット"]);
    const events = await listBookingEvents(database.db, {
      salonId: f.salon.id,
      bookingId: booking.id,
    });
    expect(events).toMatchObject([
      { kind: "created", actorKind: "salon", details: { source: "phone" } },
    ]);
    // No address: no mail, no reminder.
    expect(await database.db.select().from(jobs).where(eq(jobs.salonId, f.salon.id))).toEqual([]);
  });

  it("enters a walk-in starting now, before the web's lead time, and takes the time from the web", async () => {
    const f = await salonFixture({ leadTimeMinutes: 120 });
    const now = at("2026-12-03T11:02");
    const booking = await enterSalonBooking(
      database.db,
      f.salon.id,
      bookingInput(f, { source: "walk_in", time: "11:00" }),
      f.actor,
      now,
    );
    expect(booking.source).toBe("walk_in");
    expect(booking.startsAt).toEqual(at("2026-12-03T11:00"));
    const loaded = await loadAvailabilityInput(database.db, {
      salonId: f.salon.id,
      menuIds: [f.menu.id],
      staffId: f.first.id,
      from: DAY,
      to: DAY,
      now: NOW,
    });
    const times = findAvailability(loaded.input).flatMap((day) => day.slots.map((s) => s.time));
    expect(times).not.toContain("11:00");
    expect(times).not.toContain("10:30");
    expect(times).toContain("12:00");
  });

  it("books a known customer found by phone (prefix) and by kana, on the top of the merge chain", async () => {
    const f = await salonFixture();
    const member = await buildUser(database.db);
    const [kept, merged] = await database.db
      .insert(salonCustomers)
      .values([
        {
          salonId: f.salon.id,
          userId: member.id,
          name: "常連 花子",
          kana: "ジョウレン ハナコ",
          phone: "09033334444",
          email: "regular@example.jp",
        },
        { salonId: f.salon.id, name: "常連 花子", kana: "ジョウレン ハナコ", phone: "0312345678" },
      ])
      .returning();
    if (!kept || !merged) throw new Error("no customers");
    await database.db
      .update(salonCustomers)
      .set({ mergedIntoId: kept.id, mergedAt: NOW })
      .where(eq(salonCustomers.id, merged.id));
    // Another salon's customer with the same phone is never found.
    const other = await salonFixture();
    await database.db.insert(salonCustomers).values({
      salonId: other.salon.id,
      name: "他店 花子",
      kana: "タテン ハナコ",
      phone: "09033334444",
    });

    const byPhone = await findCustomers(database.db, f.salon.id, "090-3333");
    expect(byPhone.map((c) => c.id)).toEqual([kept.id]);
    expect(byPhone[0]).toMatchObject({ hasAccount: true, email: "regular@example.jp" });
    expect((await findCustomers(database.db, f.salon.id, "じょうれん")).map((c) => c.id)).toEqual([
      kept.id,
    ]);
    expect((await findCustomers(database.db, f.salon.id, "ﾊﾅｺ")).map((c) => c.id)).toEqual([
      kept.id,
    ]);
    expect((await findCustomers(database.db, f.salon.id, "常連")).map((c) => c.id)).toEqual([
      kept.id,
    ]);
    expect(await findCustomers(database.db, f.salon.id, "%")).toEqual([]);
    expect(await findCustomers(database.db, f.salon.id, "  ")).toEqual([]);

    // Picking the merged-away record books the person it was merged into.
    const booking = await enterSalonBooking(
      database.db,
      f.salon.id,
      bookingInput(f, { customer: undefined, customerId: merged.id }),
      f.actor,
      NOW,
    );
    expect(booking).toMatchObject({
      customerId: kept.id,
      userId: member.id,
      customerName: "常連 花子",
      customerPhone: "09033334444",
      customerEmail: "regular@example.jp",
    });
    // It is theirs: their history lists it.
    const history = await listBookingsForUser(database.db, { userId: member.id, now: NOW });
    expect(history.upcoming.map((b) => b.id)).toEqual([booking.id]);

    // Another salon's record cannot be picked.
    const foreign = await outcome(
      enterSalonBooking(
        database.db,
        other.salon.id,
        bookingInput(other, { customer: undefined, customerId: kept.id }),
        other.actor,
        NOW,
      ),
    );
    expect(foreign.error?.status).toBe(400);
    expect(foreign.error?.message).toContain("お客様が見つかりません");
  });

  it("refuses a time outside the stylist's schedule without the confirmation, accepts it with", async () => {
    const f = await salonFixture();
    await database.db.insert(scheduleExceptions).values({
      salonId: f.salon.id,
      staffId: f.first.id,
      date: DAY,
      kind: "closed",
    });
    const refused = await outcome(
      enterSalonBooking(database.db, f.salon.id, bookingInput(f), f.actor, NOW),
    );
    expect(refused.error?.status).toBe(422);
    expect(refused.error?.code).toBe("outside_schedule");
    expect(refused.error?.message).toContain(
      "スタイリスト1さんは14:00〜15:00の出勤予定がありません",
    );
    // Past closing (19:30–20:30) is outside too.
    const late = await outcome(
      enterSalonBooking(
        database.db,
        f.salon.id,
        bookingInput(f, { staffId: f.second.id, time: "19:30" }),
        f.actor,
        NOW,
      ),
    );
    expect(late.error?.code).toBe("outside_schedule");
    expect(await bookingsOf(f.salon.id)).toHaveLength(0);

    const accepted = await enterSalonBooking(
      database.db,
      f.salon.id,
      bookingInput(f, { allowOutsideSchedule: true }),
      f.actor,
      NOW,
    );
    expect(accepted.status).toBe("confirmed");
  });

  it("refuses to overlap a booking, a live hold or a block, naming what is in the way", async () => {
    const f = await salonFixture();
    await enterSalonBooking(
      database.db,
      f.salon.id,
      bookingInput(f, {
        time: "14:00",
        customer: { name: "先客 一郎", kana: "センキャク イチロウ", phone: "09055556666" },
      }),
      f.actor,
      NOW,
    );
    const overBooking = await outcome(
      enterSalonBooking(database.db, f.salon.id, bookingInput(f, { time: "14:30" }), f.actor, NOW),
    );
    expect(overBooking.error?.status).toBe(409);
    expect(overBooking.error?.message).toContain(
      "14:00〜15:00の先客 一郎様の予約（カット）と重なっています",
    );

    const visitor = await buildUser(database.db);
    await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: f.salon.id,
      menuIds: [f.menu.id],
      staffId: f.second.id,
      start: at("2026-12-03T16:00"),
      userId: visitor.id,
      now: NOW,
    });
    const overHold = await outcome(
      enterSalonBooking(
        database.db,
        f.salon.id,
        bookingInput(f, { staffId: f.second.id, time: "16:15" }),
        f.actor,
        NOW,
      ),
    );
    expect(overHold.error?.status).toBe(409);
    expect(overHold.error?.message).toContain("16:00〜17:00のWeb予約の仮押さえ");

    await blockTime(
      database.db,
      f.salon.id,
      blockInput(f, { from: "17:00", to: "18:00", reason: "meeting", text: "店長と面談" }),
      f.actor,
      NOW,
    );
    const overBlock = await outcome(
      enterSalonBooking(database.db, f.salon.id, bookingInput(f, { time: "16:30" }), f.actor, NOW),
    );
    expect(overBlock.error?.status).toBe(409);
    expect(overBlock.error?.message).toContain("17:00〜18:00のブロック「打ち合わせ：店長と面談」");
    expect(overBlock.error?.details).toMatchObject({
      conflicts: [{ kind: "block", label: "打ち合わせ：店長と面談" }],
    });
    // A block over a booking is refused the same way.
    const blockOverBooking = await outcome(
      blockTime(
        database.db,
        f.salon.id,
        blockInput(f, { from: "14:45", to: "15:15" }),
        f.actor,
        NOW,
      ),
    );
    expect(blockOverBooking.error?.status).toBe(409);
    expect(blockOverBooking.error?.message).toContain("先客 一郎様の予約");
  });

  it("clears an expired hold in the way instead of refusing", async () => {
    const f = await salonFixture();
    const visitor = await buildUser(database.db);
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: f.salon.id,
      menuIds: [f.menu.id],
      staffId: f.first.id,
      start: at("2026-12-03T14:00"),
      userId: visitor.id,
      now: NOW,
    });
    const later = new Date(NOW.getTime() + 11 * 60_000);
    const booking = await enterSalonBooking(
      database.db,
      f.salon.id,
      bookingInput(f),
      f.actor,
      later,
    );
    expect(booking.startsAt).toEqual(at("2026-12-03T14:00"));
    expect(await database.db.select().from(bookings).where(eq(bookings.id, hold.id))).toEqual([]);
  });

  it("refuses another salon's stylist, an unknown menu and a menu the stylist does not do", async () => {
    const f = await salonFixture();
    const other = await salonFixture();
    const foreignStaff = await outcome(
      enterSalonBooking(
        database.db,
        f.salon.id,
        bookingInput(f, { staffId: other.first.id }),
        f.actor,
        NOW,
      ),
    );
    expect(foreignStaff.error?.status).toBe(400);
    expect(foreignStaff.error?.message).toMatch(/スタイリスト/);
    const foreignMenu = await outcome(
      enterSalonBooking(
        database.db,
        f.salon.id,
        bookingInput(f, { menuIds: [other.menu.id] }),
        f.actor,
        NOW,
      ),
    );
    expect(foreignMenu.error?.status).toBe(400);
    expect(foreignMenu.error?.message).toMatch(/メニュー/);
    const foreignBlock = await outcome(
      blockTime(database.db, f.salon.id, blockInput(f, { staffId: other.first.id }), f.actor, NOW),
    );
    expect(foreignBlock.error?.status).toBe(400);
    const farAway = await outcome(
      enterSalonBooking(
        database.db,
        f.salon.id,
        bookingInput(f, { date: "2028-01-01" }),
        f.actor,
        NOW,
      ),
    );
    expect(farAway.error?.status).toBe(422);
    expect(await bookingsOf(f.salon.id)).toHaveLength(0);
  });

  it.skipIf(transactionsTakeTurns)(
    "a web hold and a salon walk-in for the same stylist and time at once: exactly one row",
    async () => {
      for (let round = 0; round < 5; round++) {
        const f = await salonFixture();
        const visitor = await buildUser(database.db);
        const results = await Promise.allSettled([
          holdSlot(database.db, {
            ...bookingClient(database.db),
            salonId: f.salon.id,
            menuIds: [f.menu.id],
            staffId: f.first.id,
            start: at("2026-12-03T14:00"),
            userId: visitor.id,
            now: NOW,
          }),
          enterSalonBooking(
            database.db,
            f.salon.id,
            bookingInput(f, { source: "walk_in" }),
            f.actor,
            NOW,
          ),
        ]);
        const rows = await database.db
          .select()
          .from(bookings)
          .where(and(eq(bookings.salonId, f.salon.id), eq(bookings.staffId, f.first.id)));
        expect(rows).toHaveLength(1);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const failed = results.find((r) => r.status === "rejected");
        expect((failed as PromiseRejectedResult).reason.status).toBe(409);
      }
    },
  );

  it("mails the customer of a walk-in with an address, and never the salon", async () => {
    const f = await salonFixture();
    const booking = await enterSalonBooking(
      database.db,
      f.salon.id,
      bookingInput(f, {
        source: "walk_in",
        customer: {
          name: "来店 次郎",
          kana: "ライテン ジロウ",
          phone: "03-1234-5678",
          email: "Walk.In@Example.jp",
        },
      }),
      f.actor,
      NOW,
    );
    // The snapshot keeps the address as given; the record compares it in lower case.
    expect(booking.customerEmail).toBe("Walk.In@Example.jp");
    const worker = createJobWorker({
      db: database.db,
      handlers: bookingJobHandlers({
        mailFrom: "Salon Navi <no-reply@salon.example.jp>",
        publicUrl: "https://salon.example.jp",
      }),
      log: createLogger("silent"),
      now: () => NOW,
    });
    await worker.runOnce();
    const mails = await database.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.to, ["Walk.In@Example.jp", f.owner.email]));
    expect(mails.map((mail) => mail.to)).toEqual(["Walk.In@Example.jp"]);
    expect(mails[0]?.text).toContain(booking.bookingNumber);
    expect(mails[0]?.attachments).toHaveLength(1);
  });
});

describe("blockTime", () => {
  it("blocks time: a 'block' row without customer or menus, history, hidden from the web", async () => {
    const f = await salonFixture();
    expect(await webTimes(f, f.first.id)).toContain("12:00");
    const block = await blockTime(
      database.db,
      f.salon.id,
      blockInput(f, { from: "12:00", to: "13:30" }),
      f.actor,
      NOW,
    );
    expect(block).toMatchObject({
      kind: "block",
      status: "confirmed",
      userId: null,
      customerId: null,
      totalPrice: 0,
      salonNote: "休憩",
      startsAt: at("2026-12-03T12:00"),
      endsAt: at("2026-12-03T13:30"),
      occupiedUntil: at("2026-12-03T13:30"),
      version: 1,
    });
    expect(block.bookingNumber).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(
      await database.db.select().from(bookingMenus).where(eq(bookingMenus.bookingId, block.id)),
    ).toEqual([]);
    const events = await listBookingEvents(database.db, {
      salonId: f.salon.id,
      bookingId: block.id,
    });
    expect(events).toMatchObject([
      { kind: "created", actorKind: "salon", details: { label: "休憩" } },
    ]);

    const times = await webTimes(f, f.first.id);
    for (const time of ["11:15", "11:30", "12:00", "12:45", "13:00"])
      expect(times).not.toContain(time);
    expect(times).toContain("11:00");
    expect(times).toContain("13:30");
    // The other stylist is untouched.
    expect(await webTimes(f, f.second.id)).toContain("12:00");
  });

  it("does not show a block as a booking: no history entry for anyone, not counted by the admin", async () => {
    const f = await salonFixture();
    const before = await adminDashboard(database.db, at("2026-12-03T08:00"), "Asia/Tokyo");
    await blockTime(database.db, f.salon.id, blockInput(f, { reason: "training" }), f.actor, NOW);
    const after = await adminDashboard(database.db, at("2026-12-03T08:00"), "Asia/Tokyo");
    expect(after.counts.bookingsToday).toBe(before.counts.bookingsToday);
    expect(after.latestBookings.map((b) => b.id)).toEqual(before.latestBookings.map((b) => b.id));
    expect(await database.db.select().from(jobs).where(eq(jobs.salonId, f.salon.id))).toEqual([]);
  });

  it("checks the block's own input: times in order, the label list, 50 characters of text", () => {
    const f = { first: { id: "6a1f0c1e-8a55-4f0b-9d0e-6f0a1b2c3d4e" } } as Fixture;
    const parse = (overrides: Record<string, unknown>) =>
      blockSchema.safeParse({
        staffId: f.first.id,
        date: DAY,
        from: "12:00",
        to: "13:00",
        reason: "break",
        ...overrides,
      });
    expect(parse({}).success).toBe(true);
    expect(parse({ to: "11:00" }).error?.issues[0]?.message).toBe(
      "終了時刻は開始時刻より後にしてください。",
    );
    expect(parse({ from: "25:00" }).error?.issues[0]?.message).toMatch(/HH:MM/);
    expect(parse({ reason: "nap" }).error?.issues[0]?.message).toMatch(/休憩/);
    expect(parse({ text: "あ".repeat(51) }).error?.issues[0]?.message).toMatch(/50文字/);
    expect(parse({ date: "2026-02-30" }).error?.issues[0]?.message).toMatch(/YYYY-MM-DD/);
  });
});

describe("the entry page /owner/salons/:id/bookings/new", () => {
  const routeEnv = () =>
    createRouteApp(database, [{ path: "/owner/salons/:id/bookings/new", module: entryRoute }]);
  /** Two days from the real clock (the page reads it), in Tokyo. */
  const soon = () => toLocal(new Date(Date.now() + 2 * 86_400_000), "Asia/Tokyo").date;

  async function ownerBrowser(env: ReturnType<typeof routeEnv>, salonId: string) {
    const member = await signedInMember(database, env, "owner");
    await setRole(database.db, member.email, "owner");
    await database.db.insert(salonOwners).values({ salonId, userId: member.userId });
    return member.b;
  }

  it("is prefilled from the ledger's spot and shows the stylist's menus and the lookup's matches", async () => {
    const f = await salonFixture();
    const env = routeEnv();
    const b = await ownerBrowser(env, f.salon.id);
    await database.db.insert(salonCustomers).values({
      salonId: f.salon.id,
      name: "検索 花子",
      kana: "ケンサク ハナコ",
      phone: "09077778888",
    });
    const response = await b.request(
      `/owner/salons/${f.salon.id}/bookings/new?staff=${f.first.id}&date=${soon()}&time=15:30&q=${encodeURIComponent("けんさく")}&name=${encodeURIComponent("入力中")}`,
    );
    expect(response.status).toBe(200);
    const { loaderData } = (await response.json()) as {
      loaderData: SalonEntryPageData;
    };
    expect(loaderData.values).toMatchObject({
      staff: f.first.id,
      date: soon(),
      time: "15:30",
      name: "入力中",
      requested: true,
    });
    expect(loaderData.stylists.map((s) => s.id)).toEqual([f.first.id, f.second.id]);
    expect(loaderData.menus.map((m) => m.id)).toEqual([f.menu.id]);
    expect(loaderData.lookup.results.map((c) => c.name)).toEqual(["検索 花子"]);
  });

  it("books, redirects to the ledger's day; refuses hostile input with Japanese messages, keeping what was typed", async () => {
    const f = await salonFixture();
    const env = routeEnv();
    const b = await ownerBrowser(env, f.salon.id);
    const path = `/owner/salons/${f.salon.id}/bookings/new`;
    const typed = {
      entry: "walk_in",
      staff: f.first.id,
      date: soon(),
      time: "14:00",
      menu: [f.menu.id],
      customer: "",
      name: "来店 三郎",
      kana: "らいてん さぶろう",
      phone: "090-9999-0000",
      email: "",
      requested: "on",
      note: "",
    };
    const post = async (fields: Record<string, string | string[]>) => {
      const response = await b.request(path, postForm(fields));
      const body = response.status === 302 ? null : await response.json();
      return { response, body } as {
        response: Response;
        body: { actionData: { errors: Record<string, string>; values: Record<string, unknown> } };
      };
    };
    const hostile: [Record<string, string | string[]>, string, RegExp][] = [
      [{ phone: "12345" }, "phone", /電話番号は市外局番から/],
      [{ kana: "" }, "kana", /フリガナを入力してください/],
      [{ kana: "Saburo" }, "kana", /ひらがなかカタカナ/],
      [{ time: "25:00" }, "time", /HH:MM/],
      [{ date: "2026-13-01" }, "date", /YYYY-MM-DD/],
      [{ menu: ["not-a-uuid"] }, "menu", /メニュー/],
      [{ menu: [f.second.id] }, "menu", /メニュー/],
      [{ staff: "6a1f0c1e-8a55-4f0b-9d0e-6f0a1b2c3d4e" }, "staff", /スタイリスト/],
      [{ name: "あ".repeat(51) }, "name", /50文字以内/],
      [{ note: "メ".repeat(501) }, "note", /500文字以内/],
      [{ email: "not-an-address" }, "email", /メールアドレスの形式/],
    ];
    for (const [change, field, message] of hostile) {
      const { response, body } = await post({ ...typed, ...change });
      expect(response.status, field).toBeGreaterThanOrEqual(400);
      expect(response.status, field).toBeLessThan(500);
      expect(body.actionData.errors[field], field).toMatch(message);
      expect(body.actionData.values.name).toBe(
        typeof change.name === "string" ? change.name : "来店 三郎",
      );
      expect(body.actionData.values.phone).toBe(change.phone ?? "090-9999-0000");
    }
    // Another salon's stylist.
    const other = await salonFixture();
    const foreign = await post({ ...typed, staff: other.first.id });
    expect(foreign.response.status).toBe(400);
    expect(foreign.body.actionData.errors.staff).toMatch(/スタイリスト/);
    expect(await bookingsOf(f.salon.id)).toHaveLength(0);

    const done = await post(typed);
    expect(done.response.status).toBe(302);
    const [row] = await bookingsOf(f.salon.id);
    expect(done.response.headers.get("location")).toBe(
      `/owner/salons/${f.salon.id}/bookings/${row?.id}?done=created`,
    );
    expect(row).toMatchObject({ source: "walk_in", customerKana: "ライテン サブロウ" });

    // The same time again: a 409 naming the first booking, typed values kept.
    const again = await post({ ...typed, name: "二人目 四郎", kana: "ふたりめ しろう" });
    expect(again.response.status).toBe(409);
    expect(again.body.actionData.errors.form).toContain(
      "来店 三郎様の予約（カット）と重なっています",
    );
    expect(again.body.actionData.values).toMatchObject({ name: "二人目 四郎", menu: [f.menu.id] });
  });

  it("warns outside the schedule, and books once the confirmation is ticked; blocks too", async () => {
    const f = await salonFixture();
    const env = routeEnv();
    const b = await ownerBrowser(env, f.salon.id);
    const path = `/owner/salons/${f.salon.id}/bookings/new`;
    const typed = {
      entry: "phone",
      staff: f.first.id,
      date: soon(),
      time: "20:30",
      menu: [f.menu.id],
      name: "遅番 五郎",
      kana: "おそばん ごろう",
      phone: "0312345678",
    };
    const warned = await b.request(path, postForm(typed));
    expect(warned.status).toBe(422);
    const warnedBody = (await warned.json()) as {
      actionData: { errors: Record<string, string>; values: Record<string, unknown> };
    };
    expect(warnedBody.actionData.errors.outside).toContain("出勤予定がありません");
    expect(warnedBody.actionData.values.time).toBe("20:30");
    const booked = await b.request(path, postForm({ ...typed, outside: "on" }));
    expect(booked.status).toBe(302);

    const blocked = await b.request(
      path,
      postForm({
        entry: "block",
        staff: f.second.id,
        date: soon(),
        time: "12:00",
        end: "13:00",
        reason: "training",
        text: "カラー講習",
      }),
    );
    expect(blocked.status).toBe(302);
    expect(blocked.headers.get("location")).toMatch(
      new RegExp(`^/owner/salons/${f.salon.id}/bookings/[0-9a-f-]{36}\\?done=blocked$`),
    );
    const badBlock = await b.request(
      path,
      postForm({
        entry: "block",
        staff: f.second.id,
        date: soon(),
        time: "15:00",
        end: "14:00",
        reason: "break",
        text: "x".repeat(60),
      }),
    );
    expect(badBlock.status).toBe(400);
    const badBody = (await badBlock.json()) as { actionData: { errors: Record<string, string> } };
    expect(badBody.actionData.errors.end).toBe("終了時刻は開始時刻より後にしてください。");
    expect(badBody.actionData.errors.text).toMatch(/50文字/);
    const rows = await bookingsOf(f.salon.id);
    expect(rows.map((row) => [row.kind, row.salonNote]).sort()).toEqual([
      ["block", "研修：カラー講習"],
      ["booking", ""],
    ]);
  });

  it("sends a guest to sign in and shows another salon's owner the 404 screen", async () => {
    const f = await salonFixture();
    const other = await salonFixture();
    const env = routeEnv();
    const path = `/owner/salons/${f.salon.id}/bookings/new`;
    const guest = await browser(env.app).request(path);
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe(`/signin?redirect=${encodeURIComponent(path)}`);
    const stranger = await ownerBrowser(env, other.salon.id);
    expect((await stranger.request(path)).status).toBe(404);
    const post = await stranger.request(
      path,
      postForm({
        entry: "block",
        staff: f.first.id,
        date: soon(),
        time: "12:00",
        end: "13:00",
        reason: "break",
      }),
    );
    expect(post.status).toBe(404);
    expect(await bookingsOf(f.salon.id)).toHaveLength(0);
  });
});

describe("the API /api/owner/salons/{id}/bookings, …/blocks, …/customers/lookup", () => {
  async function ownerClient(app: ReturnType<typeof createApiTestApp>["app"], salonId: string) {
    const user = await apiUser(app);
    await database.db
      .update(users)
      .set({ emailVerified: true, role: "owner" })
      .where(eq(users.id, user.userId));
    await database.db.insert(salonOwners).values({ salonId, userId: user.userId });
    return user;
  }

  it("enters a booking and a block, looks customers up, and answers 401 / 404 / 400 / 409 / 422", async () => {
    const server = createApiTestApp(database, { now: () => NOW });
    try {
      const f = await salonFixture();
      const other = await salonFixture();
      const owner = await ownerClient(server.app, f.salon.id);
      const stranger = await ownerClient(server.app, other.salon.id);
      const body = {
        source: "phone",
        staffId: f.first.id,
        date: DAY,
        time: "14:00",
        menuIds: [f.menu.id],
        customer: { name: "API 花子", kana: "エーピーアイ ハナコ", phone: "090-4444-5555" },
      };
      const base = `/api/owner/salons/${f.salon.id}`;
      const guest = await apiClient(server.app).request(`${base}/bookings`, {
        method: "POST",
        json: body,
      });
      expect(guest.status).toBe(401);
      const foreign = await stranger.request(`${base}/bookings`, { method: "POST", json: body });
      expect(foreign.status).toBe(404);
      const foreignLookup = await stranger.request(`${base}/customers/lookup?q=090`);
      expect(foreignLookup.status).toBe(404);

      const created = await owner.request(`${base}/bookings`, { method: "POST", json: body });
      expect(created.status).toBe(201);
      const { data } = (await created.json()) as {
        data: { kind: string; source: string; customerId: string };
      };
      expect(data).toMatchObject({ kind: "booking", source: "phone" });

      const lookup = await owner.request(
        `${base}/customers/lookup?q=${encodeURIComponent("えーぴーあい")}`,
      );
      expect(lookup.status).toBe(200);
      const found = (await lookup.json()) as { data: { id: string }[] };
      expect(found.data.map((c) => c.id)).toEqual([data.customerId]);

      const clash = await owner.request(`${base}/bookings`, {
        method: "POST",
        json: {
          ...body,
          time: "14:30",
          source: "walk_in",
          customer: undefined,
          customerId: data.customerId,
        },
      });
      expect(clash.status).toBe(409);
      const clashBody = (await clash.json()) as { error: { code: string; message: string } };
      expect(clashBody.error.code).toBe("slot_conflict");
      expect(clashBody.error.message).toContain("14:00〜15:00のAPI 花子様の予約");

      const outside = await owner.request(`${base}/bookings`, {
        method: "POST",
        json: { ...body, time: "07:00" },
      });
      expect(outside.status).toBe(422);
      expect(((await outside.json()) as { error: { code: string } }).error.code).toBe(
        "outside_schedule",
      );

      for (const bad of [
        { ...body, menuIds: [] },
        { ...body, customer: { ...body.customer, kana: "" } },
        { ...body, customer: { ...body.customer, phone: "12" } },
        { ...body, staffId: "nope" },
        { ...body, time: "9時" },
        { ...body, customer: undefined },
      ]) {
        const response = await owner.request(`${base}/bookings`, { method: "POST", json: bad });
        expect(response.status).toBe(400);
        const error = ((await response.json()) as { error: { message: string } }).error;
        expect(error.message).toMatch(/[ぁ-んァ-ン一-龥]/);
      }
      const notJson = await owner.request(`${base}/bookings`, {
        method: "POST",
        body: "{",
        headers: { "content-type": "application/json" },
      });
      expect(notJson.status).toBe(400);

      const block = await owner.request(`${base}/blocks`, {
        method: "POST",
        json: {
          staffId: f.second.id,
          date: DAY,
          from: "12:00",
          to: "12:45",
          reason: "break",
          text: "ランチ",
        },
      });
      expect(block.status).toBe(201);
      expect(
        ((await block.json()) as { data: { kind: string; salonNote: string } }).data,
      ).toMatchObject({
        kind: "block",
        salonNote: "休憩：ランチ",
      });
      const blockClash = await owner.request(`${base}/blocks`, {
        method: "POST",
        json: { staffId: f.first.id, date: DAY, from: "14:30", to: "16:00", reason: "meeting" },
      });
      expect(blockClash.status).toBe(409);
      const badBlock = await owner.request(`${base}/blocks`, {
        method: "POST",
        json: { staffId: f.first.id, date: DAY, from: "16:00", to: "15:00", reason: "nap" },
      });
      expect(badBlock.status).toBe(400);
    } finally {
      await server.close();
    }
  });
});

describe("the entry page as rendered HTML", () => {
  it("renders the form, and after a refusal the error summary, the typed values and the confirmation box", async () => {
    const full = await createFullApp(database, {
      PUBLIC_URL: ORIGIN,
      TRUST_PROXY: "true",
      E2E_LOGIN: "true",
      RATE_LIMIT_PER_IP: "1000000",
      RATE_LIMIT_PER_ACCOUNT: "1000000",
    });
    try {
      const f = await salonFixture();
      const b = browser(full.app);
      const login = await b.request("/api/test/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ role: "owner" }),
      });
      expect(login.status).toBe(201);
      const { email } = (await login.json()) as { email: string };
      const [user] = await database.db.select().from(users).where(eq(users.email, email));
      if (!user) throw new Error("no user");
      await database.db.insert(salonOwners).values({ salonId: f.salon.id, userId: user.id });
      const path = `/owner/salons/${f.salon.id}/bookings/new`;
      const soon = toLocal(new Date(Date.now() + 2 * 86_400_000), "Asia/Tokyo").date;

      const page = await b.request(`${path}?staff=${f.first.id}&date=${soon}&time=10:30`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("予約・ブロックの入力");
      expect(html).toContain("お客様を検索");
      expect(html).toContain('value="10:30"');
      expect(html).not.toContain("出勤予定外でも予約する");

      const refused = await b.request(
        path,
        postForm({
          entry: "phone",
          staff: f.first.id,
          date: soon,
          time: "21:00",
          menu: [f.menu.id],
          customer: "",
          name: "夜間 六郎",
          kana: "やかん ろくろう",
          phone: "090-1212-3434",
          email: "",
        }),
      );
      expect(refused.status).toBe(422);
      const again = await refused.text();
      expect(again).toContain('role="alert"');
      expect(again).toContain("出勤予定がありません");
      expect(again).toContain("出勤予定外でも予約する");
      expect(again).toContain('value="夜間 六郎"');
      expect(again).toContain('value="090-1212-3434"');

      const hostile = await b.request(
        path,
        postForm({ entry: "phone", date: "2026-13-45", time: "25:99", staff: "x".repeat(300) }),
      );
      expect(hostile.status).toBe(400);
      expect(await hostile.text()).toContain("日付は YYYY-MM-DD の形式で入力してください");
    } finally {
      await full.close();
    }
  });
});

describe("the search's free-time summary", () => {
  it("loses the time a block takes once every stylist is blocked then", async () => {
    const f = await salonFixture();
    const summary = async () => {
      const [row] = await database.db
        .select({ freeMinutes: salonFreeDays.freeMinutes })
        .from(salonFreeDays)
        .where(and(eq(salonFreeDays.salonId, f.salon.id), eq(salonFreeDays.date, DAY)));
      return row?.freeMinutes ?? [];
    };
    const noon = 12 * 60;
    await blockTime(database.db, f.salon.id, blockInput(f), f.actor, NOW);
    // One stylist is still free at noon (指名なし).
    expect(await summary()).toContain(noon);
    await blockTime(database.db, f.salon.id, blockInput(f, { staffId: f.second.id }), f.actor, NOW);
    const minutes = await summary();
    expect(minutes).not.toContain(noon);
    expect(minutes).toContain(13 * 60);
  });
});

describe("the live channel", () => {
  it("tells the open ledger of a salon entry and of a block, with their date", async () => {
    const f = await salonFixture();
    const events = createSlotEvents(database);
    const inbox = new Inbox<SlotEvent>();
    const stop = await events.subscribe(f.salon.id, inbox.push);
    try {
      await enterSalonBooking(database.db, f.salon.id, bookingInput(f), f.actor, NOW);
      expect(await inbox.next()).toEqual({ salonId: f.salon.id, dates: [DAY] });
      await blockTime(database.db, f.salon.id, blockInput(f, { date: "2026-12-04" }), f.actor, NOW);
      expect(await inbox.next()).toEqual({ salonId: f.salon.id, dates: ["2026-12-04"] });
      // A refused entry tells nobody.
      await outcome(enterSalonBooking(database.db, f.salon.id, bookingInput(f), f.actor, NOW));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(inbox.pending()).toEqual([]);
    } finally {
      stop();
      await events.close();
    }
  });
});
