/**
 * Whether the pages that may lag read the replica or the primary (decision
 * 0074): plain rules over what each check of the replica saw, so they are
 * tested without a database. The monitor (replica-monitor.server.ts) runs
 * the checks and keeps the state.
 */

/** What one check saw. `lagSeconds` null: no lag to measure (not a standby, or no primary sample yet). */
export type ReplicaObservation =
  | { reachable: false; error: string }
  | { reachable: true; lagSeconds: number | null };

export type ReplicaState = {
  /** Whether readDb is the replica now. */
  inUse: boolean;
  /** Why: the last check's verdict. */
  status: "starting" | "healthy" | "lagging" | "down";
  /** Healthy checks in a row while not in use (counts up to coming back). */
  healthyChecks: number;
  /** The last measured lag, seconds; null when unknown (unreachable, or nothing to measure). */
  lagSeconds: number | null;
  /** The last check's error when unreachable. */
  error?: string;
};

export type ReplicaRules = {
  /** Above this the replica is left (REPLICA_MAX_LAG_SECONDS). */
  maxLagSeconds: number;
  /** Healthy checks in a row, each with the lag at most half the maximum, before it is used again. */
  recoverChecks: number;
};

/** Before the first check: the primary; the first healthy check takes the replica at once. */
export const initialReplicaState: ReplicaState = {
  inUse: false,
  status: "starting",
  healthyChecks: 0,
  lagSeconds: null,
};

/**
 * The state after one more check. A replica that fails one check, or lags
 * more than the maximum, is left at once: a page read from it would fail or
 * be stale. It is taken back only after `recoverChecks` healthy checks in a
 * row with the lag at most half the maximum, so a replica that hovers around
 * the limit, or answers one check in two, does not send the pages back and
 * forth every second.
 */
export function nextReplicaState(
  previous: ReplicaState,
  seen: ReplicaObservation,
  rules: ReplicaRules,
): ReplicaState {
  if (!seen.reachable) {
    return { inUse: false, status: "down", healthyChecks: 0, lagSeconds: null, error: seen.error };
  }
  const lag = seen.lagSeconds;
  if (lag !== null && lag > rules.maxLagSeconds) {
    return { inUse: false, status: "lagging", healthyChecks: 0, lagSeconds: lag };
  }
  if (previous.inUse) return { inUse: true, status: "healthy", healthyChecks: 0, lagSeconds: lag };
  if (previous.status === "starting") {
    return { inUse: true, status: "healthy", healthyChecks: 0, lagSeconds: lag };
  }
  const caughtUp = lag === null || lag <= rules.maxLagSeconds / 2;
  const healthyChecks = caughtUp ? previous.healthyChecks + 1 : 0;
  const inUse = healthyChecks >= rules.recoverChecks;
  return { inUse, status: "healthy", healthyChecks: inUse ? 0 : healthyChecks, lagSeconds: lag };
}

/** A primary's WAL position at a moment (from `pg_current_wal_lsn()`). */
export type WalSample = { at: number; lsn: bigint };

/**
 * How far behind the replica is, in seconds: the age of the oldest recorded
 * primary position it has not replayed yet (0 when it has replayed them
 * all). Unlike `now() - pg_last_xact_replay_timestamp()`, an idle primary
 * does not look like lag (its position stays where the replica already is),
 * and a replica whose stream stopped does look behind as soon as the
 * primary writes. `samples` are in time order; if even the oldest is not
 * replayed, the lag is at least its age, which is what is returned.
 */
export function replayLagSeconds(samples: readonly WalSample[], replayed: bigint, now: number) {
  const behind = samples.find((sample) => sample.lsn > replayed);
  return behind ? Math.max(0, (now - behind.at) / 1000) : 0;
}

/** PostgreSQL's text form of an LSN (`16/B374D848`) as a number that compares. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) throw new Error(`not an LSN: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** The samples worth keeping: those within `keepMs` of now, and always the newest. */
export function recentSamples(samples: readonly WalSample[], now: number, keepMs: number) {
  const kept = samples.filter((sample) => now - sample.at <= keepMs);
  const newest = samples.at(-1);
  return kept.length === 0 && newest ? [newest] : kept;
}
