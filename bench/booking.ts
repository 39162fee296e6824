import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { and, eq, inArray, sql } from "drizzle-orm";
import { addDays, toLocal } from "../common/local-time";
import { parseSearchQuery } from "../common/search.schema";
import { databaseRateLimitStore } from "../server/accounts/rate-limit";
import { findAvailability } from "../server/bookings/availability";
import { loadAvailabilityInput } from "../server/bookings/availability-data.server";
import { type BookingClient, confirmBooking, holdSlot } from "../server/bookings/booking.server";
import { SlotTakenError } from "../server/bookings/booking-errors";
import { type DatabaseHandle, openDatabase } from "../server/db/client";
import { bookings, sessions, users } from "../server/db/schema";
import { seedDatabase } from "../server/db/seed/seed";
import { searchSalons } from "../server/salons/search";
import {
  cleanUp,
  copyOf,
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
 * `npm run bench:booking [-- --salons N --seconds N --engines pglite|postgres]`
 * (after `npm run build`): for PGlite and, when reachable, PostgreSQL (a
 * throwaway database), seeds N (10,000) demo salons with their bookings and
 * free-time summary, then measures
 * (a) availability of one salon (given a year of past bookings) over 14
 *     days: loader + engine in process,
 *     and GET /api/salons/{id}/availability over HTTP;
 * (b) 200 concurrent clients racing for the same 20 slots, in process
 *     (holdSlot) and over HTTP (POST /api/holds, then POST /api/bookings for
 *     the winners, each client its own account): exactly 20 accepted;
 * (c) sustained bookings (hold + confirm) per second on distinct slots, in
 *     process and over HTTP;
 * (d) the search with the free-time filter beside the plain search: the
 *     query in process and the page over HTTP with distinct queries.
 * `--only-c` measures (c) alone (in process, then over HTTP) and prints the ratio.
 * It ends with a markdown table of both engines, ready for bench/README.md.
 * Everything it creates is removed at the end.
 */
const { values: args } = parseArgs({
  options: {
    salons: { type: "string" },
    seconds: { type: "string" },
    engines: { type: "string" },
    // Seed once, measure many times: a kept PGlite directory / PostgreSQL database.
    "keep-pglite": { type: "string" },
    "keep-postgres": { type: "string" },
    // Only the in-process availability measure (a): a quick re-run on kept data.
    "only-a": { type: "boolean" },
    // Only the sustained bookings (c), in process and over HTTP, and their ratio.
    "only-c": { type: "boolean" },
  },
});
const KEEP_PGLITE = args["keep-pglite"] ?? process.env.BENCH_KEEP_PGLITE;
const KEEP_POSTGRES = args["keep-postgres"] ?? process.env.BENCH_KEEP_POSTGRES;
const ONLY_A = args["only-a"] === true;
const ONLY_C = args["only-c"] === true;
const SALONS = Number(args.salons ?? process.env.BENCH_SALONS ?? 10_000);
const SECONDS = Number(args.seconds ?? process.env.BENCH_SECONDS ?? 10);
const ENGINES = args.engines ?? process.env.BENCH_ENGINES ?? "both";
const CONNECTIONS = 50;
const RUNS = 1000;
// A server in service has long warmed up: the first ~1,500 calls after a start
// still run while V8 tiers up the JavaScript and (on PGlite) the WebAssembly,
// and with PGlite in its worker thread (decision 0025) that takes longer
// (bench/README.md, "PGlite in a worker thread and (a)").
const WARMUP = 1500;
const RACERS = 200;
const RACE_SLOTS = 20;
const WORKERS = 10;
const ZONE = "Asia/Tokyo";
const CONTACT = {
  name: "負荷 太郎",
  kana: "フカ タロウ",
  phone: "09000000000",
  email: "bench@example.jp",
};

type Stats = { p50: number; p99: number; mean: number; n: number };
function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((sum, v) => sum + v, 0) / Math.max(1, sorted.length);
  return { p50: at(0.5), p99: at(0.99), mean, n: sorted.length };
}
const ms = (value: number) => value.toFixed(2);
const num = (value: number, digits = 0) =>
  value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(", ");

type Salon = { id: string; slug: string; menuId: string };

/**
 * holdSlot and confirmBooking count every attempt (one upsert each, as in
 * production); the limits are set out of reach so the bench measures them.
 */
