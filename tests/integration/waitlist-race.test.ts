import { and, eq, inArray, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cancelBooking, confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { SlotTakenError } from "../../server/bookings/booking-errors";
import {
  bookings,
  jobs,
  mailOutbox,
  users,
  waitlistEntries,
  waitlistOffers,
} from "../../server/db/schema";
import { createJobWorker, type JobHandler } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { joinWaitlist } from "../../server/waitlist/waitlist.server";
import { waitlistJobHandlers } from "../../server/waitlist/waitlist-jobs.server";
import { waitlistJobKinds } from "../../server/waitlist/waitlist-trigger.server";
import { bookingClient } from "../support/booking-client";
import { buildBooking, buildSalonWithStaff, buildUser } from "../support/builders";
import { transactionsTakeTurns, withTestDatabase } from "../support/test-database";

/**
 * The waiting list under concurrency and crashes (issue 30, point 5;
 * decision 0055): a visitor booking a freed time directly races the match
 * job that offers it; two workers run one match job; a job committed with
 * the freeing survives a crash before the offer. Races on PostgreSQL only
 * (PGlite runs one transaction at a time).
 */
const database = withTestDatabase();

/** Tuesday 1 December 2026, 09:00 in Tokyo. */
const NOW = new Date("2026-12-01T09:00:00+09:00");
const DAY = "2026-12-03";
const at = (local: string) => new Date(`${DAY}T${local}:00+09:00`);
const customer = {
  name: "直接 予約",
  kana: "ちょくせつ よやく",
  phone: "090-1234-5678",
  email: "direct@example.jp",
};
const handlers = waitlistJobHandlers({ mailFrom: "noreply@example.jp", publicUrl: "https://x.jp" });
const worker = (h: Record<string, JobHandler> = handlers, now = NOW) =>
  createJobWorker({ db: database.db, handlers: h, log: createLogger("silent"), now: () => now });

/** One stylist full on DAY, with a cancellable 14:00–15:00 and one visitor waiting for it. */
async function scene() {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db);
  const stylist = stylists[0];
  if (!stylist) throw new Error("no stylist");
  const other = await buildUser(database.db);
  for (const [from, until] of [
    ["10:00", "14:00"],
    ["15:00", "20:00"],
  ] as const) {
    await buildBooking(database.db, {
      salonId: salon.id,
      staffId: stylist.id,
      userId: other.id,
      startsAt: at(from),
      endsAt: at(until),
    });
  }
  const canceller = await buildUser(database.db);
  const freed = await buildBooking(database.db, {
    salonId: salon.id,
    staffId: stylist.id,
    userId: canceller.id,
    startsAt: at("14:00"),
    endsAt: at("15:00"),
  });
  const waiting = await buildUser(database.db);
  const entry = await joinWaitlist(database.db, {
    userId: waiting.id,
    salonId: salon.id,
    menuIds: [menu.id],
    staffId: stylist.id,
    date: DAY,
    windowStart: 12 * 60,
    windowEnd: 16 * 60,
    now: NOW,
    ...bookingClient(database.db),
  });
  const cancel = () =>
    cancelBooking(database.db, { bookingId: freed.id, userId: canceller.id, reason: "", now: NOW });
  return { salon, stylist, menu, entry, waiting, cancel };
}

const matchJobs = (salonId: string) =>
  database.db
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.salonId, salonId), eq(jobs.kind, waitlistJobKinds.match), isNull(jobs.doneAt)),
    );

/** Rows occupying the freed time (a live hold or a booking), whoever has them. */
const occupying = (salonId: string) =>
  database.db
    .select({ id: bookings.id, status: bookings.status, userId: bookings.userId })
    .from(bookings)
    .where(
      and(
        eq(bookings.salonId, salonId),
        eq(bookings.startsAt, at("14:00")),
        inArray(bookings.status, ["held", "confirmed"]),
      ),
    );

const offersOf = (entryId: string) =>
  database.db.select().from(waitlistOffers).where(eq(waitlistOffers.entryId, entryId));
const mailsTo = async (userId: string) => {
  const [user] = await database.db.select().from(users).where(eq(users.id, userId));
  return database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, user?.email ?? ""));
};

