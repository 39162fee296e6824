import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { SlotEvent, SlotEvents } from "../realtime/slot-events.server";

export const HEARTBEAT_MS = 25_000;
/** How long a browser waits before reconnecting (the `retry:` hint). */
export const RETRY_MS = 3_000;

export type AvailabilityStreamOptions<T> = {
  slotEvents: SlotEvents;
  /** The salon's UUID, as notifications name it. */
  salonId: string;
  /**
   * Inclusive local date range the client looks at; both left out, a change
   * of any date is news (the back office's 今日, whose 要確認 lists changes
   * to bookings of every day).
   */
  from?: string;
  to?: string;
  /** The availability of the range, computed now (called again after each change). */
  snapshot: () => Promise<T>;
  heartbeatMs?: number;
  /** The SSE event name: `availability` (the visitor's free times) or `ledger` (the salon's day). */
  event?: string;
};

/**
 * Server-Sent Events for one salon's free times (issue 15, point 8), and
 * for the owner's ledger (issue 28, point 3: `event: "ledger"`, whose
 * snapshot is only the range, since the page reloads its own data).
 *
 * Every message is an `availability` event, `{ changedDates, data }` with
 * `data` the whole range (as GET …/availability answers it), so the client
 * only ever replaces what it shows: the first one on connect, then
 * one after each change of a date in the range, wherever it happened
 * (LISTEN/NOTIFY, see server/realtime/). Resuming is the first message
 * again: a reconnecting browser (Last-Event-ID) gets a fresh snapshot,
 * which covers whatever it missed. Changes arriving while a snapshot is
 * computed are coalesced into one more. A comment every 25 s keeps proxies
 * from closing an idle connection. The subscription ends with the connection.
 *
 * It subscribes, then computes the first snapshot, and only then answers:
 * no change can fall between the two, and bad input (an unknown menu…)
 * still gets its JSON 4xx instead of a stream.
 */
export async function openAvailabilityStream<T>(
  c: Context,
  options: AvailabilityStreamOptions<T>,
): Promise<Response> {
  const {
    slotEvents,
    salonId,
    from,
    to,
    snapshot,
    heartbeatMs = HEARTBEAT_MS,
    event = "availability",
  } = options;

  let pending: { dates: string[] | null } | null = null;
  let wake = () => {};
  const onChange = (event: SlotEvent) => {
    const relevant =
      event.dates?.filter(
        (date) => (from === undefined || date >= from) && (to === undefined || date <= to),
      ) ?? null;
    if (relevant && relevant.length === 0) return;
    if (!pending) pending = { dates: relevant };
    else if (pending.dates && relevant) {
      pending.dates = [...new Set([...pending.dates, ...relevant])].sort();
    } else pending.dates = null;
    wake();
  };
  const unsubscribe = await slotEvents.subscribe(salonId, onChange);
  let first: T;
  try {
    first = await snapshot();
  } catch (error) {
    unsubscribe();
    throw error;
  }

  const response = streamSSE(c, async (stream) => {
    let ended = false;
    let end = () => {};
    const endedPromise = new Promise<void>((resolve) => {
      end = () => {
        ended = true;
        resolve();
        wake();
      };
    });
    stream.onAbort(() => end());
    const stopOnShutdown = slotEvents.onClose(() => end());
    const heartbeat = setInterval(() => {
      void stream.write(": ping\n\n");
    }, heartbeatMs);
    let eventId = 0;
    const send = async (data: T, changedDates: string[] | null, retry?: number) => {
      eventId += 1;
      await stream.writeSSE({
        event,
        id: String(eventId),
        data: JSON.stringify({ changedDates, data }),
        ...(retry ? { retry } : {}),
      });
    };
    try {
      await send(first, null, RETRY_MS);
      while (!ended) {
        if (!pending) {
          await Promise.race([
            endedPromise,
            new Promise<void>((resolve) => {
              wake = resolve;
            }),
          ]);
          continue;
        }
        const { dates } = pending;
        pending = null;
        try {
          const days = await snapshot();
          if (!ended) await send(days, dates);
        } catch {
          // Data changed under the stream (a menu withdrawn…): end it; the
          // browser reconnects and gets the error, or a fresh snapshot.
          end();
        }
      }
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
