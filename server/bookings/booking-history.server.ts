import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import {
  accountProfiles,
  type BookingActorKind,
  type BookingEventKind,
  bookingEvents,
  users,
} from "../db/schema";
import {
  bookingWebhookData,
  bookingWebhookEvent,
  emitWebhookEvent,
} from "../webhooks/outbox.server";

/**
 * A booking's history (issue 28, point 4): every change of a booking writes
 * one entry here in the same transaction as the change, so the history is
 * exactly what happened. The back office's notices read the same rows.
 */

export type BookingActor = { kind: BookingActorKind; userId: string | null };

/** The customer acting on their own booking (userId null for a guest, who cannot act yet). */
export const customerActor = (userId: string | null): BookingActor => ({
  kind: "customer",
  userId,
});
export const salonActor = (userId: string): BookingActor => ({ kind: "salon", userId });
export const systemActor: BookingActor = { kind: "system", userId: null };

export type BookingEventInput = {
  salonId: string;
  bookingId: string;
  kind: BookingEventKind;
  actor: BookingActor;
  details?: Record<string, unknown>;
  at: Date;
};

/**
 * Inside the transaction that made the change. The salon's webhooks hear of
 * it in the same transaction (decision 0086): booking.created, changed,
 * cancelled, completed, no_show.
 */
export async function recordBookingEvent(tx: Database, event: BookingEventInput) {
  await tx.insert(bookingEvents).values({
    salonId: event.salonId,
    bookingId: event.bookingId,
    kind: event.kind,
    actorKind: event.actor.kind,
    actorUserId: event.actor.userId,
    details: event.details ?? {},
    createdAt: event.at,
  });
  const type = bookingWebhookEvent(event.kind);
  if (type) {
    await emitWebhookEvent(tx, {
      salonId: event.salonId,
      type,
      at: event.at,
      data: () =>
        bookingWebhookData(tx, event.bookingId, { kind: event.kind, actor: event.actor.kind }),
    });
  }
}

export type BookingEventView = {
  id: string;
  kind: BookingEventKind;
  actorKind: BookingActorKind;
  /** The acting account's name as the salon knows it (profile name, else account name); null for the system. */
  actorName: string | null;
  details: Record<string, unknown>;
  at: Date;
};

/** A booking's history, oldest first. The caller has checked the booking belongs to the salon. */
export async function listBookingEvents(
  db: Pick<Database, "select">,
  { salonId, bookingId }: { salonId: string; bookingId: string },
): Promise<BookingEventView[]> {
  const rows = await db
    .select({
      id: bookingEvents.id,
      kind: bookingEvents.kind,
      actorKind: bookingEvents.actorKind,
      accountName: users.name,
      profileName: accountProfiles.name,
      details: bookingEvents.details,
      at: bookingEvents.createdAt,
    })
    .from(bookingEvents)
    .leftJoin(users, eq(users.id, bookingEvents.actorUserId))
    .leftJoin(accountProfiles, eq(accountProfiles.userId, bookingEvents.actorUserId))
    .where(and(eq(bookingEvents.salonId, salonId), eq(bookingEvents.bookingId, bookingId)))
    .orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    actorKind: row.actorKind,
    actorName: row.profileName || row.accountName || null,
    details: row.details,
    at: row.at,
  }));
}
