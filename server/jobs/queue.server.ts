import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { jobs } from "../db/schema";
import { describeError, type Logger, safeErrorMessage } from "../logger";
import { startBackgroundLoop } from "./background-loop";
import { backoffDelay } from "./backoff";

/**
 * The job queue kept in the `jobs` table (docs/decisions/0010-job-queue.md).
 *
 * A job is enqueued inside the transaction that causes it (a booking's
 * confirmation enqueues its mails and reminder), so it exists exactly when
 * the change committed. A worker takes it in two short transactions:
 *
 * 1. claim: one UPDATE over the due rows picked with `FOR UPDATE SKIP
 *    LOCKED` sets a lease (`locked_until`) and raises `attempts`. Other
 *    workers skip the row while the lease runs; after a crash the lease
 *    passes and another worker claims the job again.
 * 2. run: in one statement, locks the job row again and marks `done_at` if
 *    it is still ours (same `attempts`, not done), then runs the handler
 *    with that transaction. What a handler writes (outbox mails, `reminder_sent_at`)
 *    commits together with `done_at` or not at all, so a job whose lease
 *    ran out mid-run and was taken over cannot be done twice: the slower
 *    worker finds the row done or claimed again and rolls back.
 *
 * The same SQL runs on PGlite (one session: the transactions simply take
 * turns) and on PostgreSQL with any number of app servers.
 */

export type Job = typeof jobs.$inferSelect;

export type EnqueueInput = {
  kind: string;
  payload: Record<string, unknown>;
  runAt: Date;
  /** One job per key: enqueueing again with the key does nothing. */
  dedupeKey?: string | null;
  salonId?: string | null;
};