function benchClient(handle: DatabaseHandle): BookingClient {
  return {
    ip: "198.51.100.1",
    limits: {
      store: databaseRateLimitStore(handle.db),
      window: 60,
      perIp: 1_000_000,
      perAccount: 1_000_000,
      liveHolds: { perAccount: 1_000_000, perBrowser: 1_000_000, perGuestIp: 1_000_000 },
    },
  };
}

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
  const list = (rows as unknown as { rows: Record<string, string>[] }).rows;
  return list.map((row) => ({
    id: String(row.id),
    slug: String(row.slug),
    menuId: String(row.menu_id),
  }));
}

async function salonCount(handle: DatabaseHandle) {
  const rows = await handle.db.execute(sql`select count(*)::int as n from salons`);
  return Number((rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/**
 * A year of finished bookings for every stylist of the salon (six a day),
 * as a salon in service has and the seed (future bookings only) does not:
 * the availability statement must not read them (migration 0015). Kept
 * data gets them once.
 */
async function giveHistory(handle: DatabaseHandle, salon: Salon) {
  await handle.db.execute(sql`
    insert into bookings (salon_id, staff_id, starts_at, ends_at, occupied_until, total_price,
      status, booking_number, customer_name)
    select t.salon_id, t.id, d + make_interval(hours => h), d + make_interval(hours => h, mins => 50),
      d + make_interval(hours => h, mins => 50), 5000, 'completed',
      upper(substr(md5(t.id::text || d::text || h::text), 1, 4) || '-' ||
        substr(md5(d::text || t.id::text || h::text), 1, 4)),
      '履歴 花子'
    from staff t join salons s on s.id = t.salon_id,
      generate_series(((current_date - 366)::timestamp at time zone s.time_zone),
        ((current_date - 3)::timestamp at time zone s.time_zone), interval '1 day') d,
      generate_series(10, 15) h
    where t.salon_id = ${salon.id} and t.active
      and not exists (select 1 from bookings b where b.salon_id = ${salon.id}
        and b.starts_at < now() - interval '2 days')`);
  await handle.db.execute(sql`analyze bookings`);
  const rows = await handle.db.execute(sql`
    select count(*)::int as n from bookings where salon_id = ${salon.id} and starts_at < now()`);
  return Number((rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/** (a) loader + engine for one salon over 14 days, in process. */
async function availabilityInProcess(handle: DatabaseHandle, salon: Salon) {
  const now = new Date();
  const today = toLocal(now, ZONE).date;
  const engineSamples: number[] = [];
  const loaderSamples: number[] = [];
  const run = async () => {
    const started = performance.now();
    const loaded = await loadAvailabilityInput(handle.db, {
      salonId: salon.id,
      menuIds: [salon.menuId],
      staffId: null,
      from: today,
      to: addDays(today, 13),
      now,
    });
    const loadedAt = performance.now();
    loaderSamples.push(loadedAt - started);
    const days = findAvailability(loaded.input);
    engineSamples.push(performance.now() - loadedAt);
    return days;
  };
  for (let i = 0; i < WARMUP; i++) await run();
  engineSamples.length = 0;
  loaderSamples.length = 0;
  const samples: number[] = [];
  let slots = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const days = await run();
    samples.push(performance.now() - started);
    slots = days.reduce((sum, day) => sum + day.slots.length, 0);
  }
  return { ...stats(samples), engine: stats(engineSamples), loader: stats(loaderSamples), slots };
}

/** Non-overlapping free starts of one stylist (or 指名なし) from `from` on, up to `count`. */
async function distinctStarts(
  handle: DatabaseHandle,
  salon: Salon,
  staffId: string | null,
  from: string,
  count: number,
) {
  const loaded = await loadAvailabilityInput(handle.db, {
    salonId: salon.id,
    menuIds: [salon.menuId],
    staffId,
    from,
    to: addDays(from, 20),
    now: new Date(),
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

/** RACE_SLOTS non-overlapping starts of one stylist of the salon, `daysAhead` from today. */
async function raceSlots(handle: DatabaseHandle, salon: Salon, daysAhead: number) {
  const from = addDays(toLocal(new Date(), ZONE).date, daysAhead);
  const { staff } = await distinctStarts(handle, salon, null, from, 1);
  const stylist = staff[0]?.id;
  if (!stylist) throw new Error("no stylist to race for");
  const { starts } = await distinctStarts(handle, salon, stylist, from, RACE_SLOTS);
  if (starts.length < RACE_SLOTS) throw new Error(`only ${starts.length} slots to race for`);
  return { stylist, starts };
}

async function rowsOn(handle: DatabaseHandle, salon: Salon, starts: Date[]) {
  return handle.db.$count(
    bookings,
    and(eq(bookings.salonId, salon.id), inArray(bookings.startsAt, starts)),
  );
}

/** (b) RACERS concurrent holds on RACE_SLOTS slots of one stylist, in process. */
async function race(handle: DatabaseHandle, salon: Salon) {
  const { stylist, starts } = await raceSlots(handle, salon, 20);
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
          ...benchClient(handle),
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
          if (errors < 3) console.error(error);
        }
      } finally {
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  const held = await rowsOn(handle, salon, starts);
  return { ...stats(latencies), accepted, conflicts, errors, held, wall };
}

/** Accounts signed in with a bearer token each (sessions written directly: no sign-up limit). */
async function benchAccounts(handle: DatabaseHandle, count: number, label: string) {
  const accounts = Array.from({ length: count }, (_, i) => ({
    id: `bench-${label}-${i}-${randomUUID()}`,
    token: randomBytes(24).toString("base64url"),
  }));
  await handle.db.insert(users).values(
    accounts.map(({ id }) => ({
      id,
      name: CONTACT.name,
      email: `${id}@example.jp`,
      emailVerified: true,
    })),
  );
  await handle.db.insert(sessions).values(
    accounts.map(({ id, token }) => ({
      id: randomUUID(),
      userId: id,
      token,
      expiresAt: new Date(Date.now() + 24 * 3600_000),
    })),
  );
  return accounts;
}

type Queue = { salon: Salon; starts: Date[] };

/** WORKERS salons with up to 500 distinct 指名なし starts each, 30 days ahead. */
async function workerQueues(handle: DatabaseHandle, pool: Salon[], daysAhead: number) {
  const from = addDays(toLocal(new Date(), ZONE).date, daysAhead);
  return Promise.all(
    pool.slice(0, WORKERS).map(async (salon): Promise<Queue> => {
      const { starts } = await distinctStarts(handle, salon, null, from, 500);
      return { salon, starts };
    }),
  );
}

/** (c) WORKERS loops of hold + confirm on distinct salons and slots for SECONDS, in process. */
async function sustained(handle: DatabaseHandle, queues: Queue[]) {
  const accounts = await benchAccounts(handle, WORKERS, "sustained");
  const client = benchClient(handle);
  return sustainedLoop(queues, async ({ salon }, start, w) => {
    const userId = (accounts[w] as { id: string }).id;
    try {
      const hold = await holdSlot(handle.db, {
        ...client,
        salonId: salon.id,
        menuIds: [salon.menuId],
        staffId: null,
        start,
        userId,
        now: new Date(),
      });
      await confirmBooking(handle.db, {
        ...client,
        holdId: hold.id,
        userId,
        customer: CONTACT,
        notes: "",
        idempotencyKey: null,
        now: new Date(),
      });
      return "booked";
    } catch (error) {
      if (error instanceof SlotTakenError) return "conflict";
      throw error;
    }
  });
}

type Outcome = "booked" | "conflict";
type Sustained = Awaited<ReturnType<typeof sustainedLoop>>;
async function sustainedLoop(
  queues: Queue[],
  book: (queue: Queue, start: Date, worker: number) => Promise<Outcome>,
) {
  const latencies: number[] = [];
  let booked = 0;
  let conflicts = 0;
  let errors = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    queues.map(async (queue, w) => {
      for (const start of queue.starts) {
        if (performance.now() > deadline) return;
        const t = performance.now();
        try {
          if ((await book(queue, start, w)) === "booked") booked++;
          else conflicts++;
        } catch (error) {
          errors++;
          if (errors < 3) console.error(error);
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

const base = `http://127.0.0.1:${PORT}`;

async function autocannonRow(label: string, paths: string[]): Promise<Http> {
  const check = await fetch(base + paths[0]);
  await check.arrayBuffer();
  if (check.status !== 200) throw new Error(`${paths[0]} answered ${check.status}`);
  let next = 0;
  const requests =
    paths.length > 1
      ? [
          {
            setupRequest: (request: autocannon.Request) => ({
              ...request,
              path: paths[next++ % paths.length],
            }),
          },
        ]
      : undefined;
  const options = { url: base + paths[0], connections: CONNECTIONS, requests };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: SECONDS });
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // Timeouts and socket errors; non-2xx apart (a search past its last page redirects).
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function post(token: string, path: string, body: unknown) {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as {
    data?: { id: string };
    error?: { code: string; message: string };
  };
  return { status: response.status, json };
}

type HttpOutcome = { outcome: "booked" | "conflict" | "error"; detail?: string };

/** One visitor through the API: hold the time, then book it. A lost race is a 409. */
async function bookOverHttp(
  token: string,
  salon: Salon,
  staffId: string | null,
  start: Date,
): Promise<HttpOutcome> {
  const hold = await post(token, "/api/holds", {
    salonId: salon.id,
    menuIds: [salon.menuId],
    staffId,
    start: start.toISOString(),
  });
  if (hold.status === 409) return { outcome: "conflict" };
  if (hold.status !== 201 || !hold.json.data)
    return { outcome: "error", detail: `hold ${hold.status} ${JSON.stringify(hold.json)}` };
  const booking = await post(token, "/api/bookings", {
    holdId: hold.json.data.id,
    contact: CONTACT,
  });
  if (booking.status === 201) return { outcome: "booked" };
  return { outcome: "error", detail: `booking ${booking.status} ${JSON.stringify(booking.json)}` };
}

type RacePlan = { salon: Salon; stylist: string; starts: Date[]; tokens: string[] };

/** (b) over HTTP: RACERS clients, each its own account, at once on RACE_SLOTS slots. */
async function raceOverHttp(plan: RacePlan) {
  const latencies: number[] = [];
  let accepted = 0;
  let conflicts = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    plan.tokens.map(async (token, i) => {
      const t = performance.now();
      try {
        const result = await bookOverHttp(
          token,
          plan.salon,
          plan.stylist,
          plan.starts[i % RACE_SLOTS] as Date,
        );
        if (result.outcome === "booked") accepted++;
        else if (result.outcome === "conflict") conflicts++;
        else {
          errors++;
          if (errors < 3) console.error(result.detail);
        }
      } catch (error) {
        errors++;
        if (errors < 3) console.error(error);
      } finally {
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { ...stats(latencies), accepted, conflicts, errors, wall: performance.now() - started };
}

/** (c) over HTTP: WORKERS clients, each its own account, hold + book in a loop. */
function steadyOverHttp(queues: Queue[], tokens: string[]) {
  return sustainedLoop(queues, async ({ salon: target }, start, w) => {
    const result = await bookOverHttp(tokens[w] as string, target, null, start);
    if (result.outcome === "error") throw new Error(result.detail);
    return result.outcome;
  });
}

/** CPU time (user + system, every thread) of a process so far, ms, from /proc (Linux). */
function processCpuMs(pid: number): number {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0; // gone
  }
}
const CLOCK_TICKS = 100;

/** The PostgreSQL server's backends serving this database (their title names it). */
function backendsOf(engine: Engine): number[] {
  if (engine.name !== "postgres") return [];
  const database = new URL(engine.url).pathname.slice(1);
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (title.startsWith("postgres: ") && title.split(" ").includes(database))
        pids.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

/**
 * CPU spent on a phase, ms: the given processes (this one through
 * process.cpuUsage) and the database's backends, new ones counted from 0.
 * On a machine others load too, the rate of bookings a second follows the
 * CPU each booking costs and the CPU left over; the cost is the steadier figure.
 */
async function cpuOf<T>(engine: Engine, pids: number[], phase: () => Promise<T>) {
  const self = process.cpuUsage();
  const before = new Map([...pids, ...backendsOf(engine)].map((pid) => [pid, processCpuMs(pid)]));
  const result = await phase();
  const own = process.cpuUsage(self);
  const node = (own.user + own.system) / 1000;
  let server = 0;
  for (const pid of pids) server += processCpuMs(pid) - (before.get(pid) ?? 0);
  let database = 0;
  for (const pid of backendsOf(engine)) database += processCpuMs(pid) - (before.get(pid) ?? 0);
  return { result, cpu: { bench: node, server, database } };
}
type Cpu = Awaited<ReturnType<typeof cpuOf>>["cpu"];

/**
 * Bookings per worker before the timed window of `--only-c`, on both paths: a
 * freshly started server loads the modules of its first requests and V8 has
 * not compiled their code yet, as the bench process, which seeded, has
 * (bench/README.md, "bookings over HTTP ÷ in process").
 */
const WARM_UP = 3;
function warmUpSplit(queues: Queue[]): [Queue[], Queue[]] {
  return [
    queues.map((q) => ({ ...q, starts: q.starts.slice(0, WARM_UP) })),
    queues.map((q) => ({ ...q, starts: q.starts.slice(WARM_UP) })),
  ];
}

/** `--only-c`: (c) in process, then over HTTP on other salons, and the ratio of the two. */
async function onlyC(
  handle: DatabaseHandle,
  engine: Engine,
  pool: Salon[],
  built: boolean,
): Promise<{ inProcess: Sustained & { cpu: Cpu }; http: (Sustained & { cpu: Cpu }) | null }> {
  const [warm, queues] = warmUpSplit(await workerQueues(handle, pool.slice(0, WORKERS), 30));
  await sustained(handle, warm);
  const measured = await cpuOf(engine, [], () => sustained(handle, queues));
  const inProcess = { ...measured.result, cpu: measured.cpu };
  if (!built) {
    await handle.close();
    return { inProcess, http: null };
  }
  const [httpWarm, httpQueues] = warmUpSplit(
    await workerQueues(handle, pool.slice(WORKERS, 2 * WORKERS), 30),
  );
  const tokens = (await benchAccounts(handle, WORKERS, "http")).map((account) => account.token);
  await handle.close();
  const server = await startServer(engine.url, {
    BOOKING_RATE_LIMIT_PER_IP: "1000000",
    BOOKING_RATE_LIMIT_PER_ACCOUNT: "1000000",
  });
  try {
    const pids = server.pid ? [server.pid] : [];
    await steadyOverHttp(httpWarm, tokens);
    await settled(engine, pids);
    const http = await cpuOf(engine, pids, async () => {
      const result = await steadyOverHttp(httpQueues, tokens);
      // The confirmation mails of these bookings are work they cost too.
      await settled(engine, pids);
      return result;
    });
    return { inProcess, http: { ...http.result, cpu: http.cpu } };
  } finally {
    await stopServer(server);
  }
}

/**
 * Waits until the server has run the jobs the bookings so far enqueued (each
 * booking's confirmation mail): a pass of its job worker starts at most 5 s
 * after the last (server/jobs/queue.server.ts) and goes on without a pause
 * while it finds full batches, so after 5.5 s the server and the database
 * are done when they have been idle for half a second. Over HTTP the CPU
 * per booking counts this work: without it, the window's figure depended on
 * how far the worker lagged behind when the window closed (bench/README.md,
 * issue 42).
 */
async function settled(engine: Engine, pids: number[]) {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const busy = () => {
    let sum = 0;
    for (const pid of [...pids, ...backendsOf(engine)]) sum += processCpuMs(pid);
    return sum;
  };
  await sleep(5500);
  for (let i = 0; i < 40; i++) {
    const before = busy();
    await sleep(500);
    if (busy() - before < 20) return;
  }
}

/** CPU ms per booking: the whole, and its parts. */
function cpuPerBooking(r: Sustained & { cpu: Cpu }) {
  const per = (v: number) => v / Math.max(r.booked, 1);
  const { bench, server, database } = r.cpu;
  return {
    total: per(bench + server + database),
    line: `CPU per booking ${per(bench + server + database).toFixed(1)} ms (bench process ${per(bench).toFixed(1)}, server ${per(server).toFixed(1)}, PostgreSQL backends ${per(database).toFixed(1)})`,
  };
}

async function measureHttp(
  engine: Engine,
  salon: Salon,
  today: string,
  racePlan: RacePlan,
  queues: Queue[],
  tokens: string[],
) {
  const server = await startServer(engine.url, {
    // 200 racers and 10 busy workers come from one address: the per-IP and
    // per-account booking limits would turn most of them away with 429.
    BOOKING_RATE_LIMIT_PER_IP: "1000000",
    BOOKING_RATE_LIMIT_PER_ACCOUNT: "1000000",
  });
  try {
    const availability = await autocannonRow("availability API, 14 days", [
      `/api/salons/${salon.id}/availability?from=${today}&to=${addDays(today, 13)}&menus=${salon.menuId}`,
    ]);
    const raced = await raceOverHttp(racePlan);
    const steady = await steadyOverHttp(queues, tokens);
    const plain = await autocannonRow("search, distinct queries", DISTINCT_SEARCHES);
    const filtered = await autocannonRow("search + free time, distinct", freeTimeSearches(today));
    return { availability, raced, steady, plain, filtered };
  } finally {
    await stopServer(server);
  }
}

type Results = Record<string, Record<string, string>>;

function markdownTable(results: Results, engines: string[]) {
  const rows = Object.entries(results);
  const header = ["measure", ...engines];
  const lines = [
    `| ${header.join(" | ")} |`,
    `| --- | ${engines.map(() => "---:").join(" | ")} |`,
    ...rows.map(([measure, byEngine]) => {
      return `| ${measure} | ${engines.map((engine) => byEngine[engine] ?? "–").join(" | ")} |`;
    }),
  ];
  return lines.join("\n");
}

async function main() {
  const built = existsSync("build/server/index.js");
  if (!built) console.log("build/ がありません: HTTP の計測を省きます (先に npm run build)。\n");
  const engines: Engine[] = [];
  if (ENGINES !== "postgres") engines.push(await pgliteEngine(KEEP_PGLITE));
  const postgres = ENGINES === "pglite" ? null : await postgresEngine(KEEP_POSTGRES);
  if (postgres) engines.push(postgres);
  else console.log(`PostgreSQL (${redact(POSTGRES_URL)}) not used: PGlite only.\n`);
  const startedAt = new Date();
  const loadAtStart = load();
  console.log(`load average at start: ${loadAtStart} (${startedAt.toISOString()})`);

  const results: Results = {};
  const put = (measure: string, engine: string, value: string) => {
    results[measure] ??= {};
    (results[measure] as Record<string, string>)[engine] = value;
  };
  const loads: string[] = [];

  for (let engine of engines) {
    const name = engine.name === "pglite" ? "PGlite" : "PostgreSQL";
    console.log(`=== ${engine.name} ===`);
    let handle = await openDatabase(engine.url);
    await handle.migrate();
    const started = performance.now();
    const kept = await salonCount(handle);
    if (kept >= SALONS) {
      console.log(`reusing the kept data: ${kept} salons (seeded earlier)`);
    } else {
      await seedDatabase(handle.db, { salonCount: SALONS });
      await handle.db.execute(sql`analyze`);
      const seedSeconds = (performance.now() - started) / 1000;
      console.log(
        `seeded ${SALONS} salons (with bookings and the free-time summary) in ${seedSeconds.toFixed(1)} s`,
      );
      put("seed: salons with bookings and the free-time summary, s", name, num(seedSeconds));
    }
    const keptAt = engine.name === "pglite" ? KEEP_PGLITE : KEEP_POSTGRES;
    if (keptAt && !ONLY_A) {
      // The kept data is a template: this run books on a copy of it.
      await handle.close();
      engine = await copyOf(engine);
      handle = await openDatabase(engine.url);
    }
    const [target, raceSalon, httpRaceSalon, ...pool] = await plainSalons(
      handle.db,
      2 * WORKERS + 3,
    );
    if (!target || !raceSalon || !httpRaceSalon || pool.length < 2 * WORKERS)
      throw new Error("not enough salons: use a larger --salons");
    const today = toLocal(new Date(), ZONE).date;

    if (ONLY_C) {
      const { inProcess: c, http } = await onlyC(handle, engine, pool, built);
      const line = (label: string, r: Sustained & { cpu: Cpu }) =>
        `(c) ${label}, ${WORKERS} workers, ${r.seconds.toFixed(1)} s: ${r.booked} bookings = ${r.perSecond.toFixed(1)}/s, conflicts ${r.conflicts}, errors ${r.errors}; p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms; ${cpuPerBooking(r).line}`;
      console.log(line("in process", c));
      put(
        `(c) in process, ${WORKERS} workers: bookings/s (p50 / p99 ms, errors)`,
        name,
        `${c.perSecond.toFixed(1)} (${num(c.p50)} / ${num(c.p99)}, ${c.errors})`,
      );
      if (http) {
        const ratio = (http.perSecond / Math.max(c.perSecond, 0.01)).toFixed(2);
        console.log(line("over HTTP", http));
        const cpuRatio = (
          cpuPerBooking(c).total / Math.max(cpuPerBooking(http).total, 0.01)
        ).toFixed(2);
        console.log(
          `(c) ratio over HTTP / in process: ${ratio}; of CPU per booking, in process / over HTTP: ${cpuRatio}`,
        );
        put(
          `(c) over HTTP, ${WORKERS} clients: bookings/s (p50 / p99 ms, errors)`,
          name,
          `${http.perSecond.toFixed(1)} (${num(http.p50)} / ${num(http.p99)}, ${http.errors})`,
        );
        put("(c) ratio over HTTP / in process", name, `**${ratio}**`);
        put(
          "(c) CPU per booking, ms: in process / over HTTP (ratio)",
          name,
          `${cpuPerBooking(c).total.toFixed(1)} / ${cpuPerBooking(http).total.toFixed(1)} (${cpuRatio})`,
        );
      }
      loads.push(`${name} ${load()}`);
      continue;
    }

    const history = await giveHistory(handle, target);
    const a = await availabilityInProcess(handle, target);
    console.log(
      `(a) availability, 1 salon (${history} past bookings) × 14 days, loader + engine in process (${RUNS} runs after ${WARMUP}): p50 ${ms(a.p50)} ms, p99 ${ms(a.p99)} ms, mean ${ms(a.mean)} ms (${a.slots} free starts); loader p50 ${ms(a.loader.p50)} / p99 ${ms(a.loader.p99)} ms; engine p50 ${ms(a.engine.p50)} / p99 ${ms(a.engine.p99)} ms`,
    );
    put("(a) in process, loader + engine, p50 / p99 ms", name, `${ms(a.p50)} / ${ms(a.p99)}`);
    put(
      "(a) of which the loader (one statement), p50 / p99 ms",
      name,
      `${ms(a.loader.p50)} / ${ms(a.loader.p99)}`,
    );
    put("(a) of which the engine, p50 / p99 ms", name, `${ms(a.engine.p50)} / ${ms(a.engine.p99)}`);
    if (ONLY_A) {
      await handle.close();
      loads.push(`${name} ${load()}`);
      continue;
    }

    const b = await race(handle, raceSalon);
    console.log(
      `(b) race, in process (holdSlot): ${RACERS} clients, ${RACE_SLOTS} slots: accepted ${b.accepted}, conflicts (409) ${b.conflicts}, errors ${b.errors}, held rows ${b.held}; p50 ${ms(b.p50)} ms, p99 ${ms(b.p99)} ms, all done in ${ms(b.wall)} ms`,
    );
    put(
      `(b) in process: ${RACERS} holds on ${RACE_SLOTS} slots, accepted / lost / errors (rows)`,
      name,
      `${b.accepted} / ${b.conflicts} / ${b.errors} (${b.held})`,
    );
    put("(b) in process, per attempt p50 / p99 ms", name, `${num(b.p50)} / ${num(b.p99)}`);

    const inProcessQueues = await workerQueues(handle, pool.slice(0, WORKERS), 30);
    const c = await sustained(handle, inProcessQueues);
    console.log(
      `(c) sustained hold + confirm in process, ${WORKERS} workers on distinct salons and slots, ${c.seconds.toFixed(1)} s: ${c.booked} bookings = ${c.perSecond.toFixed(1)}/s, conflicts ${c.conflicts}, errors ${c.errors}; p50 ${ms(c.p50)} ms, p99 ${ms(c.p99)} ms`,
    );
    put(
      `(c) in process, ${WORKERS} workers: bookings/s (p50 / p99 ms, errors)`,
      name,
      `${c.perSecond.toFixed(1)} (${num(c.p50)} / ${num(c.p99)}, ${c.errors})`,
    );

    const d = await searchInProcess(handle);
    console.log(
      `(d) search query in process, 200 distinct each: plain p50 ${ms(d.plain.p50)} / p99 ${ms(d.plain.p99)} ms (mean ${d.plain.meanTotal.toFixed(0)} hits); free-time filter p50 ${ms(d.filtered.p50)} / p99 ${ms(d.filtered.p99)} ms (mean ${d.filtered.meanTotal.toFixed(0)} hits)`,
    );
    put(
      "(d) search in process, plain, p50 / p99 ms",
      name,
      `${ms(d.plain.p50)} / ${ms(d.plain.p99)}`,
    );
    put(
      "(d) search in process, free-time filter, p50 / p99 ms",
      name,
      `${ms(d.filtered.p50)} / ${ms(d.filtered.p99)}`,
    );
    put(
      "(d) ratio free-time / plain in process, p50 / p99",
      name,
      `${(d.filtered.p50 / d.plain.p50).toFixed(2)} / ${(d.filtered.p99 / d.plain.p99).toFixed(2)}`,
    );

    if (built) {
      // Prepared before the server opens the database (PGlite allows one process).
      const racePlan: RacePlan = {
        salon: httpRaceSalon,
        ...(await raceSlots(handle, httpRaceSalon, 20)),
        tokens: (await benchAccounts(handle, RACERS, "race")).map((account) => account.token),
      };
      const httpQueues = await workerQueues(handle, pool.slice(WORKERS, 2 * WORKERS), 30);
      const tokens = (await benchAccounts(handle, WORKERS, "http")).map((account) => account.token);
      await handle.close();

      const http = await measureHttp(engine, target, today, racePlan, httpQueues, tokens);
      const check = await openDatabase(engine.url);
      const rows = await rowsOn(check, httpRaceSalon, racePlan.starts);
      await check.close();
      const { availability, raced, steady, plain, filtered } = http;
      console.log(`\nHTTP, ${CONNECTIONS} connections, ${SECONDS} s each:`);
      console.log("  target                          req/s   p50 ms   p99 ms  errors  non-2xx");
      for (const row of [availability, plain, filtered]) {
        console.log(
          `  ${row.label.padEnd(30)} ${row.rps.toFixed(0).padStart(7)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${String(row.errors).padStart(7)} ${String(row.non2xx).padStart(8)}`,
        );
      }
      console.log(
        `(b) race over HTTP (POST /api/holds, then /api/bookings): ${RACERS} clients, ${RACE_SLOTS} slots: accepted ${raced.accepted}, lost (409) ${raced.conflicts}, errors ${raced.errors}, rows ${rows}; p50 ${ms(raced.p50)} ms, p99 ${ms(raced.p99)} ms, all done in ${ms(raced.wall)} ms`,
      );
      console.log(
        `(c) sustained over HTTP, ${WORKERS} clients: ${steady.booked} bookings = ${steady.perSecond.toFixed(1)}/s, conflicts ${steady.conflicts}, errors ${steady.errors}; p50 ${ms(steady.p50)} ms, p99 ${ms(steady.p99)} ms`,
      );
      put(
        "(a) over HTTP, availability API, 50 conn.: req/s, p50 / p99 ms",
        name,
        `${num(availability.rps)}, ${availability.p50} / ${availability.p99}`,
      );
      put(
        "(a) ratio HTTP p99 / in-process p99",
        name,
        (availability.p99 / Math.max(a.p99, 0.01)).toFixed(1),
      );
      put(
        `(b) over HTTP: ${RACERS} clients on ${RACE_SLOTS} slots, accepted / lost (409) / errors (rows)`,
        name,
        `**${raced.accepted} / ${raced.conflicts} / ${raced.errors}** (${rows})`,
      );
      put(
        "(b) over HTTP, per client (hold + book) p50 / p99 ms; all done in s",
        name,
        `${num(raced.p50)} / ${num(raced.p99)}; ${(raced.wall / 1000).toFixed(1)}`,
      );
      put(
        `(c) over HTTP, ${WORKERS} clients: bookings/s (p50 / p99 ms, errors)`,
        name,
        `${steady.perSecond.toFixed(1)} (${num(steady.p50)} / ${num(steady.p99)}, ${steady.errors})`,
      );
      put(
        "(d) search page over HTTP, distinct, plain: req/s, p50 / p99 ms, timeouts",
        name,
        `${num(plain.rps)}, ${num(plain.p50)} / ${num(plain.p99)}, ${plain.errors}`,
      );
      put(
        "(d) the same with the free-time filter",
        name,
        `${num(filtered.rps)}, ${num(filtered.p50)} / ${num(filtered.p99)}, ${filtered.errors}`,
      );
      put(
        "(d) ratio free-time / plain over HTTP: req/s, p99",
        name,
        `${(filtered.rps / Math.max(plain.rps, 0.01)).toFixed(2)}, ${(filtered.p99 / Math.max(plain.p99, 1)).toFixed(2)}`,
      );
    } else {
      await handle.close();
    }
    loads.push(`${name} ${load()}`);
    console.log(`load average after ${engine.name}: ${load()}\n`);
  }

  const names = engines.map((engine) => (engine.name === "pglite" ? "PGlite" : "PostgreSQL"));
  console.log(
    `\n--- markdown for bench/README.md ---\n\n` +
      `bench:booking, ${num(SALONS)} salons, ${SECONDS} s per HTTP measure, ${startedAt.toISOString()} → ${new Date().toISOString()}. ` +
      `Load average (1, 5, 15 min) at the start: ${loadAtStart}; after each engine: ${loads.join("; ")}.\n\n` +
      markdownTable(results, names),
  );
}

try {
  await main();
} finally {
  await cleanUp();
}
