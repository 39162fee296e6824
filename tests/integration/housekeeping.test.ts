import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  bookings,
  jobs,
  ownerInvitations,
  sessions,
  verifications,
  webhookDeliveries,
  webhookEndpoints,
} from "../../server/db/schema";
import {
  housekeepingHandler,
  housekeepingKind,
  nextHousekeepingRun,
  removeDeadRows,
  scheduleHousekeeping,
} from "../../server/jobs/housekeeping.server";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { buildBooking, buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
const NOW = new Date("2026-12-10T00:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 60 * 60 * 1000);

describe("housekeeping", () => {
  it("removes only rows nobody can use any more, keeping a margin", async () => {
    const db = database.db;
    // Jobs: finished long ago (gone), finished recently and still due (kept).
    await db.insert(jobs).values([
      { kind: "old", payload: {}, runAt: daysAgo(40), doneAt: daysAgo(31), dedupeKey: "hk:old" },
      { kind: "recent", payload: {}, runAt: daysAgo(2), doneAt: daysAgo(1), dedupeKey: "hk:new" },
      { kind: "due", payload: {}, runAt: daysAgo(40), dedupeKey: "hk:due" },
    ]);
    // Invitations: lapsed long ago (gone), used long ago (gone), open (kept).
    const invited = await buildUser(db);
    await db.insert(ownerInvitations).values([
      { tokenHash: "hk-lapsed", userId: invited.id, kind: "new_owner", expiresAt: daysAgo(31) },
      {
        tokenHash: "hk-used",
        userId: invited.id,
        kind: "new_owner",
        expiresAt: daysAgo(20),
        usedAt: daysAgo(35),
      },
      { tokenHash: "hk-open", userId: invited.id, kind: "new_owner", expiresAt: daysAgo(-2) },
    ]);
    // Holds: lapsed two days ago (gone), lapsed an hour ago (kept), a booking (kept).
    const { salon, stylists } = await buildSalonWithStaff(db);
    const stylist = stylists[0];
    if (!stylist) throw new Error("no stylist");
    const slot = (day: number) => ({
      salonId: salon.id,
      staffId: stylist.id,
      startsAt: new Date(Date.UTC(2026, 11, day, 1)),
      endsAt: new Date(Date.UTC(2026, 11, day, 2)),
    });
    const oldHold = await buildBooking(db, {
      ...slot(1),
      status: "held",
      holdExpiresAt: hoursAgo(48),
    });
    const freshHold = await buildBooking(db, {
      ...slot(2),
      status: "held",
      holdExpiresAt: hoursAgo(1),
    });
    const confirmed = await buildBooking(db, { ...slot(3), status: "confirmed" });
    // Sessions and verification tokens.
    await db.insert(sessions).values([
      { id: "hk-s-old", userId: invited.id, token: "hk-s-old", expiresAt: daysAgo(8) },
      { id: "hk-s-live", userId: invited.id, token: "hk-s-live", expiresAt: daysAgo(-1) },
    ]);
    await db.insert(verifications).values([
      { id: "hk-v-old", identifier: "a", value: "a", expiresAt: daysAgo(2) },
      { id: "hk-v-live", identifier: "b", value: "b", expiresAt: hoursAgo(1) },
    ]);

    // A salon's webhook log (decision 0086): sent a month ago (gone), still retrying (kept),
    // failed yesterday (kept).
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        salonId: salon.id,
        url: "https://hooks.example.com/",
        events: ["booking.created"],
        secret: "whsec_aGs=",
      })
      .returning();
    if (!endpoint) throw new Error("no endpoint");
    const delivery = (status: "delivered" | "pending" | "failed", createdAt: Date) => ({
      endpointId: endpoint.id,
      messageId: `msg_hk_${status}`,
      eventType: "booking.created" as const,
      body: "{}",
      status,
      createdAt,
    });
    await db
      .insert(webhookDeliveries)
      .values([
        delivery("delivered", daysAgo(31)),
        delivery("pending", daysAgo(31)),
        delivery("failed", daysAgo(1)),
      ]);

    expect(await removeDeadRows(db, NOW)).toEqual({
      jobs: 1,
      invitations: 2,
      holds: 1,
      sessions: 1,
      verifications: 1,
      webhookDeliveries: 1,
    });
    const log = await db.select({ id: webhookDeliveries.messageId }).from(webhookDeliveries);
    expect(log.map((row) => row.id).sort()).toEqual(["msg_hk_failed", "msg_hk_pending"]);
    const keys = (await db.select({ key: jobs.dedupeKey }).from(jobs)).map((row) => row.key);
    expect(keys.sort()).toEqual(["hk:due", "hk:new"]);
    const tokens = (await db.select({ t: ownerInvitations.tokenHash }).from(ownerInvitations)).map(
      (row) => row.t,
    );
    expect(tokens).toEqual(["hk-open"]);
    const left = (await db.select({ id: bookings.id }).from(bookings)).map((row) => row.id);
    expect(left.sort()).toEqual([freshHold.id, confirmed.id].sort());
    expect(left).not.toContain(oldHold.id);
    expect((await db.select().from(sessions)).map((row) => row.id)).toEqual(["hk-s-live"]);
    expect((await db.select().from(verifications)).map((row) => row.id)).toEqual(["hk-v-live"]);
  });

  it("runs as a daily job that schedules the next one once", async () => {
    const db = database.db;
    const first = nextHousekeepingRun(NOW);
    // 2026-12-10T00:00Z is 09:00 in Japan: the next run is 04:00 JST on the 11th.
    expect(first.toISOString()).toBe("2026-12-10T19:00:00.000Z");
    expect(await scheduleHousekeeping(db, first)).toBe(true);
    // A second server starting at the same time adds nothing.
    expect(await scheduleHousekeeping(db, first)).toBe(false);

    const worker = createJobWorker({
      db,
      handlers: { [housekeepingKind]: housekeepingHandler },
      log: createLogger("silent"),
      now: () => first,
    });
    expect(await worker.runOnce()).toBe(1);
    const pending = await db
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(eq(jobs.kind, housekeepingKind));
    const runs = pending.map((row) => row.runAt.toISOString()).sort();
    expect(runs).toEqual(["2026-12-10T19:00:00.000Z", "2026-12-11T19:00:00.000Z"]);
  });
});
