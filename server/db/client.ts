import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The one database type every domain function takes; both engines satisfy it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Database;
  engine: "pglite" | "postgres";
  migrate(): Promise<void>;
  /** Throws when the database cannot answer (used by /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = path.resolve(process.cwd(), "server/db/migrations");

export function isPostgresUrl(url: string) {
  return url.startsWith("postgres://") || url.startsWith("postgresql://");
}

/**
 * Opens PGlite (a directory or `memory://`) or a PostgreSQL pool from one URL.
 * Only the driver differs; schema, SQL and migrations are the same.
 */
export async function openDatabase(url: string): Promise<DatabaseHandle> {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // A server restart or a terminated backend must not crash the process:
    // without listeners, pg re-throws such errors as uncaught exceptions.
    // The next query reconnects; /readyz reports while it cannot.
    const reportLostConnection = (error: Error) =>
      console.error(
        JSON.stringify({ level: "warn", msg: "database connection lost", error: error.message }),
      );
    pool.on("error", reportLostConnection);
    pool.on("connect", (client) => client.on("error", reportLostConnection));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return {
      db,
      engine: "postgres",
      migrate: () => migratePg(drizzlePg(pool, { schema }), { migrationsFolder }),
      ping: async () => {
        await pool.query("select 1");
      },
      close: () => pool.end(),
    };
  }
  const dataDir = url.startsWith("memory://") ? url : path.resolve(url);
  if (!url.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir, extensions: { btree_gist, pg_trgm } });
  const pgliteDb = drizzlePglite(client, { schema });
  return {
    db: pgliteDb as unknown as Database,
    engine: "pglite",
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
  };
}
