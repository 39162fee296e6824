import { sql } from "drizzle-orm";
import { addDays, formatMinutes, minutesOf, toLocal } from "../../common/local-time";
import type { Database } from "../db/client";
import { pgArray } from "../db/pg-array";
import { salonFreeDays } from "../db/schema";
import type { LocalDate } from "./availability-input";

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
 * free" (the booking page has the truth). With `date`, that date only (or
 * with `dateTo` the first of those days that has one), and the times within
 * [fromMinute, toMinute).
 */
export async function nextFreeTimes(
  db: Database,
  salonIds: readonly string[],
  now: Date,
  options: {
    date?: LocalDate;
    dateTo?: LocalDate;
    fromMinute?: number;
    toMinute?: number;
    count?: number;
  } = {},
): Promise<Map<string, NextFreeTimes>> {
  const out = new Map<string, NextFreeTimes>();
  if (salonIds.length === 0) return out;
  const count = options.count ?? 3;
  const nowLocal = toLocal(now, "Asia/Tokyo");
  const nowMinute = minutesOf(nowLocal.time);
  const from = options.date ?? nowLocal.date;
  const to = options.date
    ? (options.dateTo ?? options.date)
    : addDays(nowLocal.date, FREE_DAYS_HORIZON - 1);
  if (from < nowLocal.date) return out;
  const low = options.fromMinute ?? 0;
  const high = options.toMinute ?? 24 * 60;
  // Only what the cards show: per salon the first date with a start in
  // range (after now, today) and its first `count` starts, picked in SQL,
  // so a page of 20 salons reads 20 short arrays instead of every day's
  // whole list (each parsed into numbers in JavaScript).
  const qualifies = sql`m >= ${low}::int and m < ${high}::int and (f.date <> ${nowLocal.date}::date or m > ${nowMinute}::int)`;
  const result = await db.execute(sql`
    select distinct on (f.salon_id) f.salon_id as "salonId", f.date::text as date,
      array(select m from unnest(f.free_minutes) with ordinality as u(m, i)
        where ${qualifies} order by i limit ${count}::int) as minutes
    from ${salonFreeDays} f
    where f.salon_id = any(${pgArray(salonIds)}::uuid[])
      and f.date between ${from}::date and ${to}::date and f.free_slots_count > 0
      and exists (select 1 from unnest(f.free_minutes) m where ${qualifies})
    order by f.salon_id, f.date`);
  const rows = (
    result as unknown as { rows: { salonId: string; date: string; minutes: number[] }[] }
  ).rows;
  for (const row of rows) {
    if (row.minutes.length > 0) {
      out.set(row.salonId, { date: row.date, times: row.minutes.map(formatMinutes) });
    }
  }
  return out;
}
