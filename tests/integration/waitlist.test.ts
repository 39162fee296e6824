import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cancelBooking, confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import {
  MenuNotAvailableError,
  SalonNotFoundError,
  StaffCannotDoMenuError,
} from "../../server/bookings/booking-errors";
import {
  bookings,
  jobs,
  mailOutbox,
  users,
  waitlistEntries,
  waitlistOffers,
} from "../../server/db/schema";
import { DomainError } from "../../server/errors/domain-error";
import { housekeepingHandler } from "../../server/jobs/housekeeping.server";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import {
  declineOffer,
  getOfferForUser,
  joinWaitlist,
  leaveWaitlist,
  listWaitlistForSalonDay,
  listWaitlistForUser,
} from "../../server/waitlist/waitlist.server";
import {
  TooManyWaitlistAttemptsError,
  WaitlistDuplicateError,
  WaitlistInvalidError,
  WaitlistNotFoundError,
  WaitlistOfferClosedError,
  WaitlistOfferNotFoundError,
  WaitlistTimeFreeError,
  WaitlistTooManyError,
} from "../../server/waitlist/waitlist-errors";
import { waitlistJobHandlers } from "../../server/waitlist/waitlist-jobs.server";
import { bookingClient } from "../support/booking-client";
import {
  buildBooking,
  buildMenu,
  buildSalonWithStaff,
  buildStaff,
  buildUser,
  restrictMenu,
} from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * The waiting list (issue 30, points 4–7; decision 0055) on both engines,
 * with frozen clocks: the matcher and the worker get `now`.
 */
const database = withTestDatabase();

/** Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const DAY = "2026-12-03";
const at = (local: string) => new Date(`${local}:00+09:00`);
const later = (from: Date, minutes: number) => new Date(from.getTime() + minutes * 60_000);
const PUBLIC_URL = "https://salon.example.jp";
const customer = {
  name: "待ち 花子",
  kana: "まち はなこ",
  phone: "090-1234-5678",
  email: "hanako@example.jp",
};

const limitsOf = (options: { perIp?: number; perAccount?: number; ip?: string } = {}) => {
  const client = bookingClient(database.db, options);
  return { limits: client.limits, ip: client.ip };
};

/** Runs every due job (waiting-list kinds and housekeeping) at `now`, until none is left. */
async function runJobs(now: Date, quietHours = true) {
  const worker = createJobWorker({
    db: database.db,
    handlers: waitlistJobHandlers({
      mailFrom: "noreply@example.jp",
      publicUrl: PUBLIC_URL,
      quietHours,
    }),
    log: createLogger("silent"),
    now: () => now,
  });
  let total = 0;
  for (let pass = 0; pass < 20; pass++) {
    const done = await worker.runOnce();
    total += done;
    if (done === 0) break;
  }
  return total;
}

/**
 * A salon open 10:00–20:00 with one stylist and a 60-minute menu, full on
 * DAY: blocked 10:00–14:00 and 15:00–20:00, and 14:00–15:00 booked by a
 * visitor who can cancel it (the freed time of most tests).
 */
async function fullDay(settings: Parameters<typeof buildSalonWithStaff>[1] = {}) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, settings);
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  const blocker = await buildUser(database.db);
  for (const [from, until] of [
    ["10:00", "14:00"],
    ["15:00", "20:00"],
  ] as const) {
    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: stylist.id,
      userId: blocker.id,
      startsAt: at(`${DAY}T${from}`),
      endsAt: at(`${DAY}T${until}`),
    });
  }
  const canceller = await buildUser(database.db);
  const freed = await buildBooking(database.db, {
    salonId: salon.id,
    staffId: stylist.id,
    userId: canceller.id,
    startsAt: at(`${DAY}T14:00`),
    endsAt: at(`${DAY}T15:00`),
  });
  const cancel = (now = NOW) =>
    cancelBooking(database.db, { bookingId: freed.id, userId: canceller.id, reason: "", now });
  return { salon, stylist, menu, freed, cancel };
}

async function join(
  salonId: string,
  menuId: string,
  overrides: Partial<Parameters<typeof joinWaitlist>[1]> = {},
) {
  const user = overrides.userId ? null : await buildUser(database.db);
  return joinWaitlist(database.db, {
    userId: user?.id ?? "",
    salonId,
    menuIds: [menuId],
    staffId: null,
    date: DAY,
    windowStart: 12 * 60,
    windowEnd: 16 * 60,
    now: NOW,
    ...limitsOf(),
    ...overrides,
  });
}

