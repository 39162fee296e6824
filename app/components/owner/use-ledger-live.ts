import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";

export const LEDGER_UPDATED = "予約台帳を更新しました";

/**
 * Keeps an open ledger current (issue 28, point 3; decision 0038): an
 * EventSource on /api/owner/salons/{id}/ledger/stream for the dates shown,
 * and on each change the page's loader runs again (useRevalidator), so the
 * page shows exactly what a reload would. The first message of a connection
 * is the stream saying hello: the very first is ignored (the page is fresh),
 * a reconnect's first is not (changes may have been missed meanwhile).
 * Effects run only once hydrated: without JavaScript nothing is opened.
 *
 * Returns the polite announcement for an aria-live region.
 */
export function useLedgerLive(
  salonId: string,
  from: string,
  to: string,
  /** The first shown hold's end (ISO 8601): it lapses without any write, so nothing is sent. */
  nextExpiry: string | null = null,
): string {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const params = new URLSearchParams({ from, to });
  const message = useLiveStream(`/api/owner/salons/${salonId}/ledger/stream?${params}`, "ledger");

  // A hold that lapses changes nothing in the database until it is cleared,
  // so no message comes: read the day again just after it lapsed.
  useEffect(() => {
    if (!nextExpiry) return;
    const wait = Date.parse(nextExpiry) - Date.now() + 1_000;
    if (!(wait > 0) || wait > 3_600_000) return;
    const timer = setTimeout(() => void revalidate.current(), wait);
    return () => clearTimeout(timer);
  }, [nextExpiry]);

  return message;
}

/**
 * The back office's 今日 (issue 38, point 6): its 要確認 lists new bookings,
 * cancellations and moves of any day, so it listens to every change of the
 * salon (/api/owner/salons/{id}/today/stream), not only today's.
 */
export function useTodayLive(salonId: string): string {
  return useLiveStream(`/api/owner/salons/${salonId}/today/stream`, "today");
}

/**
 * An EventSource on `url`; on each `event` after the first of a connection,
 * the page's loaders run again, then the announcement is set. The first
 * change reloads at once (issue 42: a 250 ms debounce was most of the
 * ledger's delay); changes that arrive while a reload runs are read by one
 * more reload after it, so a burst costs at most two and the last change is
 * never missed.
 */
function useLiveStream(url: string, event: string): string {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const [message, setMessage] = useState("");

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(url);
    let greeted = false;
    let closed = false;
    const reloads = coalescedReloads(async () => {
      setMessage("");
      await revalidate.current();
      if (!closed) setMessage(LEDGER_UPDATED);
    });
    source.addEventListener(event, () => {
      if (!greeted) {
        greeted = true;
        return;
      }
      reloads.request();
    });
    return () => {
      closed = true;
      source.close();
    };
  }, [url, event]);

  return message;
}

/**
 * Runs `reload` on request: at once when idle; when a run is under way, once
 * more after it (however many requests came meanwhile), since the running one
 * may have read the data before the newest change.
 */
export function coalescedReloads(reload: () => Promise<void>) {
  let running = false;
  let again = false;
  const run = async () => {
    running = true;
    try {
      do {
        again = false;
        await reload().catch(() => {});
      } while (again);
    } finally {
      running = false;
    }
  };
  return {
    request() {
      if (running) again = true;
      else void run();
    },
  };
}
