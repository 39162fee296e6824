import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Only meaningful on a server: PGlite has no connections to lose.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

async function rows<T>(query: ReturnType<typeof sql>) {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe("PostgreSQL connection loss", () => {
  it("survives the server terminating pooled connections and reconnects", async () => {
    const [current] = await rows<{ name: string }>(sql`select current_database() as name`);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const terminated = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [current?.name],
      );
      expect(terminated.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // Let the termination notices arrive; an unlistened error would be an uncaught exception here.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [after] = await rows<{ ok: number }>(sql`select 1 as ok`);
    expect(after?.ok).toBe(1);
  });
});
