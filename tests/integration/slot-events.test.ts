import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/client";
import {
  createSlotEvents,
  notifySlotChange,
  type SlotEvent,
  type SlotEvents,
} from "../../server/realtime/slot-events.server";
import { Inbox } from "../support/inbox";
import { withTestDatabase } from "../support/test-database";

// Two app servers over one database: A notifies, B's subscribers hear it.
const serverA = withTestDatabase();
let serverB: DatabaseHandle;
let eventsA: SlotEvents;
let eventsB: SlotEvents;

beforeAll(async () => {
  serverB = await serverA.openAnother();
  eventsA = createSlotEvents(serverA);
  eventsB = createSlotEvents(serverB);
});
afterAll(async () => {
  await eventsA?.close();
  await eventsB?.close();
  await serverB?.close();
});

describe("slot change notifications (LISTEN/NOTIFY)", () => {
  it("reach the subscribers of that salon on every app server, and only them", async () => {
    const salon = randomUUID();
    const other = randomUUID();
    const onB = new Inbox<SlotEvent>();
    const onA = new Inbox<SlotEvent>();
    const otherOnB = new Inbox<SlotEvent>();
    const stopB = await eventsB.subscribe(salon, onB.push);
    const stopA = await eventsA.subscribe(salon, onA.push);
    const stopOther = await eventsB.subscribe(other, otherOnB.push);

    await notifySlotChange(serverA.db, salon, ["2026-12-02", "2026-12-01", "2026-12-02"]);

    expect(await onB.next()).toEqual({ salonId: salon, dates: ["2026-12-01", "2026-12-02"] });
    expect(await onA.next()).toEqual({ salonId: salon, dates: ["2026-12-01", "2026-12-02"] });
    // The other salon's subscriber hears its own change and nothing before it.
    await notifySlotChange(serverA.db, other, ["2026-12-03"]);
    expect(await otherOnB.next()).toEqual({ salonId: other, dates: ["2026-12-03"] });
    expect(otherOnB.pending()).toEqual([]);
    stopA();
    stopB();
    stopOther();
  });

  it("are delivered on commit and never for a rolled-back transaction", async () => {
    const salon = randomUUID();
    const inbox = new Inbox<SlotEvent>();
    const stop = await eventsB.subscribe(salon, inbox.push);

    await expect(
      serverA.db.transaction(async (tx) => {
        await notifySlotChange(tx, salon, ["2026-12-10"]);
        throw new Error("booking failed");
      }),
    ).rejects.toThrow("booking failed");
    await serverA.db.transaction(async (tx) => {
      await notifySlotChange(tx, salon, ["2026-12-11"]);
    });

    expect(await inbox.next()).toEqual({ salonId: salon, dates: ["2026-12-11"] });
    expect(inbox.pending()).toEqual([]);
    stop();
  });

  it("forget a subscriber once it unsubscribes", async () => {
    const salon = randomUUID();
    const before = eventsB.subscriberCount();
    const gone = new Inbox<SlotEvent>();
    const kept = new Inbox<SlotEvent>();
    const stopGone = await eventsB.subscribe(salon, gone.push);
    const stopKept = await eventsB.subscribe(salon, kept.push);
    expect(eventsB.subscriberCount()).toBe(before + 2);
    stopGone();
    expect(eventsB.subscriberCount()).toBe(before + 1);

    await notifySlotChange(serverA.db, salon, ["2026-12-20"]);
    await kept.next();
    expect(gone.pending()).toEqual([]);
    stopKept();
    expect(eventsB.subscriberCount()).toBe(before);
  });

  it("ignore payloads on the channel that are not slot changes", async () => {
    const salon = randomUUID();
    const inbox = new Inbox<SlotEvent>();
    const stop = await eventsB.subscribe(salon, inbox.push);
    await serverA.db.execute(sql`select pg_notify('slot_changes', 'not json')`);
    await serverA.db.execute(
      sql`select pg_notify('slot_changes', ${JSON.stringify({ salonId: salon, dates: ["x"] })})`,
    );
    await notifySlotChange(serverA.db, salon, ["2026-12-21"]);
    expect(await inbox.next()).toEqual({ salonId: salon, dates: ["2026-12-21"] });
    expect(inbox.pending()).toEqual([]);
    stop();
  });
});
