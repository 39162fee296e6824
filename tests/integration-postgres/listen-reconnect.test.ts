import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSlotEvents,
  notifySlotChange,
  type SlotEvent,
  type SlotEvents,
} from "../../server/realtime/slot-events.server";
import { Inbox } from "../support/inbox";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Only meaningful on a server: PGlite's LISTEN shares its one in-process connection.
let database: TestDatabase;
let events: SlotEvents;
beforeAll(async () => {
  database = await createTestDatabase();
  events = createSlotEvents(database);
});
afterAll(async () => {
  await events?.close();
  await database?.drop();
});

describe("LISTEN connection loss", () => {
  it("reconnects, tells subscribers to resync, and delivers later changes", async () => {
    const salon = randomUUID();
    const inbox = new Inbox<SlotEvent>();
    const stop = await events.subscribe(salon, inbox.push);
    const [current] = (
      (await database.db.execute(sql`select current_database() as name`)) as unknown as {
        rows: { name: string }[];
      }
    ).rows;

    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const terminated = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'salon-listen'",
        [current?.name],
      );
      expect(terminated.rowCount).toBe(1);
    } finally {
      await admin.end();
    }

    // Changes sent while it was gone are lost: the subscriber hears "everything may have changed".
    expect(await inbox.next()).toEqual({ salonId: salon, dates: null });
    await notifySlotChange(database.db, salon, ["2026-12-05"]);
    expect(await inbox.next()).toEqual({ salonId: salon, dates: ["2026-12-05"] });
    stop();
  });
});
