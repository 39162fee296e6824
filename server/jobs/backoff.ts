const HOUR = 3_600_000;

/**
 * The retry delay shared by the job queue and the mail outbox: the base
 * doubled `doublings` times, never more than an hour, so a long outage
 * does not push a retry out of sight.
 */
export function backoffDelay(baseMs: number, doublings: number): number {
  return Math.min(HOUR, baseMs * 2 ** doublings);
}