const entryOf = async (id: string) => {
  const [row] = await database.db.select().from(waitlistEntries).where(eq(waitlistEntries.id, id));
  return row;
};
const offersOf = (entryId: string) =>
  database.db.select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entryId));
const mailsTo = async (userId: string) => {
  const [user] = await database.db.select().from(users).where(eq(users.id, userId));
  return database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, user?.email ?? ""));
};

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("joining the waiting list", () => {
  it("puts a signed-in visitor in line for a full day", async () => {
    const { salon, menu } = await fullDay();
    const entry = await join(salon.id, menu.id);
    expect(entry.status).toBe("waiting");
    expect(entry.menuIds).toEqual([menu.id]);
    const [listed] = await listWaitlistForUser(database.db, entry.userId, NOW);
    expect(listed).toMatchObject({
      id: entry.id,
      status: "waiting",
      statusLabel: "キャンセル待ち中",
      date: DAY,
      windowStart: 720,
      windowEnd: 960,
      staffLabel: "指名なし",
      menus: [{ id: menu.id, name: menu.name }],
      salon: { id: salon.id, slug: salon.slug },
      offer: null,
      live: true,
    });
  });

  it("refuses hostile and impossible input with a Japanese 4xx", async () => {
    const { salon, menu, stylist } = await fullDay();
    const other = await buildSalonWithStaff(database.db);
    const cases: [Partial<Parameters<typeof joinWaitlist>[1]>, new (...args: never[]) => Error][] =
      [
        [{ date: "2026-02-30" }, WaitlistInvalidError],
        [{ date: "'; drop table bookings; --" }, WaitlistInvalidError],
        [{ date: "2026-11-30" }, WaitlistInvalidError], // past
        [{ date: "2027-06-01" }, WaitlistInvalidError], // beyond the 60-day window
        [{ windowStart: 900, windowEnd: 900 }, WaitlistInvalidError],
        [{ windowStart: -5, windowEnd: 900 }, WaitlistInvalidError],
        [{ windowStart: 600, windowEnd: 1441 }, WaitlistInvalidError],
        [{ windowStart: 600.5, windowEnd: 900 }, WaitlistInvalidError],
        [{ salonId: "not-a-uuid" }, SalonNotFoundError],
        [{ menuIds: [] }, MenuNotAvailableError],
        [{ menuIds: [menu.id, menu.id] }, MenuNotAvailableError],
        [{ menuIds: Array.from({ length: 6 }, () => menu.id) }, MenuNotAvailableError],
        [{ menuIds: [other.menu.id] }, MenuNotAvailableError],
        [{ menuIds: ["<script>"] }, MenuNotAvailableError],
        [{ staffId: other.stylists[0]?.id ?? "" }, DomainError],
        [{ staffId: "x" }, DomainError],
        [{ couponId: "00000000-0000-4000-8000-000000000000" }, DomainError],
      ];
    for (const [input, kind] of cases) {
      const error = await refusal(join(salon.id, menu.id, input));
      expect(error, JSON.stringify(input)).toBeInstanceOf(kind);
      expect((error as DomainError).status).toBeGreaterThanOrEqual(400);
      expect((error as DomainError).status).toBeLessThan(500);
      expect((error as DomainError).message).toMatch(/[ぁ-んァ-ヶ一-龠]/);
    }
    // A stylist who cannot do the menu.
    const colorist = await buildStaff(database.db, salon.id, { sortOrder: 5 });
    const color = await buildMenu(database.db, salon.id, { name: "カラー" });
    await restrictMenu(database.db, color.id, [colorist.id]);
    expect(await refusal(join(salon.id, color.id, { staffId: stylist.id }))).toBeInstanceOf(
      StaffCannotDoMenuError,
    );
    expect(await database.db.$count(waitlistEntries, eq(waitlistEntries.salonId, salon.id))).toBe(
      0,
    );
  });

  it("refuses to queue for a time that is free right now", async () => {
    const { salon, menu } = await fullDay();
    const error = await refusal(join(salon.id, menu.id, { date: "2026-12-04" }));
    expect(error).toBeInstanceOf(WaitlistTimeFreeError);
    expect((error as DomainError).message).toBe(
      "ご希望の時間に空きがあります。そのままご予約いただけます。",
    );
    expect((error as DomainError).status).toBe(409);
  });

  it("allows one live entry per salon and date, and a few in all", async () => {
    const user = await buildUser(database.db);
    const first = await fullDay();
    await join(first.salon.id, first.menu.id, { userId: user.id });
    const twice = await refusal(join(first.salon.id, first.menu.id, { userId: user.id }));
    expect(twice).toBeInstanceOf(WaitlistDuplicateError);
    for (let i = 0; i < 4; i++) {
      const salon = await fullDay();
      await join(salon.salon.id, salon.menu.id, { userId: user.id });
    }
    const sixth = await fullDay();
    const tooMany = await refusal(join(sixth.salon.id, sixth.menu.id, { userId: user.id }));
    expect(tooMany).toBeInstanceOf(WaitlistTooManyError);
    expect((tooMany as DomainError).status).toBe(409);
    // Leaving one makes room again.
    const [latest] = await listWaitlistForUser(database.db, user.id, NOW);
    await leaveWaitlist(database.db, { userId: user.id, entryId: latest?.id ?? "", now: NOW });
    await join(sixth.salon.id, sixth.menu.id, { userId: user.id });
  });

  it("is rate-limited per account and per address", async () => {
    const { salon, menu } = await fullDay();
    const user = await buildUser(database.db);
    const limited = limitsOf({ perAccount: 2, perIp: 100, ip: "198.51.100.7" });
    await refusal(join(salon.id, menu.id, { userId: user.id, ...limited, date: "2026-12-30" }));
    await refusal(join(salon.id, menu.id, { userId: user.id, ...limited, date: "2026-12-30" }));
    const error = await refusal(join(salon.id, menu.id, { userId: user.id, ...limited }));
    expect(error).toBeInstanceOf(TooManyWaitlistAttemptsError);
    expect((error as DomainError).status).toBe(429);
    const byAddress = limitsOf({ perAccount: 100, perIp: 1, ip: "198.51.100.8" });
    await join(salon.id, menu.id, byAddress);
    expect(await refusal(join(salon.id, menu.id, byAddress))).toBeInstanceOf(
      TooManyWaitlistAttemptsError,
    );
  });
});

