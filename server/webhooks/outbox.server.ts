import { randomUUID } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import {
  type BookingActorKind,
  type BookingEventKind,
  bookingMenus,
  bookings,
  type WebhookEventType,
  webhookDeliveries,
  webhookEndpoints,
} from "../db/schema";

/**
 * The webhook outbox (decision 0086): an event is written as one delivery row
 * per endpoint of the salon that asked for it, inside the transaction of the
 * change it tells of, so it is sent exactly when the change committed; the
 * delivery loop (delivery.server.ts) sends it.
 */

/** The payloads' version: a receiver reads `version` before `data`. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

export type WebhookPayload<T = Record<string, unknown>> = {
  type: WebhookEventType;
  version: typeof WEBHOOK_PAYLOAD_VERSION;
  /** When the change happened (ISO 8601). */
  timestamp: string;
  salonId: string;
  data: T;
};

/** A message id as Standard Webhooks has them: unique, the same for every endpoint and a replay. */
export const newMessageId = () => `msg_${randomUUID().replaceAll("-", "")}`;

/**
 * Writes the event for every enabled endpoint of the salon that asked for it;
 * nothing (and no payload built) when none did. `data` is called only then.
 */
export async function emitWebhookEvent(
  tx: Database,
  event: {
    salonId: string;
    type: WebhookEventType;
    at: Date;
    data: () => Promise<Record<string, unknown> | null>;
  },
): Promise<number> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.salonId, event.salonId), isNull(webhookEndpoints.disabledAt)));
  const wanted = endpoints.filter((endpoint) => endpoint.events.includes(event.type));
  if (wanted.length === 0) return 0;
  const data = await event.data();
  if (!data) return 0;
  const payload: WebhookPayload = {
    type: event.type,
    version: WEBHOOK_PAYLOAD_VERSION,
    timestamp: event.at.toISOString(),
    salonId: event.salonId,
    data,
  };
  const body = JSON.stringify(payload);
  const messageId = newMessageId();
  await tx.insert(webhookDeliveries).values(
    wanted.map((endpoint) => ({
      endpointId: endpoint.id,
      messageId,
      eventType: event.type,
      body,
      nextAttemptAt: event.at,
      createdAt: event.at,
    })),
  );
  return wanted.length;
}

/** Which event a booking's history entry is, if any (a note is the salon's own business). */
export function bookingWebhookEvent(kind: BookingEventKind): WebhookEventType | null {
  switch (kind) {
    case "created":
      return "booking.created";
    case "confirmed":
    case "moved":
    case "menus_changed":
    case "arrived":
    case "undone":
      return "booking.changed";
    case "cancelled":
      return "booking.cancelled";
    case "completed":
      return "booking.completed";
    case "no_show":
      return "booking.no_show";
    default:
      return null;
  }
}

/** The booking as every booking.* payload gives it (blocked time is no booking: null). */
export async function bookingWebhookData(
  tx: Database,
  bookingId: string,
  change: { kind: BookingEventKind; actor: BookingActorKind },
): Promise<Record<string, unknown> | null> {
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId));
  if (booking?.kind !== "booking") return null;
  const menus = await tx
    .select({
      id: bookingMenus.menuId,
      name: bookingMenus.name,
      price: bookingMenus.price,
      durationMinutes: bookingMenus.durationMinutes,
    })
    .from(bookingMenus)
    .where(and(eq(bookingMenus.bookingId, booking.id), eq(bookingMenus.salonId, booking.salonId)))
    .orderBy(asc(bookingMenus.position));
  return {
    change: change.kind,
    actor: change.actor,
    booking: {
      id: booking.id,
      number: booking.bookingNumber,
      status: booking.status,
      approval: booking.approval,
      source: booking.source,
      startsAt: booking.startsAt.toISOString(),
      endsAt: booking.endsAt.toISOString(),
      staffId: booking.staffId,
      staffRequested: booking.staffRequested,
      couponId: booking.couponId,
      totalPrice: booking.totalPrice,
      menus,
      customer: {
        id: booking.customerId,
        name: booking.customerName,
        kana: booking.customerKana,
        phone: booking.customerPhone,
        email: booking.customerEmail,
      },
      cancelledAt: booking.cancelledAt?.toISOString() ?? null,
      cancelledBy: booking.cancelledBy,
    },
  };
}

type ReviewRow = {
  id: string;
  bookingId: string;
  staffId: string | null;
  authorLabel: string;
  rating: number;
  ratingAtmosphere: number | null;
  ratingService: number | null;
  ratingTechnique: number | null;
  ratingFinish: number | null;
  title: string;
  body: string;
  visitedOn: string;
  createdAt: Date;
};

/** review.posted: the review as the salon's public page shows it (no account id). */
export function reviewWebhookData(review: ReviewRow): Record<string, unknown> {
  return {
    review: {
      id: review.id,
      bookingId: review.bookingId,
      staffId: review.staffId,
      authorLabel: review.authorLabel,
      rating: review.rating,
      ratings: {
        atmosphere: review.ratingAtmosphere,
        service: review.ratingService,
        technique: review.ratingTechnique,
        finish: review.ratingFinish,
      },
      title: review.title,
      body: review.body,
      visitedOn: review.visitedOn,
      createdAt: review.createdAt.toISOString(),
    },
  };
}

/** customer.created: a new customer record (a phone, walk-in or web booking's person). */
export function customerWebhookData(customer: {
  id: string;
  name: string;
  kana: string;
  phone: string;
  email: string;
  userId: string | null;
}): Record<string, unknown> {
  return {
    customer: {
      id: customer.id,
      name: customer.name,
      kana: customer.kana,
      phone: customer.phone,
      email: customer.email,
      hasAccount: customer.userId !== null,
    },
  };
}
