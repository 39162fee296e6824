import { randomUUID } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "../../server/db/client";

export type TestDatabase = DatabaseHandle & { drop(): Promise<void> };

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL, dropped afterwards
 * so no run depends on what an earlier one left.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB_ENGINE !== "postgres" || !serverUrl) {
    const handle = await openDatabase("memory://");
    await handle.migrate();
    return { ...handle, drop: () => handle.close() };
  }
  const name = `test_${randomUUID().replaceAll("-", "")}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase(url.toString());
  await handle.migrate();
  return {
    ...handle,
    drop: async () => {
      await handle.close();
      await withAdminClient(serverUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export { sqlState } from "../../server/db/sql-state";