describe("offers", () => {
  it("offers a cancelled time to the first in line, with a hold, a mail and a deadline", async () => {
    const { salon, menu, stylist, cancel } = await fullDay();
    const first = await join(salon.id, menu.id);
    const second = await join(salon.id, menu.id, { now: later(NOW, 1) });
    await cancel();
    // The job committed with the cancellation.
    expect(
      await database.db.$count(
        jobs,
        and(eq(jobs.kind, "waitlist_match"), eq(jobs.salonId, salon.id)),
      ),
    ).toBe(1);
    await runJobs(NOW);
    expect((await entryOf(first.id))?.status).toBe("offered");
    expect((await entryOf(second.id))?.status).toBe("waiting");
    const [offer] = await offersOf(first.id);
    expect(offer).toMatchObject({
      status: "open",
      staffId: stylist.id,
      startsAt: at(`${DAY}T14:00`),
      expiresAt: later(NOW, 30),
    });
    const [hold] = await database.db
      .select()
      .from(bookings)
      .where(eq(bookings.id, offer?.holdId ?? ""));
    expect(hold).toMatchObject({
      status: "held",
      userId: first.userId,
      holdExpiresAt: later(NOW, 30),
    });
    const mails = await mailsTo(first.userId);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain("キャンセル待ち");
    expect(mails[0]?.text).toContain("2026年12月3日(木) 14:00〜15:00");
    expect(mails[0]?.text).toContain("2026年12月1日(火) 09:30");
    expect(mails[0]?.text).toContain(`${PUBLIC_URL}/account/waitlist/offers/${offer?.id}`);
    expect(await mailsTo(second.userId)).toHaveLength(0);
    // Running the worker again offers nothing twice.
    await runJobs(later(NOW, 1));
    expect(await offersOf(first.id)).toHaveLength(1);
    expect(await mailsTo(first.userId)).toHaveLength(1);

    const view = await getOfferForUser(database.db, {
      userId: first.userId,
      offerId: offer?.id ?? "",
      now: NOW,
    });
    expect(view).toMatchObject({ bookable: true, staffRequested: false, holdId: hold?.id });
    expect(view.menus.map((m) => m.name)).toEqual([menu.name]);
    // Someone else's offer does not exist for them.
    expect(
      await refusal(
        getOfferForUser(database.db, { userId: second.userId, offerId: offer?.id ?? "", now: NOW }),
      ),
    ).toBeInstanceOf(WaitlistOfferNotFoundError);
    const line = await listWaitlistForSalonDay(database.db, { salonId: salon.id, date: DAY });
    expect(line.map((e) => [e.id, e.position, e.status])).toEqual([
      [first.id, 1, "offered"],
      [second.id, 2, "waiting"],
    ]);
    expect(line[0]?.offer?.id).toBe(offer?.id);
  });

  it("passes the time to the next in line when the offer lapses", async () => {
    const { salon, menu, cancel } = await fullDay();
    const first = await join(salon.id, menu.id);
    const second = await join(salon.id, menu.id, { now: later(NOW, 1) });
    await cancel();
    await runJobs(NOW);
    await runJobs(later(NOW, 29));
    expect((await entryOf(first.id))?.status).toBe("offered");
    await runJobs(later(NOW, 30));
    expect((await entryOf(first.id))?.status).toBe("lapsed");
    expect((await offersOf(first.id))[0]?.status).toBe("lapsed");
    expect((await entryOf(second.id))?.status).toBe("offered");
    const [next] = await offersOf(second.id);
    expect(next?.expiresAt).toEqual(later(NOW, 60));
    expect(await mailsTo(second.userId)).toHaveLength(1);
    // One occupying row for the time: the lapsed hold went.
    const rows = await database.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.salonId, salon.id), eq(bookings.startsAt, at(`${DAY}T14:00`))));
    expect(rows.filter((row) => row.status === "held")).toHaveLength(1);
  });

  it("settles the offer when the visitor confirms its hold", async () => {
    const { salon, menu, cancel } = await fullDay();
    const first = await join(salon.id, menu.id);
    const second = await join(salon.id, menu.id, { now: later(NOW, 1) });
    await cancel();
    await runJobs(NOW);
    const [offer] = await offersOf(first.id);
    const booking = await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: offer?.holdId ?? "",
      userId: first.userId,
      customer,
      notes: "",
      idempotencyKey: null,
      now: later(NOW, 5),
    });
    expect(booking.status).toBe("confirmed");
    expect(await entryOf(first.id)).toMatchObject({ status: "booked", bookingId: booking.id });
    expect((await offersOf(first.id))[0]?.status).toBe("accepted");
    // The deadline passes: nothing is handed on.
    await runJobs(later(NOW, 31));
    expect((await entryOf(second.id))?.status).toBe("waiting");
    expect((await offersOf(first.id))[0]?.status).toBe("accepted");
    const [listed] = await listWaitlistForUser(database.db, first.userId, NOW);
    expect(listed).toMatchObject({ status: "booked", statusLabel: "予約済み", live: false });
  });

  it("hands the time on when the visitor declines, and leaving does the same", async () => {
    const { salon, menu, cancel } = await fullDay();
    const first = await join(salon.id, menu.id);
    const second = await join(salon.id, menu.id, { now: later(NOW, 1) });
    const third = await join(salon.id, menu.id, { now: later(NOW, 2) });
    await cancel();
    await runJobs(NOW);
    const [offer] = await offersOf(first.id);
    // Not theirs: 404, and nothing changes.
    expect(
      await refusal(
        declineOffer(database.db, { userId: second.userId, offerId: offer?.id ?? "", now: NOW }),
      ),
    ).toBeInstanceOf(WaitlistOfferNotFoundError);
    await declineOffer(database.db, { userId: first.userId, offerId: offer?.id ?? "", now: NOW });
    expect((await entryOf(first.id))?.status).toBe("left");
    expect((await offersOf(first.id))[0]?.status).toBe("withdrawn");
    expect(await database.db.$count(bookings, eq(bookings.id, offer?.holdId ?? ""))).toBe(0);
    expect(
      await refusal(
        declineOffer(database.db, { userId: first.userId, offerId: offer?.id ?? "", now: NOW }),
      ),
    ).toBeInstanceOf(WaitlistOfferClosedError);
    await runJobs(NOW);
    expect((await entryOf(second.id))?.status).toBe("offered");
    // The second leaves the list with the offer open: the third gets it.
    expect(
      await refusal(
        leaveWaitlist(database.db, { userId: first.userId, entryId: second.id, now: NOW }),
      ),
    ).toBeInstanceOf(WaitlistNotFoundError);
    await leaveWaitlist(database.db, { userId: second.userId, entryId: second.id, now: NOW });
    expect((await entryOf(second.id))?.status).toBe("left");
    await runJobs(NOW);
    expect((await entryOf(third.id))?.status).toBe("offered");
  });

  it("skips those who cannot confirm (unverified address, suspended account) and offers to the next", async () => {
    const { salon, menu, cancel } = await fullDay();
    const unverified = await buildUser(database.db, { emailVerified: false });
    const suspended = await buildUser(database.db, { banned: true });
    // A suspension that ran out is no suspension: Better Auth lifts it at the next sign-in.
    const liftedBan = await buildUser(database.db, {
      banned: true,
      banExpires: later(NOW, -60),
    });
    const first = await join(salon.id, menu.id, { userId: unverified.id });
    const second = await join(salon.id, menu.id, { userId: suspended.id, now: later(NOW, 1) });
    const third = await join(salon.id, menu.id, { userId: liftedBan.id, now: later(NOW, 2) });
    await cancel();
    await runJobs(NOW);
    // They keep their place: once verified (or reinstated) the next freed time is theirs.
    expect((await entryOf(first.id))?.status).toBe("waiting");
    expect((await entryOf(second.id))?.status).toBe("waiting");
    expect(await offersOf(first.id)).toHaveLength(0);
    expect(await offersOf(second.id)).toHaveLength(0);
    expect(await mailsTo(unverified.id)).toHaveLength(0);
    expect((await entryOf(third.id))?.status).toBe("offered");
    expect(await mailsTo(liftedBan.id)).toHaveLength(1);
  });

  it("offers a freed time to one person at a time", async () => {
    const { salon, menu, cancel } = await fullDay();
    const entries = [];
    for (let i = 0; i < 4; i++) entries.push(await join(salon.id, menu.id, { now: later(NOW, i) }));
    await cancel();
    await runJobs(NOW);
    await runJobs(NOW);
    const statuses = await database.db
      .select({ status: waitlistEntries.status })
      .from(waitlistEntries)
      .where(
        inArray(
          waitlistEntries.id,
          entries.map((e) => e.id),
        ),
      );
    expect(statuses.filter((s) => s.status === "offered")).toHaveLength(1);
    expect(await database.db.$count(waitlistOffers, eq(waitlistOffers.salonId, salon.id))).toBe(1);
  });

  it("lets a visitor booking directly win the freed time before the job runs", async () => {
    const { salon, menu, stylist, cancel } = await fullDay();
    const waiting = await join(salon.id, menu.id);
    await cancel();
    const direct = await buildUser(database.db);
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylist.id,
      start: at(`${DAY}T14:00`),
      userId: direct.id,
      now: NOW,
    });
    await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId: direct.id,
      customer,
      notes: "",
      idempotencyKey: null,
      now: NOW,
    });
    await runJobs(NOW);
    expect((await entryOf(waiting.id))?.status).toBe("waiting");
    expect(await offersOf(waiting.id)).toHaveLength(0);
  });

  it("books the entry of a visitor who booked the wished time themselves", async () => {
    const { salon, menu, stylist, cancel } = await fullDay();
    const waiting = await join(salon.id, menu.id);
    const other = await join(salon.id, menu.id, { now: later(NOW, 1) });
    await cancel();
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylist.id,
      start: at(`${DAY}T14:00`),
      userId: waiting.userId,
      now: NOW,
    });
    const booking = await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId: waiting.userId,
      customer,
      notes: "",
      idempotencyKey: null,
      now: NOW,
    });
    expect(await entryOf(waiting.id)).toMatchObject({ status: "booked", bookingId: booking.id });
    expect((await entryOf(other.id))?.status).toBe("waiting");
    await runJobs(NOW);
    expect(await offersOf(waiting.id)).toHaveLength(0);
    expect(await offersOf(other.id)).toHaveLength(0);
  });

  it("keeps an offer's hold when its visitor holds another time at the salon", async () => {
    const { salon, menu, stylist, cancel } = await fullDay();
    const waiting = await join(salon.id, menu.id);
    await cancel();
    await runJobs(NOW);
    const [offer] = await offersOf(waiting.id);
    const other = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylist.id,
      start: at("2026-12-04T10:00"),
      userId: waiting.userId,
      now: NOW,
    });
    expect(await database.db.$count(bookings, eq(bookings.id, offer?.holdId ?? ""))).toBe(1);
    // Picking yet another time releases that ordinary hold, as before.
    await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylist.id,
      start: at("2026-12-04T11:00"),
      userId: waiting.userId,
      now: NOW,
    });
    expect(await database.db.$count(bookings, eq(bookings.id, other.id))).toBe(0);
    expect(await database.db.$count(bookings, eq(bookings.id, offer?.holdId ?? ""))).toBe(1);
  });

  it("offers a time whose hold lapsed unconfirmed, when it lapses", async () => {
    const { salon, menu, stylist, cancel } = await fullDay();
    const waiting = await join(salon.id, menu.id);
    await cancel();
    const browsing = await buildUser(database.db);
    await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: stylist.id,
      start: at(`${DAY}T14:00`),
      userId: browsing.id,
      now: NOW,
    });
    await runJobs(NOW);
    expect((await entryOf(waiting.id))?.status).toBe("waiting");
    // The hold's ten minutes pass with no write at all.
    await runJobs(later(NOW, 10));
    expect((await entryOf(waiting.id))?.status).toBe("offered");
    expect((await offersOf(waiting.id))[0]?.startsAt).toEqual(at(`${DAY}T14:00`));
  });

  it("never offers a time within the salon's minimum notice", async () => {
    const { salon, menu, cancel } = await fullDay({
      settings: { leadTimeMinutes: 120, cancellationCutoffHours: 0 },
    });
    const waiting = await join(salon.id, menu.id);
    // Freed at 12:30 on the day itself: 14:00 starts within two hours.
    const sameDay = new Date(`${DAY}T12:30:00+09:00`);
    await cancel(sameDay);
    await runJobs(sameDay);
    expect((await entryOf(waiting.id))?.status).toBe("waiting");
    expect(await offersOf(waiting.id)).toHaveLength(0);
    expect(await mailsTo(waiting.userId)).toHaveLength(0);
  });

  it("makes no offer between 22:00 and 08:00, and makes it at 08:00", async () => {
    const { salon, menu, cancel } = await fullDay();
    const waiting = await join(salon.id, menu.id);
    const night = new Date("2026-12-01T23:00:00+09:00");
    await cancel(night);
    await runJobs(night);
    expect((await entryOf(waiting.id))?.status).toBe("waiting");
    expect(await mailsTo(waiting.userId)).toHaveLength(0);
    const morningJob = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `waitlist-morning:${salon.id}:${DAY}:2026-12-02`));
    expect(morningJob[0]?.runAt).toEqual(new Date("2026-12-02T08:00:00+09:00"));
    await runJobs(new Date("2026-12-02T07:59:00+09:00"));
    expect((await entryOf(waiting.id))?.status).toBe("waiting");
    const morning = new Date("2026-12-02T08:00:00+09:00");
    await runJobs(morning);
    expect((await entryOf(waiting.id))?.status).toBe("offered");
    const mails = await mailsTo(waiting.userId);
    expect(mails).toHaveLength(1);
    const [offer] = await offersOf(waiting.id);
    expect(offer?.expiresAt).toEqual(later(morning, 30));
  });

  it("offers at night only where WAITLIST_QUIET_HOURS is off (the end-to-end server)", async () => {
    const { salon, menu, cancel } = await fullDay();
    const waiting = await join(salon.id, menu.id);
    const night = new Date("2026-12-01T23:00:00+09:00");
    await cancel(night);
    await runJobs(night, false);
    expect((await entryOf(waiting.id))?.status).toBe("offered");
    expect(await mailsTo(waiting.userId)).toHaveLength(1);
  });

  it("ends the offer in time for the minimum notice before the start", async () => {
    const { salon, menu, cancel } = await fullDay({ settings: { leadTimeMinutes: 60 } });
    const waiting = await join(salon.id, menu.id);
    await cancel();
    const close = new Date(`${DAY}T12:45:00+09:00`);
    await runJobs(close);
    const [offer] = await offersOf(waiting.id);
    // 14:00 − 60 minutes, before now + 30.
    expect(offer?.expiresAt).toEqual(at(`${DAY}T13:00`));
  });

  it("expires entries of past dates, with their open offers", async () => {
    const { salon, menu, cancel } = await fullDay();
    const offered = await join(salon.id, menu.id);
    const waiting = await join(salon.id, menu.id, { now: later(NOW, 1) });
    await cancel();
    await runJobs(NOW);
    expect((await entryOf(offered.id))?.status).toBe("offered");
    const nextDay = new Date("2026-12-04T09:00:00+09:00");
    await database.db.transaction((tx) =>
      housekeepingHandler({ tx, now: nextDay, job: {} as never }),
    );
    expect((await entryOf(offered.id))?.status).toBe("expired");
    expect((await entryOf(waiting.id))?.status).toBe("expired");
    expect((await offersOf(offered.id))[0]?.status).toBe("lapsed");
  });
});
