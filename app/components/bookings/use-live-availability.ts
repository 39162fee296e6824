import { useEffect, useRef, useState } from "react";
import type { DayOption } from "./day-picker";
import type { TimeOption } from "./time-grid";

/** One day of `GET /api/salons/{id}/availability` (the fields the page uses). */
type LiveDay = {
  date: string;
  slots: { start: string; time: string }[];
};

export type LiveQuery = {
  /** The salon's slug or UUID. */
  salon: string;
  menuIds: readonly string[];
  /** A stylist's slug; null for 指名なし. */
  staff: string | null;
  /** Inclusive local date range ("YYYY-MM-DD"), at most 31 days (the API's limit). */
  from: string;
  to: string;
};

/** The stream's URL for a query (server/api/booking-routes.ts, streamAvailability). */
export function liveAvailabilityUrl(query: LiveQuery) {
  const params = new URLSearchParams({
    from: query.from,
    to: query.to,
    menus: query.menuIds.join(","),
  });
  if (query.staff) params.set("staff", query.staff);
  return `/api/salons/${encodeURIComponent(query.salon)}/availability/stream?${params}`;
}

/** The days of an `availability` event's data, or null when it is not what the API sends. */
function daysOf(message: string): LiveDay[] | null {
  try {
    const parsed = JSON.parse(message) as { data?: { days?: unknown } };
    const days = parsed.data?.days;
    if (!Array.isArray(days)) return null;
    return days.filter(
      (day): day is LiveDay =>
        typeof day?.date === "string" &&
        Array.isArray(day.slots) &&
        day.slots.every(
          (slot: unknown) =>
            typeof (slot as LiveDay["slots"][number])?.start === "string" &&
            typeof (slot as LiveDay["slots"][number])?.time === "string",
        ),
    );
  } catch {
    return null;
  }
}

/**
 * Free times of the booking page kept current by Server-Sent Events (issue
 * 15, point 8). Effects run only once the page is hydrated, so without
 * JavaScript nothing is opened and the page shows what the server rendered.
 * Every message carries the whole range (a reconnect gets a fresh snapshot,
 * EventSource reconnects by itself), so the latest one simply replaces what
 * is known. The connection closes when the query changes or the page is left.
 *
 * Returns the live days of the range, or null until the first message for
 * this very query has arrived (the loader's data stays in use until then).
 */
export function useLiveAvailability(query: LiveQuery | null): Map<string, LiveDay> | null {
  const url = query ? liveAvailabilityUrl(query) : null;
  const [live, setLive] = useState<{ url: string; days: Map<string, LiveDay> } | null>(null);
  useEffect(() => {
    if (!url || typeof EventSource === "undefined") return;
    const source = new EventSource(url);
    source.addEventListener("availability", (event) => {
      const days = daysOf((event as MessageEvent<string>).data);
      if (days) setLive({ url, days: new Map(days.map((day) => [day.date, day])) });
    });
    return () => source.close();
  }, [url]);
  return live && live.url === url ? live.days : null;
}

/** The loader's days with `available` taken from the live days where they are known. */
export function withLiveDays(days: DayOption[], live: Map<string, LiveDay> | null): DayOption[] {
  if (!live) return days;
  return days.map((day) => {
    const current = live.get(day.date);
    return current ? { ...day, available: current.slots.length > 0 } : day;
  });
}

/** The chosen day's times from the live days, when the range covers it. */
export function withLiveTimes(
  date: string | null,
  times: TimeOption[],
  live: Map<string, LiveDay> | null,
): TimeOption[] {
  const current = date ? live?.get(date) : undefined;
  if (!current) return times;
  return current.slots.map((slot) => ({ time: slot.time, start: slot.start }));
}

/**
 * A polite announcement of the times of the shown day that went away or came
 * back (「10:30 は他の方が予約しました」), for the aria-live region beside
 * the grid. Only changes of the same day count: picking another day is not news.
 */
export function useSlotChangeMessage(date: string | null, times: TimeOption[]): string {
  // null until the first render's times are known: they are no change.
  const previous = useRef<{ date: string | null; times: string[] } | null>(null);
  const [message, setMessage] = useState("");
  const shown = times.map((option) => option.time);
  const key = shown.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the shown times
  useEffect(() => {
    const before = previous.current;
    previous.current = { date, times: shown };
    if (!before || before.date !== date) {
      setMessage("");
      return;
    }
    const gone = before.times.filter((time) => !shown.includes(time));
    const back = shown.filter((time) => !before.times.includes(time));
    const parts = [
      ...(gone.length > 0 ? [`${gone.join("、")} は他の方が予約しました。`] : []),
      ...(back.length > 0 ? [`${back.join("、")} が空きました。`] : []),
    ];
    if (parts.length > 0) setMessage(parts.join(""));
  }, [date, key]);
  return message;
}

/** "YYYY-MM-DD" plus n days, by the calendar (no zone involved). */
function plusDays(date: string, n: number) {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + n)).toISOString().slice(0, 10);
}

/** The API's longest range, in days. */
const MAX_LIVE_DAYS = 31;

/**
 * The dates the page looks at, as far as one stream may cover: from the
 * first of the chosen day's month (or of the first free day's) for 31 days,
 * within the loader's days.
 */
export function liveRangeOf(
  days: DayOption[],
  date: string | null,
): { from: string; to: string } | null {
  const first = days[0]?.date;
  const last = days.at(-1)?.date;
  if (!first || !last) return null;
  const anchor = date ?? days.find((day) => day.available)?.date ?? first;
  const monthStart = `${anchor.slice(0, 7)}-01`;
  const from = monthStart > first ? monthStart : first;
  const end = plusDays(from, MAX_LIVE_DAYS - 1);
  // ISO dates sort as strings: the earlier of the two.
  return { from, to: [end, last].sort()[0] ?? last };
}
