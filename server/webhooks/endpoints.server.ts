import { randomBytes } from "node:crypto";
import { and, count, desc, eq, gte } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "../audit/audit";
import type { Database } from "../db/client";
import {
  salons,
  type WebhookEventType,
  webhookDeliveries,
  webhookEndpoints,
  webhookEventTypes,
} from "../db/schema";
import type { SalonAccess } from "../salon-access/salon-access.server";
import { checkEndpointUrl } from "./address-guard.server";

/**
 * A salon's webhook endpoints as its owner and manager keep them (設定 →
 * Webhook; capability `webhooks.manage`, decision 0086): add one (its secret
 * shown once), rotate the secret (the old one still signs for a day), stop,
 * restart or delete it, read its delivery log and send a delivery again.
 * Every change is audited.
 */

/** Endpoints one salon may have, stopped ones included (delete one to add another). */
export const MAX_ENDPOINTS_PER_SALON = 10;
/** Manual replays per endpoint per hour. */
export const MAX_REPLAYS_PER_HOUR = 10;
/** How long the previous secret still signs after a rotation. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;
/** Deliveries the log shows per endpoint, newest first. */
export const DELIVERY_LOG_SIZE = 50;

export const webhookEventLabels: Record<WebhookEventType, string> = {
  "booking.created": "予約の作成",
  "booking.changed": "予約の変更（日時・メニュー・承認・来店）",
  "booking.cancelled": "予約のキャンセル",
  "booking.completed": "施術完了",
  "booking.no_show": "無断キャンセル",
  "customer.created": "顧客の登録",
  "review.posted": "口コミの投稿",
};

/** A new secret as Standard Webhooks writes them: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export type WebhookEndpointView = {
  id: string;
  url: string;
  events: WebhookEventType[];
  /** The secret's first characters, to tell which one a receiver holds. */
  secretHint: string;
  rotatingUntil: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
};

const hint = (secret: string) => `${secret.slice(0, 10)}…`;

function view(row: typeof webhookEndpoints.$inferSelect, now: Date): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    secretHint: hint(row.secret),
    rotatingUntil:
      row.previousSecretUntil && row.previousSecretUntil.getTime() > now.getTime()
        ? row.previousSecretUntil.toISOString()
        : null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listWebhookEndpoints(
  db: Database,
  salonId: string,
  now: Date,
): Promise<WebhookEndpointView[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.salonId, salonId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  return rows.map((row) => view(row, now));
}

export type EndpointFormValues = { url: string; events: string[] };
export type EndpointFormErrors = { url?: string; events?: string; form?: string };

export type WebhookResult<T> =
  | ({ ok: true } & T)
  | { ok: false; status: 400 | 404 | 409 | 429; errors: EndpointFormErrors };

const eventsSchema = z
  .array(z.enum(webhookEventTypes))
  .min(1)
  .max(webhookEventTypes.length)
  .transform((events) => webhookEventTypes.filter((type) => events.includes(type)));

export function endpointValuesOf(form: FormData): EndpointFormValues {
  const url = form.get("url");
  return {
    url: typeof url === "string" ? url.slice(0, 4000) : "",
    events: form
      .getAll("events")
      .filter((value): value is string => typeof value === "string")
      .slice(0, 20),
  };
}

/** Adds an endpoint; its secret is in the answer, once, and nowhere else afterwards. */
export async function createWebhookEndpoint(
  db: Database,
  access: SalonAccess,
  values: EndpointFormValues,
  { allowLoopback, now }: { allowLoopback: boolean; now: Date },
): Promise<WebhookResult<{ endpoint: WebhookEndpointView; secret: string }>> {
  const errors: EndpointFormErrors = {};
  const url = checkEndpointUrl(values.url, allowLoopback);
  if (!url.ok) errors.url = url.message;
  const events = eventsSchema.safeParse(values.events);
  if (!events.success) errors.events = "送信するイベントを1つ以上選んでください。";
  if (!url.ok || !events.success) return { ok: false, status: 400, errors };
  return db.transaction(async (tx) => {
    // One count per salon at a time: the salon row's lock keeps two adds from both fitting.
    await tx
      .select({ id: salons.id })
      .from(salons)
      .where(eq(salons.id, access.salon.id))
      .for("update");
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.salonId, access.salon.id));
    if (n >= MAX_ENDPOINTS_PER_SALON) {
      return {
        ok: false as const,
        status: 409 as const,
        errors: {
          form: `送信先は1サロンにつき${MAX_ENDPOINTS_PER_SALON}件までです。使っていない送信先を削除してください。`,
        },
      };
    }
    const secret = newWebhookSecret();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        salonId: access.salon.id,
        url: url.url.href,
        events: events.data,
        secret,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error("webhook endpoint not inserted");
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "webhook.create",
        targetType: "webhook_endpoint",
        targetId: row.id,
        salonId: access.salon.id,
        after: { url: row.url, events: row.events },
      },
      now,
    );
    return { ok: true as const, endpoint: view(row, now), secret };
  });
}

const notFound = {
  ok: false as const,
  status: 404 as const,
  errors: { form: "送信先が見つかりません。" },
};

async function endpointOf(tx: Database, salonId: string, endpointId: string) {
  if (!z.string().uuid().safeParse(endpointId).success) return null;
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.salonId, salonId)))
    .for("update");
  return row ?? null;
}

/**
 * A new secret, shown once; the old one still signs (a second `v1,…` in
 * `webhook-signature`) for a day, so the receiver can switch without losing
 * a message.
 */
