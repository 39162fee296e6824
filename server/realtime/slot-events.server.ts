import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, DatabaseHandle } from "../db/client";
import { enqueueWaitlistMatch } from "../waitlist/waitlist-trigger.server";

/**
 * Live slots (issue 15, point 8): whatever changes a salon's free times
 * (a hold, a booking, a cancellation, an expired hold cleared) calls
 * notifySlotChange; every app server LISTENs on one channel and hands the
 * change to the open availability streams of that salon. PostgreSQL
 * delivers a NOTIFY only when its transaction commits, so a rolled-back
 * booking never reaches a page, and calling it inside the transaction is
 * the safe place (it cannot be forgotten after a crash between commit and notify).
 */
export const SLOT_CHANNEL = "slot_changes";

/** A salon whose free times changed on these local dates ("YYYY-MM-DD" in the salon's zone). */
export type SlotChange = { salonId: string; dates: string[] };

/**
 * What a subscriber receives: a change, or `dates: null` when notifications
 * may have been missed (the listening connection was re-established), so
 * every date must be treated as changed.
 */
export type SlotEvent = { salonId: string; dates: string[] | null };
export type SlotListener = (event: SlotEvent) => void;

const payloadSchema = z.object({
  salonId: z.string().min(1),
  dates: z.array(z.iso.date()).max(400),
});

/**
 * Sends the change to every app server, and hands the dates to the waiting
 * list (a waitlist_match job per date someone waits on; decision 0055), so
 * no path that frees a time can forget the line. Takes a transaction as well
 * as the database: inside a transaction both happen on commit, and neither on rollback.
 */
export async function notifySlotChange(db: Database, salonId: string, dates: readonly string[]) {
  const unique = [...new Set(dates)].sort();
  if (unique.length === 0) return;
  await publishSlotChange(db, salonId, unique);
  await enqueueWaitlistMatch(db, salonId, unique);
}

/**
 * Only the live notice, for the waiting list's own changes (an offer's hold):
 * going through notifySlotChange, the matcher would queue itself again.
 */
export async function publishSlotChange(db: Database, salonId: string, dates: readonly string[]) {
  const unique = [...new Set(dates)].sort();
  if (unique.length === 0) return;
  const payload: SlotChange = { salonId, dates: unique };
  await db.execute(sql`select pg_notify(${SLOT_CHANNEL}, ${JSON.stringify(payload)})`);
}

export type SlotEvents = {
  /** Calls `listener` for each change of `salonId` until the returned function is called. */
  subscribe(salonId: string, listener: SlotListener): Promise<() => void>;
  /** Open subscriptions, for tests and metrics. */
  subscriberCount(): number;
  /** Asks every open stream to end (server shutdown): the browser reconnects elsewhere. */
  onClose(callback: () => void): () => void;
  close(): Promise<void>;
};

/**
 * One LISTEN per app server, started with the first subscriber, fanned out
 * in memory by salon: the cost of a stream is a set entry, not a connection.
 */
export function createSlotEvents(database: Pick<DatabaseHandle, "listen">): SlotEvents {
  const bySalon = new Map<string, Set<SlotListener>>();
  const closeCallbacks = new Set<() => void>();
  let listening: Promise<() => Promise<void>> | null = null;

  const deliver = (event: SlotEvent) => {
    for (const listener of bySalon.get(event.salonId) ?? []) {
      // One broken stream must not stop the others.
      try {
        listener(event);
      } catch {}
    }
  };

  const onNotification = (payload: string) => {
    let parsed: SlotChange;
    try {
      parsed = payloadSchema.parse(JSON.parse(payload));
    } catch {
      return; // not ours, or from an older version: nothing to tell anyone
    }
    deliver(parsed);
  };

  const onReconnect = () => {
    for (const salonId of bySalon.keys()) deliver({ salonId, dates: null });
  };

  const startListening = () => {
    listening ??= database.listen(SLOT_CHANNEL, onNotification, { onReconnect }).catch((error) => {
      listening = null; // the next subscriber tries again
      throw error;
    });
    return listening;
  };

  const remove = (salonId: string, listener: SlotListener) => {
    const set = bySalon.get(salonId);
    if (!set) return;
    set.delete(listener);
    if (set.size === 0) bySalon.delete(salonId);
  };

  return {
    async subscribe(salonId, listener) {
      let set = bySalon.get(salonId);
      if (!set) {
        set = new Set();
        bySalon.set(salonId, set);
      }
      set.add(listener);
      try {
        await startListening();
      } catch (error) {
        remove(salonId, listener);
        throw error;
      }
      return () => remove(salonId, listener);
    },
    subscriberCount() {
      let count = 0;
      for (const set of bySalon.values()) count += set.size;
      return count;
    },
    onClose(callback) {
      closeCallbacks.add(callback);
      return () => closeCallbacks.delete(callback);
    },
    async close() {
      for (const callback of [...closeCallbacks]) callback();
      closeCallbacks.clear();
      bySalon.clear();
      const unlisten = await listening?.catch(() => null);
      listening = null;
      await unlisten?.();
    },
  };
}