/** Adds a job, normally inside the caller's transaction; false when its dedupe key exists. */
export async function enqueue(tx: Pick<Database, "insert">, input: EnqueueInput): Promise<boolean> {
  const inserted = await tx
    .insert(jobs)
    .values({
      kind: input.kind,
      payload: input.payload,
      runAt: input.runAt,
      dedupeKey: input.dedupeKey ?? null,
      salonId: input.salonId ?? null,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return inserted.length > 0;
}

export type JobContext = {
  /** The transaction that marks the job done: write through it, not through another handle. */
  tx: Database;
  job: Job;
  now: Date;
};

/** Does the job's work; throwing rolls its writes back and schedules a retry. */
export type JobHandler = (context: JobContext) => Promise<void>;

export type JobWorkerOptions = {
  db: Database;
  handlers: Record<string, JobHandler>;
  log: Logger;
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
  /** How long a claimed job is left to this worker before others may take it. */
  leaseMs?: number;
  /** Base of the retry backoff (doubled per attempt, at most an hour). */
  retryBaseMs?: number;
  /** After this many failed attempts the job is closed with its last error. */
  maxAttempts?: number;
  batchSize?: number;
};

export type JobWorker = {
  /** Claims the due jobs (at most a batch) and sets their lease; runs nothing. */
  claim(): Promise<Job[]>;
  /** Runs one claimed job; false when it was no longer ours (done, or claimed again). */
  run(job: Job): Promise<boolean>;
  /** One pass: claim, then run each; resolves with the number of jobs done. */
  runOnce(): Promise<number>;
};

class LostLease extends Error {}

export function createJobWorker({
  db,
  handlers,
  log,
  now = () => new Date(),
  leaseMs = 5 * 60_000,
  retryBaseMs = 30_000,
  maxAttempts = 10,
  batchSize = 10,
}: JobWorkerOptions): JobWorker {
  async function claim(): Promise<Job[]> {
    const at = now();
    const leaseEnd = new Date(at.getTime() + leaseMs);
    const kinds = Object.keys(handlers);
    if (kinds.length === 0) return [];
    // One statement, so the pick and the lease are one step even outside a transaction.
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          isNull(jobs.doneAt),
          lte(jobs.runAt, at),
          or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, at)),
          inArray(jobs.kind, kinds),
        ),
      )
      .orderBy(jobs.runAt)
      .limit(batchSize)
      .for("update", { skipLocked: true });
    return db
      .update(jobs)
      .set({ lockedUntil: leaseEnd, attempts: sql`${jobs.attempts} + 1` })
      .where(inArray(jobs.id, due))
      .returning();
  }

  async function run(claimed: Job): Promise<boolean> {
    const handler = handlers[claimed.kind];
    if (!handler) return false;
    try {
      await db.transaction(async (tx) => {
        const at = now();
        // Locks the row and marks it done in one statement, before the
        // handler: the mark commits with the handler's writes or, when the
        // handler throws, rolls back with them. No row: done by another
        // worker, or claimed again after our lease ran out.
        const [marked] = await tx
          .update(jobs)
          .set({ doneAt: at, lockedUntil: null, lastError: null })
          .where(
            and(eq(jobs.id, claimed.id), eq(jobs.attempts, claimed.attempts), isNull(jobs.doneAt)),
          )
          .returning();
        if (!marked) throw new LostLease();
        // The handler sees the job as claimed (not yet done), with its current payload.
        const current: Job = {
          ...marked,
          doneAt: null,
          lockedUntil: claimed.lockedUntil,
          lastError: claimed.lastError,
        };
        await handler({ tx, job: current, now: at });
      });
      return true;
    } catch (error) {
      if (error instanceof LostLease) {
        log.warn("job no longer ours; skipped", { jobId: claimed.id, kind: claimed.kind });
        return false;
      }
      await scheduleRetry(claimed, error);
      return false;
    }
  }

  /**
   * Jobs whose failure could not be written down because the database itself
   * was gone (a failover, a restart): their lease would keep them for
   * `leaseMs`, so the next pass gives them back first.
   */
  const unreleased = new Map<string, number>();

  async function releaseUnreleased() {
    for (const [id, attempts] of unreleased) {
      await db
        .update(jobs)
        .set({ lockedUntil: null })
        .where(and(eq(jobs.id, id), eq(jobs.attempts, attempts), isNull(jobs.doneAt)));
      unreleased.delete(id);
    }
  }

  async function scheduleRetry(claimed: Job, error: unknown) {
    try {
      await writeRetry(claimed, error);
    } catch (lost) {
      unreleased.set(claimed.id, claimed.attempts);
      throw lost;
    }
  }

  async function writeRetry(claimed: Job, error: unknown) {
    const at = now();
    // Also kept in jobs.last_error: without a failed query's parameters.
    const message = safeErrorMessage(error);
    const givingUp = claimed.attempts >= maxAttempts;
    const delay = backoffDelay(retryBaseMs, claimed.attempts - 1);
    log[givingUp ? "error" : "warn"](
      givingUp ? "job failed; giving up" : "job failed; will retry",
      {
        jobId: claimed.id,
        kind: claimed.kind,
        attempts: claimed.attempts,
        ...describeError(error),
      },
    );
    await db
      .update(jobs)
      .set(
        givingUp
          ? { doneAt: at, lockedUntil: null, lastError: message }
          : { runAt: new Date(at.getTime() + delay), lockedUntil: null, lastError: message },
      )
      // Only while still ours: a worker that took over owns the row now.
      .where(
        and(eq(jobs.id, claimed.id), eq(jobs.attempts, claimed.attempts), isNull(jobs.doneAt)),
      );
  }

  async function runOnce(): Promise<number> {
    await releaseUnreleased();
    let done = 0;
    for (const job of await claim()) {
      if (await run(job)) done++;
    }
    return done;
  }

  return { claim, run, runOnce };
}

export type RunningJobWorker = {
  /** Stops after the pass in progress. */
  stop(): Promise<void>;
};

/**
 * The background loop started by server/app.ts: a pass, then a pause of
 * `intervalMs` (none while a full batch suggests more is waiting).
 */
export function startJobWorker(
  options: JobWorkerOptions & { intervalMs?: number },
): RunningJobWorker {
  const worker = createJobWorker(options);
  return startBackgroundLoop({
    pass: () => worker.runOnce(),
    intervalMs: options.intervalMs ?? 5000,
    batchSize: options.batchSize ?? 10,
    log: options.log,
    failure: "job worker pass failed",
  });
}
