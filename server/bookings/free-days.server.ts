import { and, asc, eq, gt, gte, lte, sql } from "drizzle-orm";
import { addDays, minutesOf, toLocal } from "../../common/local-time";
import type { Database } from "../db/client";
import { menus, salonFreeDays, salons } from "../db/schema";
import { describeError, type Logger } from "../logger";
import { findAvailability } from "./availability";
import { loadAvailabilityInput, MAX_RANGE_DAYS } from "./availability-data.server";
import type { LocalDate } from "./availability-input";
import { FREE_DAYS_HORIZON } from "./free-times";

/**
 * The search's free-time summary (docs/decisions/0014-search-by-free-time.md):
 * one salon_free_days row per salon and local date over the next
 * FREE_DAYS_HORIZON days, with the free start minutes of the salon's
 * shortest published menu, 指名なし. Written only here, from the engine.
 */

/** A row older than this is refreshed by the periodic pass (the passing of time, new days). */
export const FREE_DAYS_MAX_AGE_MS = 30 * 60_000;
/** Advisory lock namespace (first key of pg_advisory_xact_lock), one per salon after it. */
const LOCK_NAMESPACE = 0x5f7e_d0a1;

/** The local dates the summary keeps for a salon whose today is `today`. */
export function horizonDates(today: LocalDate): LocalDate[] {
  return Array.from({ length: FREE_DAYS_HORIZON }, (_, i) => addDays(today, i));
}

/** Runs of at most MAX_RANGE_DAYS consecutive-or-not dates, for one loader call each. */
function ranges(dates: readonly LocalDate[]): [LocalDate, LocalDate][] {
  const sorted = [...new Set(dates)].sort();
  const out: [LocalDate, LocalDate][] = [];
  for (const date of sorted) {
    const last = out.at(-1);
    if (last && addDays(last[0], MAX_RANGE_DAYS - 1) >= date) last[1] = date;
    else out.push([date, date]);
  }
  return out;
}

/**
 * Recomputes the summary rows of one salon for the given local dates and
 * writes them (upsert). Called after every booking change that frees or
 * takes time (confirm, cancel), by the seed, and by the periodic pass.
 * One salon at a time: a transaction-scoped advisory lock makes a second
 * refresh of the salon wait and then read what the first committed, so
 * the last write is never computed from older data than an earlier one.
 * Live holds are left out (see the decision record): the summary may say
 * "free" where a hold sits for a few minutes, never "full" where a lapsed
 * hold left the time free.
 */