describe("durability", () => {
  it("has the match job the moment the cancellation commits", async () => {
    const { salon, cancel } = await scene();
    expect(await matchJobs(salon.id)).toHaveLength(0);
    await cancel();
    const [job] = await matchJobs(salon.id);
    expect(job?.payload).toEqual({ salonId: salon.id, date: DAY });
  });

  it("loses no offer and sends no second mail when a worker dies mid-job", async () => {
    const { salon, entry, waiting, cancel } = await scene();
    await cancel();
    // The first worker makes the offer, then dies before its commit: all of it rolls back.
    const dying = worker({
      [waitlistJobKinds.match]: async (context) => {
        await handlers[waitlistJobKinds.match]?.(context);
        throw new Error("kill -9");
      },
    });
    expect(await dying.runOnce()).toBe(0);
    expect(await offersOf(entry.id)).toHaveLength(0);
    expect(await occupying(salon.id)).toHaveLength(0);
    // A worker claimed the job and vanished: its lease runs out and another takes it.
    const vanished = worker(handlers, new Date(NOW.getTime() + 60 * 60_000));
    expect((await vanished.claim()).filter((job) => job.salonId === salon.id)).toHaveLength(1);
    const later = worker(handlers, new Date(NOW.getTime() + 2 * 60 * 60_000));
    let done = 0;
    for (let pass = 0; pass < 5; pass++) done += await later.runOnce();
    expect(done).toBeGreaterThan(0);
    expect(await offersOf(entry.id)).toHaveLength(1);
    expect(await mailsTo(waiting.id)).toHaveLength(1);
    expect(await occupying(salon.id)).toHaveLength(1);
  });
});

describe("races", () => {
  it.skipIf(transactionsTakeTurns)(
    "a direct booking against the match job for the same freed time: exactly one gets it",
    async () => {
      const outcomes = { direct: 0, offer: 0 };
      for (let round = 0; round < 12; round++) {
        const { salon, stylist, menu, entry, cancel } = await scene();
        await cancel();
        const direct = await buildUser(database.db);
        const book = async () => {
          const hold = await holdSlot(database.db, {
            ...bookingClient(database.db),
            salonId: salon.id,
            menuIds: [menu.id],
            staffId: stylist.id,
            start: at("14:00"),
            userId: direct.id,
            now: NOW,
          });
          return confirmBooking(database.db, {
            ...bookingClient(database.db),
            holdId: hold.id,
            userId: direct.id,
            customer,
            notes: "",
            idempotencyKey: null,
            now: NOW,
          });
        };
        const [booked] = await Promise.allSettled([book(), worker().runOnce()]);
        // Whatever the direct booking queued runs too.
        while ((await worker().runOnce()) > 0) {}
        const rows = await occupying(salon.id);
        expect(rows, `round ${round}`).toHaveLength(1);
        const offers = await offersOf(entry.id);
        const [row] = await database.db
          .select()
          .from(waitlistEntries)
          .where(eq(waitlistEntries.id, entry.id));
        if (booked.status === "fulfilled") {
          outcomes.direct++;
          expect(rows[0]?.userId).toBe(direct.id);
          expect(offers).toHaveLength(0);
          expect(row?.status).toBe("waiting");
        } else {
          outcomes.offer++;
          expect(booked.reason).toBeInstanceOf(SlotTakenError);
          expect(rows[0]).toMatchObject({ status: "held", userId: entry.userId });
          expect(offers).toHaveLength(1);
          expect(row?.status).toBe("offered");
        }
      }
      expect(outcomes.direct + outcomes.offer).toBe(12);
    },
    120_000,
  );

  it.skipIf(transactionsTakeTurns)(
    "two workers on the same match job, and on two match jobs of one date: one offer, one mail",
    async () => {
      for (let round = 0; round < 6; round++) {
        const { salon, entry, waiting, cancel } = await scene();
        await cancel();
        // A second change of the same date queued a second job.
        await database.db.insert(jobs).values({
          kind: waitlistJobKinds.match,
          payload: { salonId: salon.id, date: DAY },
          runAt: NOW,
          salonId: salon.id,
        });
        const a = worker();
        const b = worker();
        const claimed = await a.claim();
        const ours = claimed.filter((job) => job.salonId === salon.id);
        expect(ours).toHaveLength(2);
        const [first, second] = ours;
        if (!first || !second) throw new Error("two jobs expected");
        // The same job twice at once, and the other job beside them.
        const runs = await Promise.all([a.run(first), b.run(first), b.run(second)]);
        expect(runs.filter(Boolean)).toHaveLength(2);
        expect(await offersOf(entry.id)).toHaveLength(1);
        while ((await worker().runOnce()) > 0) {}
        expect(await mailsTo(waiting.id)).toHaveLength(1);
        expect(await occupying(salon.id)).toHaveLength(1);
      }
    },
    120_000,
  );
});
