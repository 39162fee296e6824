import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, sqlList } from "./common";
import { salons } from "./salons";

/**
 * The events a salon's webhook endpoint may ask for (issue 41, §2; decision 0086).
 * Their payloads are documented in the OpenAPI document's `webhooks` section.
 */
export const webhookEventTypes = [
  "booking.created",
  "booking.changed",
  "booking.cancelled",
  "booking.completed",
  "booking.no_show",
  "customer.created",
  "review.posted",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookDisabledReasons = ["manual", "gone", "failing"] as const;
export type WebhookDisabledReason = (typeof webhookDisabledReasons)[number];

/**
 * A salon's webhook endpoint: where its events go, signed by the Standard
 * Webhooks scheme with `secret` (`whsec_…`, shown once at creation). While a
 * rotation's grace period runs (`previous_secret_until`), each message is
 * signed with both secrets.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    salonId: uuid("salon_id")
      .notNull()
      .references(() => salons.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: jsonb("events").$type<WebhookEventType[]>().notNull(),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
    /** Since when every delivery has failed (null once one succeeds); 3 days of it disables. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason").$type<WebhookDisabledReason>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_endpoints_salon_idx").on(t.salonId),
    check(
      "webhook_endpoints_disabled_reason_valid",
      sql`${t.disabledReason} is null or ${t.disabledReason} in (${sqlList(webhookDisabledReasons)})`,
    ),
  ],
);

export const webhookDeliveryStatuses = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/**
 * The webhook outbox and its delivery log: one row per endpoint and message,
 * written in the transaction of the change it tells of (a booking's, a
 * review's), then sent by the delivery loop (server/webhooks/delivery.server.ts),
 * which claims due rows with a lease as the job queue does. A manual replay is
 * a new row with the same `message_id` (`webhook-id`) and body.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The `webhook-id` header: the same for every endpoint, and for a replay. */
    messageId: text("message_id").notNull(),
    eventType: text("event_type").$type<WebhookEventType>().notNull(),
    /** The exact JSON sent (and signed). */
    body: text("body").notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    /** The receiver's HTTP status of the last attempt; null when none came (refused, timeout). */
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    /** Sent again by hand from the back office (limited per endpoint per hour). */
    replay: integer("replay").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check(
      "webhook_deliveries_status_valid",
      sql`${t.status} in (${sqlList(webhookDeliveryStatuses)})`,
    ),
    check("webhook_deliveries_attempts_nonnegative", sql`${t.attempts} >= 0`),
  ],
);
