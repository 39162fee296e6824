import { and, asc, eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as historyRoute from "../../app/routes/account.history";
import * as confirmRoute from "../../app/routes/salons.$id.confirm";
import { addDays, calendarDay } from "../../common/local-time";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { BookingNotFoundError, SlotTakenError } from "../../server/bookings/booking-errors";
import { bookingJobHandlers } from "../../server/bookings/booking-jobs.server";
import {
  BookingNotChangeableError,
  BookingVersionConflictError,
  ChangeClosedError,
  rescheduleBooking,
} from "../../server/bookings/reschedule.server";
import {
  bookingEvents,
  bookingMenus,
  bookings,
  couponMenus,
  coupons,
  jobs,
  mailOutbox,
  salonOwners,
  users,
} from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { browser } from "../support/accounts";
import { apiClient, apiUser, createApiTestApp } from "../support/api-client";
import { bookingClient } from "../support/booking-client";
import { buildBooking, buildMenu, buildSalonWithStaff, buildUser } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

/** A fixed clock: Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const at = (local: string) => new Date(`${local}:00+09:00`);
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

/** A real booking: a hold confirmed by its customer. */
async function book(
  salonId: string,
  userId: string,
  menuIds: string[],
  staffId: string | null,
  start: Date,
  couponId: string | null = null,
) {
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId,
    menuIds,
    staffId,
    start,
    userId,
    couponId,
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

const move = (
  input: Omit<Parameters<typeof rescheduleBooking>[1], "limits" | "ip" | "now"> & { now?: Date },
) => rescheduleBooking(database.db, { ...bookingClient(database.db), now: NOW, ...input });

async function rowOf(id: string) {
  const [row] = await database.db.select().from(bookings).where(eq(bookings.id, id));
  if (!row) throw new Error("booking gone");
  return row;
}

async function menusOf(id: string) {
  return database.db
    .select({ name: bookingMenus.name, durationMinutes: bookingMenus.durationMinutes })
    .from(bookingMenus)
    .where(eq(bookingMenus.bookingId, id))
    .orderBy(asc(bookingMenus.position));
}

async function eventsOf(id: string) {
  return database.db
    .select()
    .from(bookingEvents)
    .where(eq(bookingEvents.bookingId, id))
    .orderBy(asc(bookingEvents.createdAt));
}

describe("rescheduleBooking", () => {
  it("moves 30 minutes later on the same stylist, over its own old time, keeping number and id", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const user = await buildUser(database.db);
    const stylist = stylists[0]?.id ?? "";
    const booking = await book(salon.id, user.id, [menu.id], stylist, at("2026-12-03T10:00"));
    const result = await move({
      bookingId: booking.id,
      userId: user.id,
      start: at("2026-12-03T10:30"),
      version: booking.version,
    });
    expect(result.changed).toBe(true);
    const row = await rowOf(booking.id);
    expect(row.startsAt).toEqual(at("2026-12-03T10:30"));
    expect(row.endsAt).toEqual(at("2026-12-03T11:30"));
    expect(row.bookingNumber).toBe(booking.bookingNumber);
    expect(row.staffId).toBe(stylist);
    expect(row.status).toBe("confirmed");
    expect(row.version).toBe(booking.version + 1);
    // Still exactly one booking of this customer.
    const mine = await database.db.select().from(bookings).where(eq(bookings.userId, user.id));
    expect(mine).toHaveLength(1);
    const events = await eventsOf(booking.id);
    const moved = events.at(-1);
    expect(moved?.kind).toBe("moved");
    expect(moved?.actorKind).toBe("customer");
    expect(moved?.actorUserId).toBe(user.id);
    expect(moved?.details).toMatchObject({
      from: { startsAt: at("2026-12-03T10:00").toISOString() },
      to: { startsAt: at("2026-12-03T10:30").toISOString() },
    });
    // The new time is the booking's: 11:00 is taken, 11:30 free for anyone.
    const other = await buildUser(database.db);
    const holdAt = (local: string) =>
      holdSlot(database.db, {
        ...bookingClient(database.db),
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: null,
        start: at(local),
        userId: other.id,
        now: NOW,
      });
    expect((await outcome(holdAt("2026-12-03T11:00"))).error).toBeInstanceOf(SlotTakenError);
    const held = await holdAt("2026-12-03T11:30");
    expect(held.startsAt).toEqual(at("2026-12-03T11:30"));
  });

  it("moves to another stylist (指名) and to 指名なし", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
    const [first, second] = stylists.map((member) => member.id);
    const user = await buildUser(database.db);
    const booking = await book(salon.id, user.id, [menu.id], first ?? null, at("2026-12-04T14:00"));
    // Someone has the first stylist at 16:00: 指名なし at 16:00 gives the second.
    await book(
      salon.id,
      (await buildUser(database.db)).id,
      [menu.id],
      first ?? null,
      at("2026-12-04T16:00"),
    );
    await move({
      bookingId: booking.id,
      userId: user.id,
      start: at("2026-12-04T14:00"),
      staffId: second,
    });
    let row = await rowOf(booking.id);
    expect(row.staffId).toBe(second);
    expect(row.staffRequested).toBe(true);
    await move({
      bookingId: booking.id,
      userId: user.id,
      start: at("2026-12-04T16:00"),
      staffId: null,
    });
    row = await rowOf(booking.id);
    expect(row.staffId).toBe(second);
    expect(row.staffRequested).toBe(false);
    expect(row.startsAt).toEqual(at("2026-12-04T16:00"));
  });

  it("changes the menus: price and duration from the database, the new length checked", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const stylist = stylists[0]?.id ?? "";
    const color = await buildMenu(database.db, salon.id, {
      name: "カラー",
      price: 8000,
      durationMinutes: 90,
    });
    const user = await buildUser(database.db);
    const booking = await book(salon.id, user.id, [menu.id], stylist, at("2026-12-07T10:00"));
    // Another customer at 12:00: cut + colour (150 min) from 10:00 would run into it.
    await book(
      salon.id,
      (await buildUser(database.db)).id,
      [menu.id],
      stylist,
      at("2026-12-07T12:00"),
    );
    const refused = await outcome(
      move({
        bookingId: booking.id,
        userId: user.id,
        start: at("2026-12-07T10:00"),
        menuIds: [menu.id, color.id],
      }),
    );
    expect(refused.error).toBeInstanceOf(SlotTakenError);
    expect(await menusOf(booking.id)).toEqual([{ name: "カット", durationMinutes: 60 }]);
    // Colour alone (90 min) fits 10:00–11:30.
    const result = await move({
      bookingId: booking.id,
      userId: user.id,
      start: at("2026-12-07T10:00"),
      menuIds: [color.id],
    });
    expect(result.changed).toBe(true);
    const row = await rowOf(booking.id);
    expect(row.totalPrice).toBe(8000);
    expect(row.endsAt).toEqual(at("2026-12-07T11:30"));
    expect(await menusOf(booking.id)).toEqual([{ name: "カラー", durationMinutes: 90 }]);
    expect((await eventsOf(booking.id)).at(-1)?.kind).toBe("menus_changed");
  });

  it("refuses a taken time and leaves the booking as it was", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const stylist = stylists[0]?.id ?? "";
    const user = await buildUser(database.db);
    const booking = await book(salon.id, user.id, [menu.id], stylist, at("2026-12-08T10:00"));
    await book(
      salon.id,
      (await buildUser(database.db)).id,
      [menu.id],
      stylist,
      at("2026-12-08T15:00"),
    );
    const refused = await outcome(
      move({ bookingId: booking.id, userId: user.id, start: at("2026-12-08T15:30") }),
    );
    expect(refused.error).toBeInstanceOf(SlotTakenError);
    expect((refused.error as Error).message).toContain("埋まりました");
    const row = await rowOf(booking.id);
    expect(row.startsAt).toEqual(at("2026-12-08T10:00"));
    expect(row.version).toBe(booking.version);
    expect((await eventsOf(booking.id)).map((event) => event.kind)).toEqual(["created"]);
  });

  it("refuses after the cancellation cutoff, a cancelled booking, a stale version, and another user's booking", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
      settings: { cancellationCutoffHours: 24 },
    });
    const stylist = stylists[0]?.id ?? "";
    const user = await buildUser(database.db);
    const booking = await book(salon.id, user.id, [menu.id], stylist, at("2026-12-02T10:00"));
    // 23 hours before: closed.
    const late = await outcome(
      move({
        bookingId: booking.id,
        userId: user.id,
        start: at("2026-12-05T10:00"),
        now: at("2026-12-01T11:00"),
      }),
    );
    expect(late.error).toBeInstanceOf(ChangeClosedError);
    expect((late.error as ChangeClosedError).status).toBe(409);
    expect((await rowOf(booking.id)).startsAt).toEqual(at("2026-12-02T10:00"));

    const stranger = await buildUser(database.db);
    const foreign = await outcome(
      move({ bookingId: booking.id, userId: stranger.id, start: at("2026-12-05T10:00") }),
    );
    expect(foreign.error).toBeInstanceOf(BookingNotFoundError);
    expect((foreign.error as BookingNotFoundError).status).toBe(404);

    const stale = await outcome(
      move({
        bookingId: booking.id,
        userId: user.id,
        start: at("2026-12-05T10:00"),
        version: booking.version - 1,
      }),
    );
    expect(stale.error).toBeInstanceOf(BookingVersionConflictError);

    await database.db
      .update(bookings)
      .set({ status: "cancelled_by_salon" })
      .where(eq(bookings.id, booking.id));
    const cancelled = await outcome(
      move({ bookingId: booking.id, userId: user.id, start: at("2026-12-05T10:00") }),
    );
    expect(cancelled.error).toBeInstanceOf(BookingNotChangeableError);
  });

  it("the same change sent twice is applied once (the second answers unchanged)", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const user = await buildUser(database.db);
    const booking = await book(
      salon.id,
      user.id,
      [menu.id],
      stylists[0]?.id ?? null,
      at("2026-12-09T10:00"),
    );
    const request = {
      bookingId: booking.id,
      userId: user.id,
      start: at("2026-12-09T13:00"),
      version: booking.version,
    };
    expect((await move(request)).changed).toBe(true);
    const again = await move(request);
    expect(again.changed).toBe(false);
    expect((await rowOf(booking.id)).version).toBe(booking.version + 1);
    expect((await eventsOf(booking.id)).filter((event) => event.kind === "moved")).toHaveLength(1);
  });

  it("keeps a coupon that still applies, drops one that does not and says so", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const stylist = stylists[0]?.id ?? "";
    const color = await buildMenu(database.db, salon.id, { name: "カラー", price: 8000 });
    const [coupon] = await database.db
      .insert(coupons)
      .values({
        salonId: salon.id,
        title: "カット1000円引き（初回）",
        discountKind: "amount",
        discountValue: 1000,
        validFrom: "2026-11-01",
        target: "new",
      })
      .returning();
    if (!coupon) throw new Error("coupon");
    await database.db.insert(couponMenus).values({ couponId: coupon.id, menuId: menu.id });
    const user = await buildUser(database.db);
    const booking = await book(
      salon.id,
      user.id,
      [menu.id],
      stylist,
      at("2026-12-10T10:00"),
      coupon.id,
    );
    expect(booking.totalPrice).toBe(4500);
    // The customer's own booking is not an earlier visit: the new-customer coupon stays.
    const kept = await move({
      bookingId: booking.id,
      userId: user.id,
      start: at("2026-12-10T11:00"),
    });
    expect(kept.couponDropped).toBe(false);
    expect((await rowOf(booking.id)).totalPrice).toBe(4500);
    expect((await rowOf(booking.id)).couponId).toBe(coupon.id);
    const dropped = await move({
      bookingId: booking.id,
      userId: user.id,
      start: at("2026-12-10T11:00"),
      menuIds: [color.id],
    });
    expect(dropped.couponDropped).toBe(true);
    const row = await rowOf(booking.id);
    expect(row.couponId).toBeNull();
    expect(row.totalPrice).toBe(8000);
  });

  it("is not stopped by the customer's own live hold elsewhere in the salon, and leaves it alone", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const stylist = stylists[0]?.id ?? "";
    const user = await buildUser(database.db);
    const booking = await book(salon.id, user.id, [menu.id], stylist, at("2026-12-11T10:00"));
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylist,
      start: at("2026-12-11T16:00"),
      userId: user.id,
      now: NOW,
    });
    await move({ bookingId: booking.id, userId: user.id, start: at("2026-12-11T12:00") });
    expect((await rowOf(hold.id)).status).toBe("held");
    expect((await rowOf(booking.id)).startsAt).toEqual(at("2026-12-11T12:00"));
  });

  it("clears an expired hold in the way of the new time", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const stylist = stylists[0]?.id ?? "";
    const user = await buildUser(database.db);
    const booking = await book(salon.id, user.id, [menu.id], stylist, at("2026-12-14T10:00"));
    const lapsed = await buildBooking(database.db, {
      salonId: salon.id,
      staffId: stylist,
      startsAt: at("2026-12-14T15:00"),
      endsAt: at("2026-12-14T16:00"),
      status: "held",
      holdExpiresAt: new Date(NOW.getTime() - 60_000),
    });
    await move({ bookingId: booking.id, userId: user.id, start: at("2026-12-14T15:00") });
    expect((await rowOf(booking.id)).startsAt).toEqual(at("2026-12-14T15:00"));
    const gone = await database.db.select().from(bookings).where(eq(bookings.id, lapsed.id));
    expect(gone).toHaveLength(0);
  });

  it("mails the customer an .ics that updates the event (same UID, next SEQUENCE), tells the salon, and moves the reminder", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const owner = await buildUser(database.db, { role: "owner" });
    await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.id });
    const user = await buildUser(database.db);
    const booking = await book(
      salon.id,
      user.id,
      [menu.id],
      stylists[0]?.id ?? null,
      at("2026-12-16T10:00"),
    );
    await move({ bookingId: booking.id, userId: user.id, start: at("2026-12-18T15:00") });
    const [reminder] = await database.db
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(eq(jobs.dedupeKey, `reminder:${booking.id}`));
    expect(reminder?.runAt).toEqual(at("2026-12-17T15:00"));
    const worker = createJobWorker({
      db: database.db,
      handlers: bookingJobHandlers({
        mailFrom: "Salon Navi <no-reply@salon.example.jp>",
        publicUrl: "https://salon.example.jp",
      }),
      log: createLogger("silent"),
      now: () => NOW,
    });
    // Earlier tests' mails are in the queue too.
    for (let ran = 1; ran > 0; ) ran = await worker.runOnce();
    const mails = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, customer.email))
      .orderBy(mailOutbox.createdAt);
    const calendars = mails
      .filter((mail) => mail.text.includes(booking.bookingNumber))
      .flatMap((mail) =>
        mail.attachments.map((file) => {
          const event = new ICAL.Component(ICAL.parse(file.content)).getFirstSubcomponent("vevent");
          return {
            subject: mail.subject,
            uid: event?.getFirstPropertyValue("uid"),
            sequence: Number(event?.getFirstPropertyValue("sequence")),
            start: String(event?.getFirstProperty("dtstart")?.getFirstValue()),
          };
        }),
      );
    const confirmation = calendars.find((entry) => entry.sequence === 0);
    const moved = calendars.find((entry) => entry.sequence === 1);
    expect(confirmation).toBeDefined();
    expect(moved?.uid).toBe(confirmation?.uid);
    expect(moved?.start).toContain("2026-12-18T15:00");
    expect(moved?.subject).toMatch(/変更/);
    const toSalon = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, owner.email));
    expect(toSalon.some((mail) => /変更/.test(mail.subject))).toBe(true);
  });

  // PGlite runs transactions one after another: there is no race to lose.
  it.skipIf(transactionsTakeTurns)(
    "a reschedule and another visitor's hold for the same time: exactly one gets it, the customer keeps one booking",
    async () => {
      for (let round = 0; round < 5; round++) {
        const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
        const stylist = stylists[0]?.id ?? "";
        const user = await buildUser(database.db);
        const other = await buildUser(database.db);
        const booking = await book(salon.id, user.id, [menu.id], stylist, at("2026-12-15T10:00"));
        const target = at("2026-12-15T14:00");
        const [moved, held] = await Promise.all([
          outcome(move({ bookingId: booking.id, userId: user.id, start: target })),
          outcome(
            holdSlot(database.db, {
              ...bookingClient(database.db),
              salonId: salon.id,
              menuIds: [menu.id],
              staffId: stylist,
              start: target,
              userId: other.id,
              now: NOW,
            }),
          ),
        ]);
        expect([moved.value, held.value].filter(Boolean)).toHaveLength(1);
        const loser = moved.value ? held.error : moved.error;
        expect(loser).toBeInstanceOf(SlotTakenError);
        const mine = await database.db
          .select()
          .from(bookings)
          .where(and(eq(bookings.userId, user.id), eq(bookings.status, "confirmed")));
        expect(mine).toHaveLength(1);
        expect(mine[0]?.startsAt).toEqual(moved.value ? target : at("2026-12-15T10:00"));
      }
    },
  );
});

