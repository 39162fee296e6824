import { sql } from "drizzle-orm";
import pg from "pg";
import { describeError, type Logger, safeErrorMessage } from "../logger";
import type { Database } from "./client";
import {
  initialReplicaState,
  nextReplicaState,
  parseLsn,
  type ReplicaObservation,
  type ReplicaState,
  recentSamples,
  replayLagSeconds,
  type WalSample,
} from "./replica-health";

/** Healthy checks in a row before a replica that was left is read again. */
export const RECOVER_CHECKS = 3;

export type ReplicaMonitor = {
  /** Whether the pages that may lag read the replica now. */
  inUse(): boolean;
  state(): ReplicaState;
  /** Checks now instead of at the next tick (a request just failed on the replica). */
  checkNow(): Promise<void>;
  /** The first check, before the server takes requests. */
  start(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Each app server's watch on its read replica (decision 0074): every
 * `checkMs` it asks the replica whether it answers and how far it has
 * replayed, and the primary where it is now, and `nextReplicaState` decides
 * whether readDb is the replica or the primary. One line is logged each way
 * of a switch. The replica is asked on a connection of its own, so a pool
 * busy with pages does not look like a replica that is down.
 */
export function createReplicaMonitor({
  replicaUrl,
  primary,
  log,
  checkMs,
  maxLagSeconds,
  now = Date.now,
}: {
  replicaUrl: string;
  primary: Database;
  log: Logger;
  checkMs: number;
  maxLagSeconds: number;
  now?: () => number;
}): ReplicaMonitor {
  // One check's time limit: a replica slower than this to answer `select` is not serving pages well.
  const timeoutMs = Math.max(1_000, checkMs);
  // Long enough that a lag well past the maximum is still measured, not capped.
  const keepMs = Math.max(60_000, maxLagSeconds * 4_000);
  let state = initialReplicaState;
  let samples: WalSample[] = [];
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const replicaConnection = async () => {
    if (client) return client;
    const next = new pg.Client({
      connectionString: replicaUrl,
      connectionTimeoutMillis: timeoutMs,
      application_name: "salon-replica-check",
    });
    // A dropped connection is seen by the next check; without a listener it would crash the process.
    next.on("error", () => {
      if (client === next) client = null;
    });
    await next.connect();
    client = next;
    return next;
  };

  const dropConnection = () => {
    const gone = client;
    client = null;
    // Not awaited: on a dead socket end() may wait for an answer that never comes.
    gone?.end().catch(() => {});
  };

  /** The primary's WAL position now, or null (it is in recovery itself, or out of reach). */
  const primaryLsn = async () => {
    try {
      const result = (await withTimeout(
        primary.execute(sql`select pg_current_wal_lsn()::text as lsn`),
        timeoutMs,
      )) as unknown as { rows: Array<{ lsn: string | null }> };
      const lsn = result.rows[0]?.lsn;
      return lsn ? parseLsn(lsn) : null;
    } catch {
      return null;
    }
  };

  const observe = async (): Promise<ReplicaObservation> => {
    // The primary first: a replica that has replayed this position is at most the check's time behind.
    const at = now();
    const lsn = await primaryLsn();
    if (lsn !== null) samples = recentSamples([...samples, { at, lsn }], at, keepMs);
    try {
      const connection = await replicaConnection();
      const { rows } = await withTimeout(
        connection.query<{ standby: boolean; replayed: string | null }>(
          "select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed",
        ),
        timeoutMs,
      );
      const row = rows[0];
      // Not a standby (a database used as one, or a promoted node): nothing to lag behind.
      if (!row?.standby || !row.replayed || samples.length === 0) {
        return { reachable: true, lagSeconds: null };
      }
      return {
        reachable: true,
        lagSeconds: replayLagSeconds(samples, parseLsn(row.replayed), now()),
      };
    } catch (error) {
      dropConnection();
      return { reachable: false, error: errorText(error) };
    }
  };

  const check = async () => {
    const seen = await observe();
    if (stopped) return;
    const before = state;
    state = nextReplicaState(state, seen, { maxLagSeconds, recoverChecks: RECOVER_CHECKS });
    if (state.inUse && !before.inUse) {
      log.info("read replica in use", { lagSeconds: state.lagSeconds });
    } else if (!state.inUse && (before.inUse || before.status === "starting")) {
      log.warn("read replica not used: reading the primary", {
        reason: state.status,
        lagSeconds: state.lagSeconds,
        maxLagSeconds,
        error: state.error,
      });
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void runCheck(), checkMs);
    timer.unref();
  };

  const runCheck = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    running ??= check()
      .catch((error) => log.error("replica check failed", describeError(error)))
      .finally(() => {
        running = null;
        schedule();
      });
    return running;
  };

  return {
    inUse: () => state.inUse,
    state: () => state,
    checkNow: () => (stopped ? Promise.resolve() : runCheck()),
    start: async () => {
      await runCheck();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      const last = client;
      client = null;
      // Bounded: on a dead socket end() waits for an answer that never comes.
      if (last) await withTimeout(last.end(), 1_000).catch(() => {});
    },
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A connection error's words; Node's AggregateError for a refused connection has only a code. */
function errorText(error: unknown): string {
  const message = safeErrorMessage(error);
  const code = (error as { code?: unknown }).code;
  return message || (typeof code === "string" ? code : "unreachable");
}