export async function rotateWebhookSecret(
  db: Database,
  access: SalonAccess,
  endpointId: string,
  now: Date,
): Promise<WebhookResult<{ secret: string }>> {
  return db.transaction(async (tx) => {
    const row = await endpointOf(tx, access.salon.id, endpointId);
    if (!row) return notFound;
    const secret = newWebhookSecret();
    await tx
      .update(webhookEndpoints)
      .set({
        secret,
        previousSecret: row.secret,
        previousSecretUntil: new Date(now.getTime() + ROTATION_GRACE_MS),
      })
      .where(eq(webhookEndpoints.id, row.id));
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "webhook.rotate",
        targetType: "webhook_endpoint",
        targetId: row.id,
        salonId: access.salon.id,
        before: { secret: hint(row.secret) },
        after: { secret: hint(secret) },
      },
      now,
    );
    return { ok: true as const, secret };
  });
}

/** Stops (`enabled` false) or restarts an endpoint; a restart forgets its failing streak. */
export async function setWebhookEndpointEnabled(
  db: Database,
  access: SalonAccess,
  endpointId: string,
  enabled: boolean,
  now: Date,
): Promise<WebhookResult<object>> {
  return db.transaction(async (tx) => {
    const row = await endpointOf(tx, access.salon.id, endpointId);
    if (!row) return notFound;
    if (enabled === !row.disabledAt) return { ok: true as const };
    await tx
      .update(webhookEndpoints)
      .set(
        enabled
          ? { disabledAt: null, disabledReason: null, failingSince: null }
          : { disabledAt: now, disabledReason: "manual" },
      )
      .where(eq(webhookEndpoints.id, row.id));
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: enabled ? "webhook.enable" : "webhook.disable",
        targetType: "webhook_endpoint",
        targetId: row.id,
        salonId: access.salon.id,
        before: { disabledReason: row.disabledReason },
      },
      now,
    );
    return { ok: true as const };
  });
}

/** Deletes an endpoint and its log. */
export async function deleteWebhookEndpoint(
  db: Database,
  access: SalonAccess,
  endpointId: string,
  now: Date,
): Promise<WebhookResult<object>> {
  return db.transaction(async (tx) => {
    const row = await endpointOf(tx, access.salon.id, endpointId);
    if (!row) return notFound;
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "webhook.delete",
        targetType: "webhook_endpoint",
        targetId: row.id,
        salonId: access.salon.id,
        before: { url: row.url, events: row.events },
      },
      now,
    );
    return { ok: true as const };
  });
}

export type WebhookDeliveryView = {
  id: string;
  messageId: string;
  eventType: WebhookEventType;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  replay: boolean;
  createdAt: string;
  body: string;
};

/** The endpoint's delivery log, newest first; null for another salon's endpoint. */
export async function webhookDeliveryLog(
  db: Database,
  salonId: string,
  endpointId: string,
): Promise<WebhookDeliveryView[] | null> {
  if (!z.string().uuid().safeParse(endpointId).success) return null;
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.salonId, salonId)));
  if (!endpoint) return null;
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(DELIVERY_LOG_SIZE);
  return rows.map((row) => ({
    id: row.id,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    replay: row.replay > 0,
    createdAt: row.createdAt.toISOString(),
    body: row.body,
  }));
}

/**
 * Sends a delivery again (same `webhook-id`, same body, signed anew): a new
 * row of the log, attempted at once and retried on the schedule like any
 * other. At most MAX_REPLAYS_PER_HOUR per endpoint; not while it is stopped.
 */
export async function replayWebhookDelivery(
  db: Database,
  access: SalonAccess,
  deliveryId: string,
  now: Date,
): Promise<WebhookResult<{ deliveryId: string }>> {
  if (!z.string().uuid().safeParse(deliveryId).success) return notFound;
  return db.transaction(async (tx) => {
    const [original] = await tx
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, deliveryId));
    if (!original) return notFound;
    const endpoint = await endpointOf(tx, access.salon.id, original.endpointId);
    if (!endpoint) return notFound;
    if (endpoint.disabledAt) {
      return {
        ok: false as const,
        status: 409 as const,
        errors: { form: "停止中の送信先には再送できません。先に再開してください。" },
      };
    }
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpoint.id),
          eq(webhookDeliveries.replay, 1),
          gte(webhookDeliveries.createdAt, new Date(now.getTime() - 3_600_000)),
        ),
      );
    if (n >= MAX_REPLAYS_PER_HOUR) {
      return {
        ok: false as const,
        status: 429 as const,
        errors: {
          form: `再送は1つの送信先につき1時間に${MAX_REPLAYS_PER_HOUR}回までです。しばらくしてからお試しください。`,
        },
      };
    }
    const [copy] = await tx
      .insert(webhookDeliveries)
      .values({
        endpointId: endpoint.id,
        messageId: original.messageId,
        eventType: original.eventType,
        body: original.body,
        replay: 1,
        nextAttemptAt: now,
        createdAt: now,
      })
      .returning({ id: webhookDeliveries.id });
    if (!copy) throw new Error("replay not inserted");
    await recordAudit(
      tx,
      {
        actorUserId: access.user.id,
        action: "webhook.replay",
        targetType: "webhook_endpoint",
        targetId: endpoint.id,
        salonId: access.salon.id,
        after: { messageId: original.messageId, deliveryId: copy.id },
      },
      now,
    );
    return { ok: true as const, deliveryId: copy.id };
  });
}
