import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import pg from "pg";
import { parseSearchQuery } from "../common/search.schema";
import { type DatabaseHandle, openDatabase } from "../server/db/client";
import { salons } from "../server/db/schema";
import { seedDatabase } from "../server/db/seed/seed";
import { searchSalons } from "../server/salons/search";

/**
 * `npm run bench:search` (after `npm run build`): for PGlite, and for the
 * PostgreSQL server when reachable, seeds 10,000 demo salons, starts the
 * built server on localhost and measures with autocannon (50 connections)
 * the search page, a salon page and a static file of the same size as the
 * salon page, all served by that server in the same run. Then it times the
 * search query itself at 1,000, 10,000 and 100,000 salons. Every database,
 * directory and file it creates is removed when the run ends or fails;
 * Ctrl-C tries the same, but a PGlite write in progress can delay it.
 */
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 3690);
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SEARCH_QUERY = "q=カット&genre=hair&feature=near-station";
const SEARCH_PATH = `/salons/search?${new URLSearchParams(SEARCH_QUERY)}`;
/**
 * Searches a visitor could make, each different, so the page micro-cache
 * (decision 0007) cannot answer them: this is the cost of a cold search.
 */
const DISTINCT_SEARCHES = (() => {
  const paths: string[] = [];
  for (const q of [
    "カット",
    "カラー",
    "パーマ",
    "ネイル",
    "まつげ",
    "ヘッドスパ",
    "縮毛矯正",
    "トリートメント",
  ])
    for (const genre of ["", "hair", "nail", "eyelash", "headspa"])
      for (const feature of ["", "near-station", "private-room", "card-ok"])
        for (const sort of ["", "rating", "price-asc", "price-desc"])
          for (const page of [1, 2, 3]) {
            const params = new URLSearchParams({ q, genre, feature, sort, page: String(page) });
            for (const [name, value] of [...params]) if (!value) params.delete(name);
            paths.push(`/salons/search?${params}`);
          }
  return paths;
})();
const STATIC_NAME = `bench-static-${process.pid}.html`;
// Under assets/, read from disk on each request like the hashed bundles (public/ files are
// listed when the server starts, and this file is written after).
const STATIC_FILE = path.resolve("build/client/assets", STATIC_NAME);

const cleanups: (() => Promise<void>)[] = [];
async function cleanUp() {
  while (cleanups.length > 0)
    await cleanups
      .pop()?.()
      .catch((error) => console.error(error));
}
process.on("SIGINT", () => {
  void cleanUp().then(() => process.exit(130));
});

type Engine = { name: "pglite" | "postgres"; url: string; drop(): Promise<void> };