export async function refreshSalonAvailability(
  db: Database,
  salonId: string,
  dates: readonly LocalDate[],
  now: Date,
): Promise<void> {
  if (dates.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}::int, hashtext(${salonId}::text))`,
    );
    const [salon] = await tx
      .select({ id: salons.id, status: salons.status })
      .from(salons)
      .where(eq(salons.id, salonId));
    if (!salon) return;
    const [shortest] =
      salon.status === "published"
        ? await tx
            .select({ id: menus.id })
            .from(menus)
            .where(and(eq(menus.salonId, salonId), eq(menus.published, true)))
            .orderBy(asc(menus.durationMinutes), asc(menus.id))
            .limit(1)
        : [];
    const free = new Map<LocalDate, number[]>();
    if (shortest) {
      for (const [from, to] of ranges(dates)) {
        const loaded = await loadAvailabilityInput(tx, {
          salonId,
          menuIds: [shortest.id],
          staffId: null,
          from,
          to,
          now,
          ignoreHolds: true,
        });
        for (const day of findAvailability(loaded.input)) {
          free.set(
            day.date,
            day.slots.map((slot) => minutesOf(slot.time)),
          );
        }
      }
    }
    const rows = [...new Set(dates)].map((date) => {
      const minutes = [...new Set(free.get(date) ?? [])].sort((a, b) => a - b);
      return {
        salonId,
        date,
        freeMinutes: minutes,
        firstFreeMinute: minutes[0] ?? null,
        lastFreeMinute: minutes.at(-1) ?? null,
        freeSlotsCount: minutes.length,
        updatedAt: now,
      };
    });
    await tx
      .insert(salonFreeDays)
      .values(rows)
      .onConflictDoUpdate({
        target: [salonFreeDays.salonId, salonFreeDays.date],
        set: {
          freeMinutes: sql`excluded.free_minutes`,
          firstFreeMinute: sql`excluded.first_free_minute`,
          lastFreeMinute: sql`excluded.last_free_minute`,
          freeSlotsCount: sql`excluded.free_slots_count`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
  });
}

/**
 * After a committed booking change: the summary of the booking's local
 * date. A failure here must not turn a booking that stands into an error
 * page; the periodic pass repairs the row within FREE_DAYS_MAX_AGE_MS.
 */
export async function refreshAfterBookingChange(
  db: Database,
  booking: { salonId: string; startsAt: Date },
  now: Date,
): Promise<void> {
  try {
    const [salon] = await db
      .select({ timeZone: salons.timeZone })
      .from(salons)
      .where(eq(salons.id, booking.salonId));
    if (!salon) return;
    const date = toLocal(booking.startsAt, salon.timeZone).date;
    await refreshSalonAvailability(db, booking.salonId, [date], now);
  } catch {
    // Left stale on purpose (see above).
  }
}

/** Refreshes the salon's whole horizon (seed, periodic pass). */
export async function refreshSalonHorizon(db: Database, salonId: string, now: Date) {
  const [salon] = await db
    .select({ timeZone: salons.timeZone })
    .from(salons)
    .where(eq(salons.id, salonId));
  if (!salon) return;
  const today = toLocal(now, salon.timeZone).date;
  await refreshSalonAvailability(db, salonId, horizonDates(today), now);
  // Days that slid out of the horizon are of no use to anyone.
  await db
    .delete(salonFreeDays)
    .where(and(eq(salonFreeDays.salonId, salonId), sql`${salonFreeDays.date} < ${today}`));
}

/**
 * One pass of the periodic refresh: up to `limit` published salons whose
 * horizon is not fully covered by rows younger than FREE_DAYS_MAX_AGE_MS
 * (time passed, or a new day entered the horizon), oldest first. Returns
 * how many were refreshed. Dates are taken in Asia/Tokyo for the choice
 * only; each salon is refreshed in its own zone.
 */
export async function refreshStaleFreeDays(db: Database, now: Date, limit = 200): Promise<number> {
  const today = toLocal(now, "Asia/Tokyo").date;
  const last = addDays(today, FREE_DAYS_HORIZON - 1);
  const cutoff = new Date(now.getTime() - FREE_DAYS_MAX_AGE_MS);
  const fresh = db
    .select({ salonId: salonFreeDays.salonId })
    .from(salonFreeDays)
    .where(
      and(
        gte(salonFreeDays.date, today),
        lte(salonFreeDays.date, last),
        gt(salonFreeDays.updatedAt, cutoff),
      ),
    )
    .groupBy(salonFreeDays.salonId)
    .having(sql`count(*) = ${FREE_DAYS_HORIZON}`);
  const stale = await db
    .select({ id: salons.id })
    .from(salons)
    .where(and(eq(salons.status, "published"), sql`${salons.id} not in (${fresh})`))
    .orderBy(asc(salons.id))
    .limit(limit);
  for (const { id } of stale) await refreshSalonHorizon(db, id, now);
  return stale.length;
}

export type FreeDaysRefresh = { stop(): Promise<void> };

/**
 * The periodic pass started by the server: every `intervalMs`, refresh a
 * batch of stale salons. Several app servers may run it; the advisory lock
 * serializes two refreshes of one salon, and both compute the same rows.
 */
export function startFreeDaysRefresh(options: {
  db: Database;
  log: Logger;
  intervalMs?: number;
  batch?: number;
}): FreeDaysRefresh {
  const intervalMs = options.intervalMs ?? 60_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = refreshStaleFreeDays(options.db, new Date(), options.batch)
      .catch((error) => options.log.error("free-days refresh failed", describeError(error)))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  timer = setTimeout(tick, intervalMs).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export { FREE_DAYS_HORIZON };
