import { existsSync } from "node:fs";
import autocannon from "autocannon";
import { and, eq, inArray, sql } from "drizzle-orm";
import { parseSearchQuery } from "../common/search.schema";
import { findAvailability } from "../server/bookings/availability";
import { loadAvailabilityInput } from "../server/bookings/availability-data.server";
import { confirmBooking, holdSlot } from "../server/bookings/booking.server";
import { SlotTakenError } from "../server/bookings/booking-errors";
import { addDays, toLocal } from "../server/bookings/local-time";
import { type DatabaseHandle, openDatabase } from "../server/db/client";
import { bookings, users } from "../server/db/schema";
import { seedDatabase } from "../server/db/seed/seed";
import { searchSalons } from "../server/salons/search";
import {
  cleanUp,
  DISTINCT_SEARCHES,
  type Engine,
  freeTimeSearches,
  PORT,
  POSTGRES_URL,
  pgliteEngine,
  postgresEngine,
  redact,
  startServer,
  stopServer,
} from "./harness";

/**
 * `npm run bench:booking` (after `npm run build`): for PGlite and, when
 * reachable, PostgreSQL (a throwaway database), seeds BENCH_SALONS (10,000)
 * demo salons with their bookings and free-time summary, then measures
 * (a) availability of one salon over 14 days: loader + engine in process;
 *     over HTTP when the server has an availability endpoint or booking page;
 * (b) 200 concurrent clients racing for the same 20 slots (holdSlot through
 *     the pool, in process: the booking API is not merged yet);
 * (c) sustained bookings (hold + confirm) per second on distinct slots;
 * (d) the search with the free-time filter beside the plain search: the
 *     query in process and the page over HTTP with distinct queries.
 * Everything it creates is removed at the end.
 */
const SALONS = Number(process.env.BENCH_SALONS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const RUNS = 1000;
const WARMUP = 200;
const RACERS = 200;
const RACE_SLOTS = 20;
const WORKERS = 10;
const ZONE = "Asia/Tokyo";

type Stats = { p50: number; p99: number; mean: number; n: number };
function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((sum, v) => sum + v, 0) / Math.max(1, sorted.length);
  return { p50: at(0.5), p99: at(0.99), mean, n: sorted.length };
}
const ms = (value: number) => value.toFixed(2);

type Salon = { id: string; slug: string; menuId: string };

/** Published salons whose rules are the defaults (no daily limit), with staff and a menu. */
async function plainSalons(db: DatabaseHandle["db"], limit: number): Promise<Salon[]> {
  const rows = await db.execute(sql`
    select s.id, s.slug,
      (select m.id from menus m where m.salon_id = s.id and m.published
        order by m.duration_minutes, m.id limit 1) as menu_id
    from salons s
    where s.status = 'published'
      and not exists (select 1 from salon_booking_settings b where b.salon_id = s.id)
      and exists (select 1 from staff t where t.salon_id = s.id and t.active)
      and exists (select 1 from menus m where m.salon_id = s.id and m.published)
    order by s.recommended_score desc, s.slug
    limit ${limit}`);
  const list = (rows as unknown as { rows: Record<string, string>[] }).rows ?? rows;
  return (list as Record<string, string>[]).map((row) => ({
    id: String(row.id),
    slug: String(row.slug),
    menuId: String(row.menu_id),
  }));
}

/** (a) loader + engine for one salon over 14 days, in process. */
async function availabilityInProcess(handle: DatabaseHandle, salon: Salon) {
  const now = new Date();
  const today = toLocal(now, ZONE).date;
  const engineSamples: number[] = [];
  const run = async () => {
    const loaded = await loadAvailabilityInput(handle.db, {
      salonId: salon.id,
      menuIds: [salon.menuId],
      staffId: null,
      from: today,
      to: addDays(today, 13),
      now,
    });
    const started = performance.now();
    const days = findAvailability(loaded.input);
    engineSamples.push(performance.now() - started);
    return days;
  };
  for (let i = 0; i < WARMUP; i++) await run();
  engineSamples.length = 0;
  const samples: number[] = [];
  let slots = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const days = await run();
    samples.push(performance.now() - started);
    slots = days.reduce((sum, day) => sum + day.slots.length, 0);
  }
  return { ...stats(samples), engine: stats(engineSamples), slots };
}

