import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/client";
import { createLogger, describeError } from "../logger";

// Its callers (route rules, page cache) are built without a logger; a
// warning is all it writes, as our JSON line.
const log = createLogger("warn");

/**
 * Copies that every app server keeps in memory (the route rules, the page
 * micro-cache) and must drop when the data behind them changes, wherever
 * the change was made: the change NOTIFYs a channel in its own transaction
 * and every server LISTENs on it (decisions 0020 and 0007). PostgreSQL
 * delivers a NOTIFY only when its transaction commits, so a rolled-back
 * change drops nothing and a committed one reaches every server at once;
 * sending it inside the transaction means a crash between commit and notify
 * cannot lose it. On PGlite, one session, the NOTIFY reaches the same process.
 */
export async function notifyInvalidation(db: Database, channel: string) {
  await db.execute(sql`select pg_notify(${channel}, '')`);
}

export type InvalidationListener = {
  /** Settles once the LISTEN is in place (or has failed and been reported). */
  ready(): Promise<void>;
  /** Stops listening (server shutdown, tests). */
  close(): Promise<void>;
};

/**
 * Calls `invalidate` on every notification of `channel`, and when a lost
 * LISTEN connection is re-established (changes sent meanwhile were missed).
 * Without `events`, or should the LISTEN fail, nothing is heard: the
 * caller's own expiry is then all that bounds staleness, which the warning
 * names (`fallback`).
 */
export function listenForInvalidation(
  events: Pick<DatabaseHandle, "listen"> | undefined,
  channel: string,
  invalidate: () => void,
  fallback: string,
): InvalidationListener {
  const listening = events
    ?.listen(channel, () => invalidate(), { onReconnect: invalidate })
    .catch((error: unknown) => {
      log.warn(`${channel}: LISTEN failed; ${fallback}`, describeError(error));
      return null;
    });
  return {
    async ready() {
      await listening;
    },
    async close() {
      const unlisten = await listening;
      await unlisten?.();
    },
  };
}

/**
 * What anonymous visitors see of salons changed (an admin edit of a salon,
 * its staff, menus, coupons or photos; a status change; a deletion): every
 * app server drops its whole page micro-cache (server/http/page-cache.ts).
 * Whole, not per salon: a salon shows on its page, its stylists' pages,
 * search, area, feature and recommended listings and the home page, and
 * admin edits are rare, so the cost is a few re-renders per edit.
 */
export const PUBLIC_PAGES_CHANNEL = "public_pages_changed";

export function notifyPublicPagesChanged(db: Database) {
  return notifyInvalidation(db, PUBLIC_PAGES_CHANNEL);
}
