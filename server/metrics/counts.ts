import type { BookingSource } from "../db/schema/bookings";

/**
 * What this process made and sent, read by the metrics registry
 * (server/metrics/metrics.server.ts) when it is scraped. Plain numbers, not
 * prom-client objects: the domain functions stay free of the metrics library,
 * and several apps in one test process share one set, as a process's
 * counters should. Bookings and holds are counted after their transaction
 * committed, so a retried or rolled-back attempt is never counted.
 */
const counts = {
  holds: 0,
  bookings: { web: 0, phone: 0, walk_in: 0 } as Record<BookingSource, number>,
  mailsSent: 0,
  mailsFailed: 0,
  webhookAttempts: { delivered: 0, retrying: 0, failed: 0, gone: 0 } as Record<
    WebhookAttemptOutcome,
    number
  >,
};

/**
 * What one attempt of a salon's webhook came to: delivered (2xx), retrying
 * (refused or unreachable, another attempt scheduled), failed (the schedule's
 * last attempt), gone (410: the endpoint is disabled).
 */
export type WebhookAttemptOutcome = "delivered" | "retrying" | "failed" | "gone";

export function countHoldMade() {
  counts.holds += 1;
}

export function countBookingMade(source: BookingSource) {
  counts.bookings[source] += 1;
}

/** One mail accepted by the SMTP server, or one attempt it refused (retried later). */
export function countMailDelivery(outcome: "sent" | "failed") {
  if (outcome === "sent") counts.mailsSent += 1;
  else counts.mailsFailed += 1;
}

/** Counted after the attempt's outcome is committed, so a lost race is never counted. */
export function countWebhookAttempt(outcome: WebhookAttemptOutcome) {
  counts.webhookAttempts[outcome] += 1;
}

/** A copy of the counts so far. */
export function processCounts() {
  return {
    ...counts,
    bookings: { ...counts.bookings },
    webhookAttempts: { ...counts.webhookAttempts },
  };
}
