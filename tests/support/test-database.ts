import { randomUUID } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { type Database, type DatabaseHandle, openDatabase } from "../../server/db/client";
import * as schema from "../../server/db/schema";
import { withAdminClient } from "./postgres-template";

export type TestDatabase = DatabaseHandle & {
  /** The PostgreSQL database's URL, to open a second pool on it (another "app server"); null on PGlite. */
  url: string | null;
  drop(): Promise<void>;
  /**
   * Another handle on the same database, as a second app server would
   * have: its own pool (and LISTEN connection) on PostgreSQL; on PGlite,
   * which is one session in this process, the same handle (close is a no-op).
   */
  openAnother(): Promise<DatabaseHandle>;
};

/**
 * The database of one integration test file, in its `beforeAll`, given back
 * in its `afterAll`: `const database = withTestDatabase();` then
 * `database.db` inside hooks and tests. Every file starts from empty tables.
 *
 * On PGlite, one migrated instance is kept per Vitest worker (the
 * integration project runs with `isolate: false`) and emptied for each file
 * with one TRUNCATE, instead of starting and migrating PGlite per file. Each
 * file gets its own Drizzle object over it, so caches keyed by the database
 * (the search form's reference lists) do not carry over. On PostgreSQL each
 * file still gets a database of its own.
 */
export function withTestDatabase(): TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current =
      process.env.TEST_DB_ENGINE === "postgres" && process.env.TEST_DATABASE_URL
        ? await createTestDatabase()
        : await emptiedWorkerPglite();
  });
  afterAll(async () => {
    await current?.drop();
  });
  return new Proxy({} as TestDatabase, {
    get(_, key) {
      if (!current) throw new Error("withTestDatabase(): use the database inside hooks and tests");
      return Reflect.get(current, key);
    },
  });
}

const workerPglite = Symbol.for("salon-navi.tests.worker-pglite");
type WorkerGlobal = typeof globalThis & { [workerPglite]?: Promise<DatabaseHandle> };

async function emptiedWorkerPglite(): Promise<TestDatabase> {
  const global = globalThis as WorkerGlobal;
  global[workerPglite] ??= (async () => {
    const handle = await openDatabase("memory://");
    await handle.migrate();
    return handle;
  })();
  const shared = await global[workerPglite];
  const pool = (shared.db as unknown as { $client: pg.Pool }).$client;
  const { rows } = await pool.query<{ name: string }>(
    "select quote_ident(tablename) as name from pg_tables where schemaname = 'public'",
  );
  await pool.query(
    `truncate table ${rows.map((row) => row.name).join(", ")} restart identity cascade`,
  );
  const handle: DatabaseHandle = {
    ...shared,
    db: drizzle(pool, { schema }) as unknown as Database,
    migrate: async () => {},
    // Shared by the worker's later files: nothing to close or drop.
    close: async () => {},
  };
  return { ...handle, url: null, drop: async () => {}, openAnother: async () => handle };
}

/**
 * A fresh, migrated database of its own: PGlite in memory, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL, dropped afterwards
 * so no run depends on what an earlier one left. Most files want
 * `withTestDatabase()`; this is for a test that needs a second one.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB_ENGINE !== "postgres" || !serverUrl) {
    const handle = await openDatabase("memory://");
    await handle.migrate();
    return {
      ...handle,
      url: null,
      drop: () => handle.close(),
      openAnother: async () => ({ ...handle, close: async () => {} }),
    };
  }
  const name = `test_${randomUUID().replaceAll("-", "")}`;
  // A copy of the run's migrated template (tests/support/postgres-template.ts)
  // when the project made one; FILE_COPY is the quicker way for a small one.
  const template = inject("postgresTemplate");
  await withAdminClient(serverUrl, async (client) => {
    await client.query(
      template
        ? `create database ${name} template ${template} strategy file_copy`
        : `create database ${name}`,
    );
    // A commit returns before its WAL reaches the disk (0.5 ms → 0.1 ms a commit, pgbench on
    // this machine): what these tests prove is visibility and locking, which stay the same,
    // not durability across a crash of the database server (issue 38 §5).
    await client.query(`alter database ${name} set synchronous_commit = off`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase(url.toString());
  if (!template) await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    openAnother: () => openDatabase(url.toString()),
    drop: async () => {
      await handle.close();
      await withAdminClient(serverUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

/**
 * True on PGlite, which is one session: its worker runs one transaction at a
 * time (decision 0025), so transactions a test starts "at once" run one after
 * another and never race. A test whose point is a race skips there,
 * `it.skipIf(transactionsTakeTurns)(…)`, and proves it on PostgreSQL (the
 * integration:postgres project, TEST_DATABASE_URL). What such a race ends in
 * on PGlite too is proven by injecting it (booking-transactions.test.ts:
 * SQLSTATE 23P01 from a trigger).
 */
export const transactionsTakeTurns = process.env.TEST_DB_ENGINE === "pglite";

export { sqlState } from "../../server/db/sql-state";
