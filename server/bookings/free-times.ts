import { type AnyColumn, and, asc, eq, gt, type SQL, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { addDays, formatMinutes, minutesOf, toLocal } from "../../common/local-time";
import type { Database } from "../db/client";
import { pgArray } from "../db/pg-array";
import { salonFreeDays, salons } from "../db/schema";
import type { LocalDate } from "./availability-input";

/**
 * Reading the search's free-time summary (docs/decisions/0014-search-by-free-time.md);
 * free-days.server.ts writes it. No server-only imports: the search and the
 * salon page modules that use this are also loaded for their types by the client build.
 */

/** Days from today (included) the summary covers; later dates fall back to "open that day". */
export const FREE_DAYS_HORIZON = 14;

export type NextFreeTimes = { date: LocalDate; times: string[] };

export type FreeTimeOptions = {
  date?: LocalDate;
  dateTo?: LocalDate;
  fromMinute?: number;
  toMinute?: number;
  count?: number;
};

/**
 * The next free start times (up to `count`) of the salon whose id is
 * `salonId` (a column of the outer query), on the first date from today
 * with any left after now: from the summary, so "maybe free" (the booking
 * page has the truth). With `date`, that date only (or with `dateTo` the
 * first of those days that has one), and the times within
 * [fromMinute, toMinute). A subquery for a lateral join, so a list reads its
 * cards and their free times in one statement (issue 42); `date` is null
 * where the salon has none.
 */
export function firstFreeDay(salonId: SQL | AnyColumn, now: Date, options: FreeTimeOptions = {}) {
  const count = options.count ?? 3;
  const nowLocal = toLocal(now, "Asia/Tokyo");
  const nowMinute = minutesOf(nowLocal.time);
  const from = options.date ?? nowLocal.date;
  const to = options.date
    ? (options.dateTo ?? options.date)
    : addDays(nowLocal.date, FREE_DAYS_HORIZON - 1);
  const low = options.fromMinute ?? 0;
  const high = options.toMinute ?? 24 * 60;
  const f = salonFreeDays;
  // Only what the cards show: per salon the first date with a start in
  // range (after now, today) and its first `count` starts, picked in SQL,
  // so a page of 20 salons reads 20 short arrays instead of every day's
  // whole list (each parsed into numbers in JavaScript).
  const qualifies = sql`m >= ${low}::int and m < ${high}::int and (${f.date} <> ${nowLocal.date}::date or m > ${nowMinute}::int)`;
  return new QueryBuilder()
    .select({
      date: sql<LocalDate | null>`${f.date}::text`.as("free_date"),
      minutes: sql<
        number[] | null
      >`array(select m from unnest(${f.freeMinutes}) with ordinality as u(m, i)
        where ${qualifies} order by i limit ${count}::int)`.as("free_minutes"),
    })
    .from(f)
    .where(
      and(
        eq(f.salonId, salonId),
        // A day before today has no free time left: nothing to read.
        from < nowLocal.date ? sql`false` : undefined,
        sql`${f.date} between ${from}::date and ${to}::date`,
        gt(f.freeSlotsCount, 0),
        sql`exists (select 1 from unnest(${f.freeMinutes}) m where ${qualifies})`,
      ),
    )
    .orderBy(asc(f.date))
    .limit(1)
    .as("free");
}

/** The card's shape of a `firstFreeDay` row: null for a salon with none. */
export function freeTimesOf(row: {
  date: string | null;
  minutes: number[] | null;
}): NextFreeTimes | null {
  return row.date && row.minutes && row.minutes.length > 0
    ? { date: row.date, times: row.minutes.map(formatMinutes) }
    : null;
}

/** For each salon id, its next free start times (see `firstFreeDay`). */
export async function nextFreeTimes(
  db: Database,
  salonIds: readonly string[],
  now: Date,
  options: FreeTimeOptions = {},
): Promise<Map<string, NextFreeTimes>> {
  const out = new Map<string, NextFreeTimes>();
  if (salonIds.length === 0) return out;
  const free = firstFreeDay(salons.id, now, options);
  const rows = await db
    .select({ salonId: salons.id, date: free.date, minutes: free.minutes })
    .from(salons)
    .innerJoinLateral(free, sql`true`)
    .where(sql`${salons.id} = any(${pgArray(salonIds)}::uuid[])`);
  for (const row of rows) {
    const found = freeTimesOf(row);
    if (found) out.set(row.salonId, found);
  }
  return out;
}