async function main() {
  if (!existsSync("build/server/index.js")) {
    throw new Error("build/ がありません。先に npm run build を実行してください。");
  }
  const engines: Engine[] = [await pgliteEngine()];
  const postgres = await postgresEngine();
  if (postgres) engines.push(postgres);
  else console.log(`PostgreSQL (${redact(POSTGRES_URL)}) not reachable: PGlite only.\n`);

  for (const engine of engines) {
    console.log(`=== ${engine.name} ===`);
    const growth: [number, Timing][] = [];
    // Seed 1,000, time the query; grow to 10,000, time it again.
    let handle = await openDatabase(engine.url);
    await handle.migrate();
    for (const count of [1_000, 10_000]) {
      const started = performance.now();
      await seedDatabase(handle.db, { salonCount: count });
      await handle.db.execute(sql`analyze`);
      console.log(
        `seeded ${count} salons in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      growth.push([count, await timeQuery(handle)]);
    }
    const detailSlug = await topSalonSlug(handle);
    // PGlite allows one process per data directory: the server opens it next.
    await handle.close();

    const http = await measureHttp(engine, detailSlug);
    printHttp(http);

    handle = await openDatabase(engine.url);
    const started = performance.now();
    await growTo(handle, 100_000);
    console.log(`grew to 100000 salons in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    growth.push([100_000, await timeQuery(handle)]);
    await handle.close();

    console.log(`\nsearch query (${SEARCH_QUERY}), in process, ms:`);
    console.log("  salons    median    p95");
    for (const [count, timing] of growth) {
      console.log(
        `  ${String(count).padStart(7)} ${timing.median.toFixed(2).padStart(8)} ${timing.p95.toFixed(2).padStart(7)}`,
      );
    }
    console.log("");
  }
}

type Timing = { median: number; p95: number };

async function timeQuery(handle: DatabaseHandle): Promise<Timing> {
  const query = parseSearchQuery(new URLSearchParams(SEARCH_QUERY));
  for (let i = 0; i < 5; i++) await searchSalons(handle.db, query);
  const samples: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    await searchSalons(handle.db, query);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[15] ?? 0, p95: samples[28] ?? 0 };
}

async function topSalonSlug(handle: DatabaseHandle) {
  const result = await searchSalons(handle.db, parseSearchQuery(new URLSearchParams()));
  const slug = result.salons[0]?.slug;
  if (!slug) throw new Error("no salon to benchmark");
  return slug;
}

/**
 * Copies the seeded salons (with features and photos, which the search
 * reads) under new ids and slugs until there are `target`; the query
 * only needs realistic rows, not bookings or reviews.
 */
async function growTo(handle: DatabaseHandle, target: number) {
  const db = handle.db;
  const count = () => db.$count(salons);
  const base = await count();
  for (let copy = 1; (await count()) < target; copy++) {
    const limit = Math.min(base, target - (await count()));
    await db.transaction(async (tx) => {
      await tx.execute(
        sql.raw(`create temp table bench_map on commit drop as
        select id as old_id, gen_random_uuid() as new_id from salons
        where slug not like '%-copy-%' order by slug limit ${limit}`),
      );
      await tx.execute(
        sql.raw(`insert into salons (id, slug, name, name_kana, genre, catch_copy,
          description, postal_code, prefecture_code, area_id, station_id, address, access, latitude,
          longitude, phone, regular_holidays, holiday_note, time_zone, price_min,
          price_max, rating_average, review_count, search_text, status)
        select m.new_id, s.slug || '-copy-${copy}', s.name, s.name_kana, s.genre, s.catch_copy,
          s.description, s.postal_code, s.prefecture_code, s.area_id, s.station_id, s.address,
          s.access, s.latitude, s.longitude, s.phone, s.regular_holidays,
          s.holiday_note, s.time_zone, s.price_min, s.price_max, s.rating_average, s.review_count,
          s.search_text, s.status
        from bench_map m join salons s on s.id = m.old_id`),
      );
      await tx.execute(
        sql.raw(`insert into salon_opening_hours (salon_id, weekday, opens, closes)
        select m.new_id, h.weekday, h.opens, h.closes from bench_map m join salon_opening_hours h on h.salon_id = m.old_id`),
      );
      await tx.execute(
        sql.raw(`insert into salon_features (salon_id, feature_slug)
        select m.new_id, f.feature_slug from bench_map m join salon_features f on f.salon_id = m.old_id`),
      );
      await tx.execute(
        sql.raw(`insert into salon_photos (salon_id, url, alt, width, height, sort_order)
        select m.new_id, p.url, p.alt, p.width, p.height, p.sort_order
        from bench_map m join salon_photos p on p.salon_id = m.old_id`),
      );
    });
  }
  await db.execute(sql`analyze`);
}

type Target = { label: string; path: string; next?: () => string };
type HttpFigures = { label: string; rps: number; p50: number; p99: number; errors: number }[];

async function measureHttp(engine: Engine, detailSlug: string): Promise<HttpFigures> {
  const server = await startServer(engine.url);
  try {
    const base = `http://127.0.0.1:${PORT}`;
    const detailPath = `/salons/${detailSlug}`;
    const detailHtml = await (await fetch(base + detailPath)).text();
    await writeFile(STATIC_FILE, detailHtml);
    cleanups.push(() => rm(STATIC_FILE, { force: true }));
    // The same search asked again is answered by the micro-cache: say so, not assume it.
    await (await fetch(base + SEARCH_PATH)).arrayBuffer();
    const again = await fetch(base + SEARCH_PATH);
    await again.arrayBuffer();
    console.log(`search page asked twice: x-cache ${again.headers.get("x-cache") ?? "(none)"}`);
    let nextSearch = 0;
    const targets: Target[] = [
      { label: "search page", path: SEARCH_PATH },
      {
        label: "search, distinct queries",
        path: DISTINCT_SEARCHES[0] ?? SEARCH_PATH,
        next: () => DISTINCT_SEARCHES[nextSearch++ % DISTINCT_SEARCHES.length] ?? SEARCH_PATH,
      },
      { label: "salon page", path: detailPath },
      { label: `static file (${Buffer.byteLength(detailHtml)} B)`, path: `/assets/${STATIC_NAME}` },
    ];
    const figures: HttpFigures = [];
    for (const target of targets) {
      const check = await fetch(base + target.path);
      if (check.status !== 200) throw new Error(`${target.path} answered ${check.status}`);
      await check.arrayBuffer();
      const requests = target.next
        ? [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                path: target.next?.(),
              }),
            },
          ]
        : undefined;
      await autocannon({
        url: base + target.path,
        connections: CONNECTIONS,
        duration: 2,
        requests,
      });
      const result = await autocannon({
        url: base + target.path,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests,
      });
      figures.push({
        label: target.label,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
      });
    }
    return figures;
  } finally {
    await stopServer(server);
  }
}

function printHttp(figures: HttpFigures) {
  console.log(`\nHTTP, ${CONNECTIONS} connections, ${SECONDS} s each:`);
  console.log("  target                          req/s   p50 ms   p99 ms  errors");
  for (const row of figures) {
    console.log(
      `  ${row.label.padEnd(30)} ${row.rps.toFixed(0).padStart(7)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${String(row.errors).padStart(7)}`,
    );
  }
  const staticRow = figures.at(-1);
  if (staticRow) {
    for (const row of figures.slice(0, -1)) {
      console.log(
        `  ${row.label} / static: req/s ${(row.rps / staticRow.rps).toFixed(2)}, p99 ${(row.p99 / Math.max(staticRow.p99, 1)).toFixed(2)}`,
      );
    }
  }
  console.log("");
}

async function startServer(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://localhost:${PORT}`,
      LOG_LEVEL: "error",
      // Production refuses to start without a secret; any throwaway value will do here.
      BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString("hex"),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill("SIGKILL");
  throw new Error("server did not become ready in 60 s");
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

async function pgliteEngine(): Promise<Engine> {
  const dir = await mkdtemp(path.join(tmpdir(), "bench-search-"));
  const drop = () => rm(dir, { recursive: true, force: true });
  cleanups.push(drop);
  return { name: "pglite", url: dir, drop };
}

async function postgresEngine(): Promise<Engine | null> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `bench_${randomUUID().replaceAll("-", "")}`;
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const drop = async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  };
  cleanups.push(drop);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { name: "postgres", url: url.toString(), drop };
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]+@/, "//$1:***@");

try {
  await main();
} finally {
  await cleanUp();
}