describe("POST /api/bookings/{id}/reschedule", () => {
  let server: ReturnType<typeof createApiTestApp>;
  beforeAll(() => {
    server = createApiTestApp(database, { now: () => NOW });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function apiMember() {
    const member = await apiUser(server.app);
    await database.db.update(users).set({ emailVerified: true }).where(eq(users.id, member.userId));
    return member;
  }

  it("moves the booking (200), refuses a taken time (409), a stale version (409), another's booking (404), bad input (400) and a guest (401)", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { staffCount: 2 });
    const [first, second] = stylists;
    const member = await apiMember();
    const booking = await book(
      salon.id,
      member.userId,
      [menu.id],
      first?.id ?? null,
      at("2026-12-21T10:00"),
    );
    await book(
      salon.id,
      (await buildUser(database.db)).id,
      [menu.id],
      second?.id ?? null,
      at("2026-12-21T13:00"),
    );
    const path = `/api/bookings/${booking.id}/reschedule`;
    const post = (client: { request: typeof member.request }, json: unknown) =>
      client.request(path, { method: "POST", json });

    const moved = await post(member, {
      start: "2026-12-21T10:30:00+09:00",
      version: booking.version,
    });
    expect(moved.status).toBe(200);
    const body = await moved.json();
    expect(body.changed).toBe(true);
    expect(body.data.startsAt).toBe(at("2026-12-21T10:30").toISOString());
    expect(body.data.bookingNumber).toBe(booking.bookingNumber);
    expect(body.data.staff.slug).toBe(first?.slug);
    expect(body.data.version).toBe(booking.version + 1);

    const taken = await post(member, { start: "2026-12-21T13:00:00+09:00", staffId: second?.slug });
    expect(taken.status).toBe(409);
    expect((await taken.json()).error.code).toBe("slot_taken");
    const stale = await post(member, {
      start: "2026-12-21T15:00:00+09:00",
      version: booking.version,
    });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.code).toBe("booking_changed");
    expect((await rowOf(booking.id)).startsAt).toEqual(at("2026-12-21T10:30"));

    const stranger = await apiMember();
    expect((await post(stranger, { start: "2026-12-21T15:00:00+09:00" })).status).toBe(404);
    const bad = await post(member, { start: "明日", menuIds: ["x"] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/[ぁ-んァ-ン一-龥]/);
    expect((await post(apiClient(server.app), { start: "2026-12-21T15:00:00+09:00" })).status).toBe(
      401,
    );

    // Another stylist and menus by the API.
    const color = await buildMenu(database.db, salon.id, {
      name: "カラー",
      price: 8000,
      durationMinutes: 90,
    });
    const changed = await post(member, {
      start: "2026-12-21T15:00:00+09:00",
      staffId: second?.slug,
      menuIds: [color.id],
    });
    expect(changed.status).toBe(200);
    const after = (await changed.json()).data;
    expect(after.staff.slug).toBe(second?.slug);
    expect(after.totalPrice).toBe(8000);
    expect(after.endsAt).toBe(at("2026-12-21T16:30").toISOString());
  });
});

