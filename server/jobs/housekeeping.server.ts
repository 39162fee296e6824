import { and, isNotNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import {
  bookings,
  jobs,
  ownerInvitations,
  sessions,
  verifications,
  webhookDeliveries,
} from "../db/schema";
import { expirePastEntries } from "../waitlist/waitlist-matcher.server";
import { enqueue, type JobHandler } from "./queue.server";

/**
 * Rows that only ever grow unless someone deletes them: finished jobs,
 * spent or lapsed invitations, lapsed holds, expired sign-in sessions and
 * verification tokens. A daily job removes what no one can use any more,
 * keeping a margin so that support can still look at yesterday's.
 *
 * Holds are also cleared inside the transaction that needs their time
 * (server/bookings/booking.server.ts); this catches the ones nobody needed.
 */
export const housekeepingKind = "housekeeping";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long each kind of dead row is kept after it stopped mattering. */
export const retention = {
  finishedJobs: 30 * DAY_MS,
  invitations: 30 * DAY_MS,
  lapsedHolds: DAY_MS,
  expiredSessions: 7 * DAY_MS,
  expiredVerifications: DAY_MS,
  /** A salon's webhook delivery log (decision 0086): sent or failed, kept a month. */
  webhookDeliveries: 30 * DAY_MS,
} as const;

export type HousekeepingResult = {
  jobs: number;
  invitations: number;
  holds: number;
  sessions: number;
  verifications: number;
  webhookDeliveries: number;
};

const before = (now: Date, ms: number) => new Date(now.getTime() - ms);

export async function removeDeadRows(db: Database, now: Date): Promise<HousekeepingResult> {
  const removedJobs = await db
    .delete(jobs)
    .where(and(isNotNull(jobs.doneAt), lt(jobs.doneAt, before(now, retention.finishedJobs))))
    .returning({ id: jobs.id });
  const invitationCutoff = before(now, retention.invitations);
  const removedInvitations = await db
    .delete(ownerInvitations)
    .where(
      or(
        lt(ownerInvitations.usedAt, invitationCutoff),
        lt(ownerInvitations.expiresAt, invitationCutoff),
      ),
    )
    .returning({ id: ownerInvitations.id });
  const removedHolds = await db
    .delete(bookings)
    .where(
      and(
        sql`${bookings.status} = 'held'`,
        lt(bookings.holdExpiresAt, before(now, retention.lapsedHolds)),
      ),
    )
    .returning({ id: bookings.id });
  const removedSessions = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, before(now, retention.expiredSessions)))
    .returning({ id: sessions.id });
  const removedVerifications = await db
    .delete(verifications)
    .where(lt(verifications.expiresAt, before(now, retention.expiredVerifications)))
    .returning({ id: verifications.id });
  const removedDeliveries = await db
    .delete(webhookDeliveries)
    .where(
      and(
        ne(webhookDeliveries.status, "pending"),
        lt(webhookDeliveries.createdAt, before(now, retention.webhookDeliveries)),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return {
    jobs: removedJobs.length,
    invitations: removedInvitations.length,
    holds: removedHolds.length,
    sessions: removedSessions.length,
    verifications: removedVerifications.length,
    webhookDeliveries: removedDeliveries.length,
  };
}

/** The next run: 04:00 UTC+9 of the day after `now` (quiet hours in Japan). */
export function nextHousekeepingRun(now: Date): Date {
  const tokyo = new Date(now.getTime() + 9 * 60 * 60 * 1000);
  const next = Date.UTC(tokyo.getUTCFullYear(), tokyo.getUTCMonth(), tokyo.getUTCDate() + 1, 4);
  return new Date(next - 9 * 60 * 60 * 1000);
}

/**
 * Enqueues the run due at `runAt`; the dedupe key makes it one job per run
 * however many app servers start at once.
 */
export function scheduleHousekeeping(db: Pick<Database, "insert">, runAt: Date) {
  return enqueue(db, {
    kind: housekeepingKind,
    payload: {},
    runAt,
    dedupeKey: `${housekeepingKind}:${runAt.toISOString()}`,
  });
}

/** Cleans up, then schedules the next run in the same transaction (so the chain never breaks). */
export const housekeepingHandler: JobHandler = async ({ tx, now }) => {
  await removeDeadRows(tx, now);
  // Waiting-list entries of dates gone by end as expired (decision 0055).
  await expirePastEntries(tx, { now });
  await scheduleHousekeeping(tx, nextHousekeepingRun(now));
};
