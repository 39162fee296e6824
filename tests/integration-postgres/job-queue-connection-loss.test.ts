import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../../server/db/schema";
import { createJobWorker, enqueue } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * A job that fails because the database went away (a failover, a restart)
 * cannot write down its failure either. Its lease would then keep it for
 * five minutes (a booking's confirmation mail that late); the worker gives
 * it back on its next pass once the database answers again. Only on a
 * server: PGlite has no connections to lose.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await setConnections(true);
  await database?.drop();
});

const T0 = new Date("2026-12-01T00:00:00Z");

async function currentName() {
  const result = (await database.db.execute(sql`select current_database() as name`)) as unknown as {
    rows: { name: string }[];
  };
  return result.rows[0]?.name ?? "";
}

/** From the maintenance database: the test database closed to connections (all cut) or opened. */
let name = "";
async function setConnections(allowed: boolean) {
  if (!name) return;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`alter database "${name}" with allow_connections ${allowed}`);
    if (!allowed)
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [name],
      );
  } finally {
    await admin.end();
  }
}

describe("the job worker when the database goes away mid-job", () => {
  it("gives the job back on its next pass instead of holding it for the lease", async () => {
    name = await currentName();
    await enqueue(database.db, { kind: "probe", payload: {}, runAt: T0, dedupeKey: "probe:1" });
    let runs = 0;
    const worker = createJobWorker({
      db: database.db,
      handlers: {
        probe: async () => {
          runs += 1;
          // The first run loses its database: its transaction fails, and so does the retry's write.
          if (runs === 1) await setConnections(false);
        },
      },
      log: createLogger("silent"),
      now: () => T0,
    });

    await expect(worker.runOnce()).rejects.toThrow();
    await setConnections(true);
    // The database is back, at the same moment: without the give-back the job stays leased.
    expect(await worker.runOnce()).toBe(1);
    const [job] = await database.db.select().from(jobs).where(eq(jobs.dedupeKey, "probe:1"));
    expect(job?.doneAt).not.toBeNull();
    expect(job?.attempts).toBe(2);
    expect(runs).toBe(2);
  });
});
