import { and, asc, gt, gte, inArray, lte } from "drizzle-orm";
import type { Database } from "../db/client";
import { salonFreeDays } from "../db/schema";
import type { LocalDate } from "./availability-input";
import { addDays, formatMinutes, minutesOf, toLocal } from "./local-time";

/**
 * Reading the search's free-time summary (docs/decisions/0014-search-by-free-time.md);
 * free-days.server.ts writes it. No server-only imports: the search and the
 * salon page modules that use this are also loaded for their types by the client build.
 */

/** Days from today (included) the summary covers; later dates fall back to "open that day". */
export const FREE_DAYS_HORIZON = 14;

export type NextFreeTimes = { date: LocalDate; times: string[] };

/**
 * For each salon id, its next free start times (up to `count`) on the first
 * date from today with any left after now: from the summary, so "maybe
 * free" (the booking page has the truth). With `date`, that date only,
 * and the times within [fromMinute, toMinute).
 */
export async function nextFreeTimes(
  db: Database,
  salonIds: readonly string[],
  now: Date,
  options: { date?: LocalDate; fromMinute?: number; toMinute?: number; count?: number } = {},
): Promise<Map<string, NextFreeTimes>> {
  const out = new Map<string, NextFreeTimes>();
  if (salonIds.length === 0) return out;
  const count = options.count ?? 3;
  const nowLocal = toLocal(now, "Asia/Tokyo");
  const nowMinute = minutesOf(nowLocal.time);
  const from = options.date ?? nowLocal.date;
  const to = options.date ?? addDays(nowLocal.date, FREE_DAYS_HORIZON - 1);
  if (from < nowLocal.date) return out;
  const rows = await db
    .select({
      salonId: salonFreeDays.salonId,
      date: salonFreeDays.date,
      minutes: salonFreeDays.freeMinutes,
    })
    .from(salonFreeDays)
    .where(
      and(
        inArray(salonFreeDays.salonId, [...salonIds]),
        gte(salonFreeDays.date, from),
        lte(salonFreeDays.date, to),
        gt(salonFreeDays.freeSlotsCount, 0),
      ),
    )
    .orderBy(asc(salonFreeDays.salonId), asc(salonFreeDays.date));
  const low = options.fromMinute ?? 0;
  const high = options.toMinute ?? 24 * 60;
  for (const row of rows) {
    if (out.has(row.salonId)) continue;
    const times = row.minutes
      .filter((m) => m >= low && m < high && (row.date !== nowLocal.date || m > nowMinute))
      .slice(0, count)
      .map(formatMinutes);
    if (times.length > 0) out.set(row.salonId, { date: row.date, times });
  }
  return out;
}
