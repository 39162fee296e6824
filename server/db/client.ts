import { mkdirSync } from "node:fs";
import path from "node:path";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { createLogger, describeError, type Logger } from "../logger";
import { PgliteThread } from "./pglite-thread.server";
import { isPostgresUrl } from "./postgres-url";
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
  /** The pool's connections now (for /metrics). */
  poolStats(): { total: number; idle: number; waiting: number };
  /**
   * LISTENs on a channel (snake_case) until the returned function is called.
   * Notifications sent with NOTIFY / pg_notify by any connection (any app
   * server) reach `onNotification` after their transaction commits. On
   * PostgreSQL a lost connection is re-established and `onReconnect` called,
   * since notifications sent meanwhile are lost: the listener must resync.
   */
  listen(
    channel: string,
    onNotification: (payload: string) => void,
    options?: { onReconnect?: () => void },
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

const migrationsFolder = path.resolve(process.cwd(), "server/db/migrations");

export { isPostgresUrl };

/**
 * Opens PGlite (a directory or `memory://`, in a worker thread) or a
 * PostgreSQL pool from one URL. Both are node-postgres pools: the schema,
 * SQL, migrations and driver are the same. `log` hears of lost connections
 * (scripts without a logger of their own get warnings as JSON lines).
 */
export async function openDatabase(
  url: string,
  log: Logger = createLogger("warn"),
  {
    connectTimeoutMs = 0,
  }: {
    /**
     * PostgreSQL: how long a new connection may take before the query fails
     * (0: no limit). The replica's pool sets one, so a replica that stops
     * answering fails a page quickly and the page is read from the primary.
     */
    connectTimeoutMs?: number;
  } = {},
): Promise<DatabaseHandle> {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: connectTimeoutMs,
    });
    // A server restart or a terminated backend must not crash the process:
    // without listeners, pg re-throws such errors as uncaught exceptions.
    // The next query reconnects; /readyz reports while it cannot.
    const reportLostConnection = (error: Error) =>
      log.warn("database connection lost", describeError(error));
    pool.on("error", reportLostConnection);
    pool.on("connect", (client) => client.on("error", reportLostConnection));
    const listener = createPostgresListener(url, reportLostConnection);
    return {
      ...overPool(pool),
      engine: "postgres",
      listen: listener.listen,
      close: async () => {
        await listener.close();
        await pool.end();
      },
    };
  }
  const dataDir = url.startsWith("memory://") ? url : path.resolve(url);
  if (!url.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const thread = new PgliteThread(dataDir);
  await thread.waitReady;
  const pool = thread.pool();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  thread.onNotification((channel, payload) => {
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  });
  return {
    ...overPool(pool),
    engine: "pglite",
    // One session: NOTIFY from any handle on it reaches every listener.
    listen: async (channel, onNotification) => {
      let set = listeners.get(assertChannel(channel));
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await pool.query(`listen ${channel}`);
      }
      set.add(onNotification);
      return async () => {
        if (!set.delete(onNotification) || set.size > 0 || thread.closed) return;
        listeners.delete(channel);
        await pool.query(`unlisten ${channel}`);
      };
    },
    close: async () => {
      await pool.end();
      await thread.close();
    },
  };
}

/** What both engines' handles share: Drizzle, the migrator and the ping, over one pool. */
function overPool(pool: pg.Pool) {
  const drizzled = drizzlePg(pool, { schema });
  return {
    db: drizzled as unknown as Database,
    migrate: () => migratePg(drizzled, { migrationsFolder }),
    ping: async () => {
      await pool.query("select 1");
    },
    /** The pool's connections now, for /metrics: open, idle, and requests waiting for one. */
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

/** Channel names go into LISTEN unquoted, so only plain identifiers are accepted. */
function assertChannel(channel: string) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  return channel;
}

type ChannelListener = {
  onNotification: (payload: string) => void;
  onReconnect?: () => void;
};

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * LISTEN needs a connection of its own: a pooled one goes back to the pool
 * (and its LISTENs with it) after each query. One client per process serves
 * every channel; it is opened on the first listen and, when the server
 * drops it (restart, failover, terminated backend), opened again with
 * growing pauses, its channels LISTENed again, and listeners told to resync.
 */
function createPostgresListener(url: string, report: (error: Error) => void) {
  const channels = new Map<string, Set<ChannelListener>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let retryDelay = RECONNECT_MIN_MS;
  let closed = false;

  const open = async () => {
    const next = new pg.Client({ connectionString: url, application_name: "salon-listen" });
    next.on("notification", (message) => {
      for (const listener of channels.get(message.channel) ?? []) {
        listener.onNotification(message.payload ?? "");
      }
    });
    next.on("error", (error) => {
      report(error);
      lost(next);
    });
    next.on("end", () => lost(next));
    await next.connect();
    for (const channel of channels.keys()) await next.query(`listen ${channel}`);
    client = next;
    return next;
  };

  const connection = () => {
    if (client) return Promise.resolve(client);
    connecting ??= open().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const lost = (gone: pg.Client) => {
    if (client !== gone) return;
    client = null;
    gone.end().catch(() => {});
    if (!closed && channels.size > 0) scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (retryTimer || closed) return;
    retryTimer = setTimeout(async () => {
      retryTimer = null;
      try {
        await connection();
        retryDelay = RECONNECT_MIN_MS;
        for (const listeners of channels.values()) {
          for (const listener of listeners) listener.onReconnect?.();
        }
      } catch (error) {
        report(error as Error);
        retryDelay = Math.min(retryDelay * 2, RECONNECT_MAX_MS);
        scheduleReconnect();
      }
    }, retryDelay);
    retryTimer.unref();
  };

  return {
    async listen(
      channel: string,
      onNotification: (payload: string) => void,
      options: { onReconnect?: () => void } = {},
    ) {
      assertChannel(channel);
      if (closed) throw new Error("database closed");
      const listener: ChannelListener = { onNotification, onReconnect: options.onReconnect };
      let listeners = channels.get(channel);
      const first = !listeners;
      if (!listeners) {
        listeners = new Set();
        channels.set(channel, listeners);
      }
      listeners.add(listener);
      try {
        const current = await connection();
        // open() already LISTENs on every known channel; a second LISTEN is a no-op.
        if (first) await current.query(`listen ${channel}`);
      } catch (error) {
        listeners.delete(listener);
        if (listeners.size === 0) channels.delete(channel);
        throw error;
      }
      return async () => {
        const set = channels.get(channel);
        if (!set?.delete(listener) || set.size > 0) return;
        channels.delete(channel);
        await client?.query(`unlisten ${channel}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      channels.clear();
      const current = client ?? (await connecting?.catch(() => null));
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
