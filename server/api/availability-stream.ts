import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { SlotEvent, SlotEvents } from "../realtime/slot-events.server";

export const HEARTBEAT_MS = 25_000;
/** How long a browser waits before reconnecting (the `retry:` hint). */
export const RETRY_MS = 3_000;

export type AvailabilityStreamOptions = {
  slotEvents: SlotEvents;
  salonId: string;
  /** Inclusive local date range the client looks at. */
  from: string;
  to: string;
  /** The availability of the range, computed now (called again on each change). */
  snapshot: () => Promise<unknown>;
  heartbeatMs?: number;
};

/**
 * Server-Sent Events for one salon's free times (issue 15, point 8).
 *
 * Every message is an `availability` event with the whole range, so the
 * client only ever replaces what it shows: the first one on connect, then
 * one after each change of a date in the range, wherever it happened
 * (LISTEN/NOTIFY, see server/realtime/). Resuming is the first message
 * again: a reconnecting browser (Last-Event-ID) gets a fresh snapshot,
 * which covers whatever it missed. Changes arriving while a snapshot is
 * computed are coalesced into one more. A comment every 25 s keeps proxies
 * from closing an idle connection. The subscription ends with the connection.
 */
export function availabilityStream(c: Context, options: AvailabilityStreamOptions) {
  const { slotEvents, salonId, from, to, snapshot, heartbeatMs = HEARTBEAT_MS } = options;
  const response = streamSSE(c, async (stream) => {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    stream.onAbort(() => finish());
    const stopOnShutdown = slotEvents.onClose(() => finish());

    let eventId = 0;
    let running = false;
    let pending: { dates: string[] | null } | null = null;
    const send = async (changedDates: string[] | null, first: boolean) => {
      const days = await snapshot();
      if (stream.aborted || stream.closed) return;
      eventId += 1;
      await stream.writeSSE({
        event: "availability",
        id: String(eventId),
        data: JSON.stringify({ salonId, from, to, changedDates, days }),
        ...(first ? { retry: RETRY_MS } : {}),
      });
    };
    // One computation at a time; changes arriving meanwhile merge into the next one.
    const refresh = async () => {
      if (running) return;
      running = true;
      try {
        while (pending && !stream.aborted) {
          const { dates } = pending;
          pending = null;
          await send(dates, false);
        }
      } catch {
        // The next change or the browser's reconnect brings a fresh snapshot.
      } finally {
        running = false;
      }
    };
    const onChange = (event: SlotEvent) => {
      const relevant = event.dates?.filter((date) => date >= from && date <= to) ?? null;
      if (relevant && relevant.length === 0) return;
      if (!pending) pending = { dates: relevant };
      else if (pending.dates && relevant) {
        pending.dates = [...new Set([...pending.dates, ...relevant])].sort();
      } else pending.dates = null;
      void refresh();
    };

    // Subscribe before the first snapshot, so no change can fall between them.
    const unsubscribe = await slotEvents.subscribe(salonId, onChange);
    const heartbeat = setInterval(() => {
      void stream.write(": ping\n\n");
    }, heartbeatMs);
    try {
      running = true;
      try {
        await send(null, true);
      } finally {
        running = false;
      }
      if (pending) void refresh();
      await finished;
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
      stopOnShutdown();
    }
  });
  response.headers.set("Cache-Control", "private, no-store");
  // Tells nginx-style proxies not to buffer the stream.
  response.headers.set("X-Accel-Buffering", "no");
  return response;
}