describe("予約変更 through the pages", () => {
  let env: ReturnType<typeof createRouteApp>;
  beforeAll(() => {
    env = createRouteApp(database, [
      { path: "/salons/:id/confirm", module: confirmRoute },
      { path: "/account/history", module: historyRoute },
    ]);
  });

  /** Far enough ahead to be before the cutoff, on the real clock the pages use. */
  const inDays = (days: number, time: string) =>
    new Date(`${addDays(calendarDay(new Date(), "Asia/Tokyo"), days)}T${time}:00+09:00`);

  async function json(response: Response) {
    return (await response.json()) as {
      // biome-ignore lint/suspicious/noExplicitAny: the page's JSON, read field by field
      loaderData: Record<string, any>;
      // biome-ignore lint/suspicious/noExplicitAny: the page's JSON, read field by field
      actionData: Record<string, any>;
    };
  }

  it("history → the flow in change mode → the confirmation → history shows the new time, 変更済み", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
    const stylist = stylists[0];
    if (!stylist) throw new Error("stylist");
    const { b, userId } = await signedInMember(database, env, "change");
    const now = new Date();
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylist.id,
      start: inDays(4, "10:00"),
      userId,
      now,
    });
    const booking = await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId,
      customer,
      notes: "",
      idempotencyKey: null,
      now,
    });

    const history = await json(await b.request("/account/history"));
    const [item] = history.loaderData.list.upcoming as { changeHref: string; changed: boolean }[];
    expect(item?.changeHref).toBe(`/salons/${salon.slug}/confirm?change=${booking.id}`);
    expect(item?.changed).toBe(false);

    // The booking's own menus, stylist and day first.
    const entry = await b.request(item?.changeHref ?? "");
    expect(entry.status).toBe(302);
    const pickPath = entry.headers.get("location") ?? "";
    const pickUrl = new URL(pickPath, "http://x");
    expect(pickUrl.searchParams.getAll("menu")).toEqual([menu.id]);
    expect(pickUrl.searchParams.get("staff")).toBe(stylist.slug);
    expect(pickUrl.searchParams.get("change")).toBe(booking.id);
    const date = pickUrl.searchParams.get("date") ?? "";

    const pick = await b.request(pickPath);
    expect(pick.status).toBe(200);
    const pickView = (await json(pick)).loaderData.view as {
      kind: string;
      change: { bookingId: string };
      times: { time: string; start: string }[];
    };
    expect(pickView.kind).toBe("pick");
    expect(pickView.change.bookingId).toBe(booking.id);
    // 10:30 overlaps the booking itself on the same stylist: offered for the change.
    const target = pickView.times.find((time) => time.time === "10:30");
    expect(target).toBeDefined();

    const picked = await b.request(
      pickPath,
      postForm({
        menu: menu.id,
        shown: menu.id,
        staff: stylist.slug,
        date,
        change: booking.id,
        start: target?.start ?? "",
      }),
    );
    expect(picked.status).toBe(302);
    const confirmPath = picked.headers.get("location") ?? "";
    // Nothing held, nothing moved yet.
    expect((await rowOf(booking.id)).startsAt).toEqual(inDays(4, "10:00"));
    const held = await database.db.select().from(bookings).where(eq(bookings.userId, userId));
    expect(held).toHaveLength(1);

    const confirmPage = await json(await b.request(confirmPath));
    const confirmView = confirmPage.loaderData.view as {
      kind: string;
      after: { start: string };
      change: { current: { start: string } };
      form: { start: string; staff: string; menuIds: string[]; version: number };
    };
    expect(confirmView.kind).toBe("change");
    expect(confirmView.change.current.start).toBe(inDays(4, "10:00").toISOString());
    expect(confirmView.after.start).toBe(inDays(4, "10:30").toISOString());

    // Another customer cannot open it: the 404 screen; a guest signs in first.
    const stranger = await signedInMember(database, env, "stranger");
    expect((await stranger.b.request(confirmPath)).status).toBe(404);
    const guest = await browser(env.app).request(confirmPath);
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toMatch(/^\/signin\?redirect=/);

    const fields = {
      intent: "reschedule",
      change: booking.id,
      start: confirmView.form.start,
      staff: confirmView.form.staff,
      menu: confirmView.form.menuIds,
      version: String(confirmView.form.version),
    };
    expect((await stranger.b.request(confirmPath, postForm(fields))).status).toBe(404);
    const done = await b.request(confirmPath, postForm(fields));
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`/account/history?booking=${booking.id}&changed=1`);

    const after = await json(await b.request(done.headers.get("location") ?? ""));
    expect(after.loaderData.changed).toBe("1");
    const detail = (after.loaderData.detail as { booking: Record<string, unknown> }).booking;
    expect(detail.startsAt).toBe(inDays(4, "10:30").toISOString());
    expect(detail.bookingNumber).toBe(booking.bookingNumber);
    expect(detail.changed).toBe(true);

    // Sent again (a double click): the booking is already so, nothing more happens.
    const twice = await b.request(confirmPath, postForm(fields));
    expect(twice.headers.get("location")).toBe(`/account/history?booking=${booking.id}&changed=0`);
    expect((await rowOf(booking.id)).version).toBe(booking.version + 1);
  });

  it("a taken time comes back with the Japanese message and the day's times; after the cutoff the change is refused", async () => {
    const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
      settings: { cancellationCutoffHours: 24 },
    });
    const stylist = stylists[0];
    if (!stylist) throw new Error("stylist");
    const { b, userId } = await signedInMember(database, env, "taken");
    const now = new Date();
    const make = async (user: string, start: Date) => {
      const hold = await holdSlot(database.db, {
        ...bookingClient(database.db),
        salonId: salon.id,
        menuIds: [menu.id],
        staffId: stylist.id,
        start,
        userId: user,
        now,
      });
      return confirmBooking(database.db, {
        ...bookingClient(database.db),
        holdId: hold.id,
        userId: user,
        customer,
        notes: "",
        idempotencyKey: null,
        now,
      });
    };
    const booking = await make(userId, inDays(5, "10:00"));
    const path = `/salons/${salon.slug}/confirm?menu=${menu.id}&staff=${stylist.slug}&change=${booking.id}`;
    const fields = {
      intent: "reschedule",
      change: booking.id,
      start: inDays(5, "15:00").toISOString(),
      staff: stylist.slug,
      menu: menu.id,
      version: String(booking.version),
    };
    // Someone else takes 15:00 between the confirmation page and the button.
    await make((await buildUser(database.db)).id, inDays(5, "15:00"));
    const refused = await b.request(path, postForm(fields));
    expect(refused.status).toBe(409);
    expect((await json(refused)).actionData.error).toContain("埋まりました");
    expect((await rowOf(booking.id)).startsAt).toEqual(inDays(5, "10:00"));

    // Within the cutoff: no link in the history, and the flow says why.
    await database.db
      .update(bookings)
      .set({
        startsAt: new Date(now.getTime() + 3 * 3_600_000),
        endsAt: new Date(now.getTime() + 4 * 3_600_000),
        occupiedFrom: new Date(now.getTime() + 3 * 3_600_000),
        occupiedUntil: new Date(now.getTime() + 4 * 3_600_000),
      })
      .where(eq(bookings.id, booking.id));
    const history = await json(await b.request(`/account/history?booking=${booking.id}`));
    expect(
      (history.loaderData.detail as { booking: { changeHref: null } }).booking.changeHref,
    ).toBeNull();
    const closed = await b.request(`/salons/${salon.slug}/confirm?change=${booking.id}`);
    expect(closed.status).toBe(409);
    const view = (await json(closed)).loaderData.view as { kind: string; message: string };
    expect(view.kind).toBe("change-refused");
    expect(view.message).toContain("変更期限");
  });
});
