import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAvailabilityStream, RETRY_MS } from "../../server/api/availability-stream";
import type { DatabaseHandle } from "../../server/db/client";
import { favorites } from "../../server/db/schema";
import {
  createSlotEvents,
  notifySlotChange,
  type SlotEvents,
} from "../../server/realtime/slot-events.server";
import { buildSalon, buildUser } from "../support/builders";
import { readEventStream } from "../support/sse";
import { withTestDatabase } from "../support/test-database";

/**
 * The live stream's machinery between two app servers over one database:
 * the snapshot here is a plain count read from the database (the booking
 * API's stream, tested in booking-api.test.ts, sends real availability).
 */
const serverA = withTestDatabase();
let serverB: DatabaseHandle;
let eventsB: SlotEvents;

function streamApp(database: DatabaseHandle, slotEvents: SlotEvents, heartbeatMs?: number) {
  const app = new Hono();
  app.get("/stream/:salonId", (c) =>
    openAvailabilityStream(c, {
      slotEvents,
      salonId: c.req.param("salonId"),
      from: "2026-12-01",
      to: "2026-12-07",
      heartbeatMs,
      snapshot: async () => {
        const [row] = await database.db
          .select({ n: count() })
          .from(favorites)
          .where(eq(favorites.salonId, c.req.param("salonId")));
        return { favorites: row?.n ?? 0 };
      },
    }),
  );
  return app;
}

beforeAll(async () => {
  serverB = await serverA.openAnother();
  eventsB = createSlotEvents(serverB);
});
afterAll(async () => {
  await eventsB?.close();
  await serverB?.close();
});

describe("availability stream (SSE)", () => {
  it("sends a snapshot, then a fresh one when another server notifies a change in range", async () => {
    const salon = await buildSalon(serverA.db);
    const user = await buildUser(serverA.db);
    const appB = streamApp(serverB, eventsB);
    const response = await appB.request(`/stream/${salon.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const stream = readEventStream(response);

    const first = await stream.nextAvailability();
    expect(first.id).toBe("1");
    expect(first.retry).toBe(RETRY_MS);
    expect(first.payload).toEqual({ changedDates: null, data: { favorites: 0 } });

    // Server A changes data and notifies; a date outside the range is ignored.
    await notifySlotChange(serverA.db, salon.id, ["2026-12-20"]);
    await serverA.db.transaction(async (tx) => {
      await tx.insert(favorites).values({ userId: user.id, salonId: salon.id });
      await notifySlotChange(tx, salon.id, ["2026-12-02", "2026-12-31"]);
    });
    const second = await stream.nextAvailability();
    expect(second.id).toBe("2");
    expect(second.payload).toMatchObject({ changedDates: ["2026-12-02"], data: { favorites: 1 } });
    expect(stream.inbox.pending().filter((m) => m.event)).toEqual([]);
    await stream.close();
  });

  it("stops listening when the client goes away", async () => {
    const salonId = randomUUID();
    const appB = streamApp(serverB, eventsB);
    const before = eventsB.subscriberCount();
    const stream = readEventStream(await appB.request(`/stream/${salonId}`));
    await stream.nextAvailability();
    expect(eventsB.subscriberCount()).toBe(before + 1);

    // The server notices the cancelled body on its next write (a change or a heartbeat).
    await stream.close();
    const gone = new Promise<void>((resolve) => {
      const check = () => {
        if (eventsB.subscriberCount() === before) return resolve();
        setImmediate(check);
      };
      check();
    });
    await notifySlotChange(serverA.db, salonId, ["2026-12-03"]);
    await gone;
    expect(eventsB.subscriberCount()).toBe(before);
  });

  it("sends heartbeat comments, and a fresh snapshot on reconnect (Last-Event-ID)", async () => {
    const salonId = randomUUID();
    const appB = streamApp(serverB, eventsB, 20);
    const stream = readEventStream(await appB.request(`/stream/${salonId}`));
    await stream.nextAvailability();
    expect((await stream.inbox.next((m) => m.comment !== undefined)).comment).toBe("ping");
    await stream.close();

    const again = readEventStream(
      await appB.request(`/stream/${salonId}`, { headers: { "last-event-id": "7" } }),
    );
    const resumed = await again.nextAvailability();
    expect(resumed.payload).toMatchObject({ changedDates: null, data: { favorites: 0 } });
    expect(resumed.retry).toBe(RETRY_MS);
    await again.close();
  });

  it("ends open streams when the server shuts down", async () => {
    const events = createSlotEvents(serverB);
    const app = streamApp(serverB, events);
    const response = await app.request(`/stream/${randomUUID()}`);
    const reader = response.body?.getReader();
    await reader?.read(); // the first snapshot
    await events.close();
    let done = false;
    while (!done) done = (await reader?.read())?.done ?? true;
    expect(events.subscriberCount()).toBe(0);
  });
});