/** Non-overlapping free starts of one stylist (or 指名なし) from `from` on, up to `count`. */
async function distinctStarts(
  handle: DatabaseHandle,
  salon: Salon,
  staffId: string | null,
  from: string,
  count: number,
) {
  const now = new Date();
  const loaded = await loadAvailabilityInput(handle.db, {
    salonId: salon.id,
    menuIds: [salon.menuId],
    staffId,
    from,
    to: addDays(from, 20),
    now,
  });
  const occupied = (loaded.durationMinutes + loaded.rules.bufferAfterMinutes) * 60_000;
  const starts: Date[] = [];
  let free = 0;
  for (const day of findAvailability(loaded.input)) {
    for (const slot of day.slots) {
      if (slot.start.getTime() < free) continue;
      starts.push(slot.start);
      free = slot.start.getTime() + occupied;
      if (starts.length === count) return { starts, staff: loaded.input.staff };
    }
  }
  return { starts, staff: loaded.input.staff };
}

/** (b) RACERS concurrent holds on RACE_SLOTS slots of one stylist: exactly one winner each. */
async function race(handle: DatabaseHandle, salon: Salon) {
  const today = toLocal(new Date(), ZONE).date;
  const { staff } = await distinctStarts(handle, salon, null, addDays(today, 20), 1);
  const stylist = staff[0]?.id;
  if (!stylist) throw new Error("no stylist to race for");
  const { starts } = await distinctStarts(handle, salon, stylist, addDays(today, 20), RACE_SLOTS);
  if (starts.length < RACE_SLOTS) throw new Error(`only ${starts.length} slots to race for`);
  const latencies: number[] = [];
  let accepted = 0;
  let conflicts = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: RACERS }, async (_, i) => {
      const t = performance.now();
      try {
        await holdSlot(handle.db, {
          salonId: salon.id,
          menuIds: [salon.menuId],
          staffId: stylist,
          start: starts[i % RACE_SLOTS] as Date,
          userId: null,
          now: new Date(),
        });
        accepted++;
      } catch (error) {
        if (error instanceof SlotTakenError) conflicts++;
        else {
          errors++;
          console.error(error);
        }
      } finally {
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  const held = await handle.db.$count(
    bookings,
    and(eq(bookings.salonId, salon.id), inArray(bookings.startsAt, starts)),
  );
  return { ...stats(latencies), accepted, conflicts, errors, held, wall };
}

/** (c) WORKERS loops of hold + confirm on distinct salons and slots for SECONDS. */
async function sustained(handle: DatabaseHandle, pool: Salon[]) {
  const today = toLocal(new Date(), ZONE).date;
  const customer = {
    name: "負荷 太郎",
    kana: "ふか たろう",
    phone: "090-0000-0000",
    email: "bench@example.jp",
  };
  const userIds = Array.from({ length: WORKERS }, (_, w) => `bench-user-${w}-${Date.now()}`);
  await handle.db
    .insert(users)
    .values(userIds.map((id) => ({ id, name: "負荷 太郎", email: `${id}@example.jp` })));
  const queues = await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      const salon = pool[w] as Salon;
      return { salon, ...(await distinctStarts(handle, salon, null, addDays(today, 30), 500)) };
    }),
  );
  const latencies: number[] = [];
  let booked = 0;
  let conflicts = 0;
  let errors = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    queues.map(async ({ salon, starts }, w) => {
      const userId = userIds[w] as string;
      for (const start of starts) {
        if (performance.now() > deadline) return;
        const t = performance.now();
        try {
          const hold = await holdSlot(handle.db, {
            salonId: salon.id,
            menuIds: [salon.menuId],
            staffId: null,
            start,
            userId,
            now: new Date(),
          });
          await confirmBooking(handle.db, {
            holdId: hold.id,
            userId,
            customer,
            notes: "",
            idempotencyKey: null,
            now: new Date(),
          });
          booked++;
        } catch (error) {
          if (error instanceof SlotTakenError) conflicts++;
          else {
            errors++;
            if (errors < 3) console.error(error);
          }
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...stats(latencies), booked, conflicts, errors, perSecond: booked / seconds, seconds };
}

/** (d) the search query in process, plain and with the free-time filter, distinct queries. */
async function searchInProcess(handle: DatabaseHandle) {
  const now = new Date();
  const today = toLocal(now, ZONE).date;
  const plain = DISTINCT_SEARCHES.slice(0, 200);
  const filtered = freeTimeSearches(today).slice(0, 200);
  const time = async (paths: string[]) => {
    for (const path of paths.slice(0, 20))
      await searchSalons(
        handle.db,
        parseSearchQuery(new URL(path, "http://x").searchParams),
        undefined,
        now,
      );
    const samples: number[] = [];
    let found = 0;
    for (const path of paths) {
      const query = parseSearchQuery(new URL(path, "http://x").searchParams);
      const started = performance.now();
      const result = await searchSalons(handle.db, query, undefined, now);
      samples.push(performance.now() - started);
      found += result.total;
    }
    return { ...stats(samples), meanTotal: found / paths.length };
  };
  return { plain: await time(plain), filtered: await time(filtered) };
}

type Http = {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
};

async function measureHttp(
  engine: Engine,
  salon: Salon,
  today: string,
): Promise<{ rows: Http[]; notes: string[] }> {
  const server = await startServer(engine.url);
  const base = `http://127.0.0.1:${PORT}`;
  const notes: string[] = [];
  try {
    const targets: { label: string; paths: string[] }[] = [];
    // (a) over HTTP, when the branch that adds it is merged.
    const menuParam = `menus=${salon.menuId}`;
    const candidates = [
      {
        label: "availability API, 14 days",
        path: `/api/salons/${salon.id}/availability?from=${today}&to=${addDays(today, 13)}&${menuParam}`,
      },
      {
        label: "booking page (confirm)",
        path: `/salons/${salon.slug}/confirm?menu=${salon.menuId}&date=${addDays(today, 1)}`,
      },
    ];
    for (const candidate of candidates) {
      const response = await fetch(base + candidate.path);
      await response.arrayBuffer();
      if (response.status === 200)
        targets.push({ label: candidate.label, paths: [candidate.path] });
      else
        notes.push(
          `${candidate.label}: ${candidate.path.split("?")[0]} answered ${response.status}, not measured`,
        );
    }
    targets.push({ label: "search, distinct queries", paths: DISTINCT_SEARCHES });
    targets.push({ label: "search + free time, distinct", paths: freeTimeSearches(today) });
    const rows: Http[] = [];
    for (const target of targets) {
      const check = await fetch(base + target.paths[0]);
      await check.arrayBuffer();
      if (check.status !== 200) throw new Error(`${target.paths[0]} answered ${check.status}`);
      let next = 0;
      const requests =
        target.paths.length > 1
          ? [
              {
                setupRequest: (request: autocannon.Request) => ({
                  ...request,
                  path: target.paths[next++ % target.paths.length],
                }),
              },
            ]
          : undefined;
      await autocannon({
        url: base + target.paths[0],
        connections: CONNECTIONS,
        duration: 2,
        requests,
      });
      const result = await autocannon({
        url: base + target.paths[0],
        connections: CONNECTIONS,
        duration: SECONDS,
        requests,
      });
      rows.push({
        label: target.label,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        // Timeouts and socket errors; non-2xx apart (a search past its last page redirects).
        errors: result.errors,
        non2xx: result.non2xx,
      });
    }
    return { rows, notes };
  } finally {
    await stopServer(server);
  }
}

async function main() {
  const built = existsSync("build/server/index.js");
  if (!built) console.log("build/ がありません: HTTP の計測を省きます (先に npm run build)。\n");
  const engines: Engine[] = [];
  if (process.env.BENCH_ENGINES !== "postgres") engines.push(await pgliteEngine());
  const postgres = process.env.BENCH_ENGINES === "pglite" ? null : await postgresEngine();
  if (postgres) engines.push(postgres);
  else console.log(`PostgreSQL (${redact(POSTGRES_URL)}) not used: PGlite only.\n`);

  for (const engine of engines) {
    console.log(`=== ${engine.name} ===`);
    const handle = await openDatabase(engine.url);
    await handle.migrate();
    let started = performance.now();
    await seedDatabase(handle.db, { salonCount: SALONS });
    await handle.db.execute(sql`analyze`);
    console.log(
      `seeded ${SALONS} salons (with bookings and the free-time summary) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const [target, raceSalon, ...pool] = await plainSalons(handle.db, WORKERS + 2);
    if (!target || !raceSalon || pool.length < WORKERS) throw new Error("not enough salons");
    const today = toLocal(new Date(), ZONE).date;

    const a = await availabilityInProcess(handle, target);
    console.log(
      `(a) availability, 1 salon × 14 days, loader + engine in process (${RUNS} runs after ${WARMUP}): p50 ${ms(a.p50)} ms, p99 ${ms(a.p99)} ms, mean ${ms(a.mean)} ms (${a.slots} free starts); of which the engine p50 ${ms(a.engine.p50)} ms, p99 ${ms(a.engine.p99)} ms`,
    );
    const b = await race(handle, raceSalon);
    console.log(
      `(b) race, in process (holdSlot through the pool): ${RACERS} clients, ${RACE_SLOTS} slots: accepted ${b.accepted}, conflicts (409) ${b.conflicts}, errors ${b.errors}, held rows ${b.held}; p50 ${ms(b.p50)} ms, p99 ${ms(b.p99)} ms, all done in ${ms(b.wall)} ms`,
    );
    const c = await sustained(handle, pool);
    console.log(
      `(c) sustained hold + confirm, ${WORKERS} workers on distinct salons and slots, ${c.seconds.toFixed(1)} s: ${c.booked} bookings = ${c.perSecond.toFixed(1)}/s, conflicts ${c.conflicts}, errors ${c.errors}; p50 ${ms(c.p50)} ms, p99 ${ms(c.p99)} ms`,
    );
    const d = await searchInProcess(handle);
    console.log(
      `(d) search query in process, 200 distinct each: plain p50 ${ms(d.plain.p50)} / p99 ${ms(d.plain.p99)} ms (mean ${d.plain.meanTotal.toFixed(0)} hits); free-time filter p50 ${ms(d.filtered.p50)} / p99 ${ms(d.filtered.p99)} ms (mean ${d.filtered.meanTotal.toFixed(0)} hits)`,
    );
    await handle.close();

    if (built) {
      started = performance.now();
      const http = await measureHttp(engine, target, today);
      console.log(`\nHTTP, ${CONNECTIONS} connections, ${SECONDS} s each:`);
      console.log("  target                          req/s   p50 ms   p99 ms  errors  non-2xx");
      for (const row of http.rows) {
        console.log(
          `  ${row.label.padEnd(30)} ${row.rps.toFixed(0).padStart(7)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${String(row.errors).padStart(7)} ${String(row.non2xx).padStart(8)}`,
        );
      }
      for (const note of http.notes) console.log(`  ${note}`);
    }
    console.log("");
  }
}

try {
  await main();
} finally {
  await cleanUp();
}
