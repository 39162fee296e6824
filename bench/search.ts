import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { toLocal } from "../common/local-time";
import { parseSearchQuery } from "../common/search.schema";
import { type DatabaseHandle, openDatabase } from "../server/db/client";
import { seedDatabase } from "../server/db/seed/seed";
import { SEARCH_COUNT_CAP, searchSalons } from "../server/salons/search";
import { loadSearchPage } from "../server/salons/search-page";
import { ensureSearchTermsCurrent } from "../server/salons/search-terms-state.server";
import { growTo } from "./grow";
import {
  cleanUp,
  cleanups,
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
 * `npm run bench:search [-- options]` (after `npm run build`): for PGlite,
 * and for the PostgreSQL server when reachable, seeds the demo salons,
 * starts the built server on localhost and measures in one run (see
 * bench/README.md): the search query in process, the server's render time
 * apart from the query, and over HTTP (autocannon, 50 connections) the
 * repeated search page, distinct searches and distinct searches with the
 * free-time filter, each with the page cache on and off, a salon page and a
 * static file; then grows the data to --large salons and times the query
 * again. It ends with a markdown table to paste into bench/README.md.
 *
 * Options: --salons (10000), --seed (salons seeded in full, the rest copied
 * in SQL; default all), --duration (seconds per HTTP measure, BENCH_SECONDS
 * or 10), --large (100000), --engines (pglite,postgres), --quick (the same
 * as --seed 1000: minutes instead of the full seed's half hour), --processes
 * (server processes for the extra PostgreSQL run with the cache off; default
 * one per core, 1 skips it).
 */
const { values: options } = parseArgs({
  options: {
    salons: { type: "string", default: "10000" },
    seed: { type: "string" },
    duration: { type: "string", default: process.env.BENCH_SECONDS ?? "10" },
    large: { type: "string", default: "100000" },
    engines: { type: "string", default: process.env.BENCH_ENGINES ?? "pglite,postgres" },
    quick: { type: "boolean", default: false },
    processes: { type: "string" },
  },
});
const SALONS = Number(options.salons);
const SEEDED = Math.min(SALONS, Number(options.seed ?? (options.quick ? 1000 : SALONS)));
const SECONDS = Number(options.duration);
const LARGE = Number(options.large);
const ENGINES = (options.engines ?? "").split(",");
const PROCESSES = Number(options.processes ?? availableParallelism());

const CONNECTIONS = 50;
const SEARCH_QUERY = "q=カット&genre=hair&feature=near-station";
const SEARCH_PATH = `/salons/search?${new URLSearchParams(SEARCH_QUERY)}`;
const STATIC_NAME = `bench-static-${process.pid}.html`;
// Under assets/, read from disk on each request like the hashed bundles (public/ files are
// listed when the server starts, and this file is written after).
const STATIC_FILE = path.resolve("build/client/assets", STATIC_NAME);
const ZONE = "Asia/Tokyo";

/** The 1-minute load average when a figure was taken: the machine may be shared. */
const load = () => loadavg()[0]?.toFixed(1) ?? "?";

type Figure = { measure: string; value: string; target?: string; met?: boolean; load: string };

async function main() {
  if (!existsSync("build/server/index.js")) {
    throw new Error("build/ がありません。先に npm run build を実行してください。");
  }
  const engines: Engine[] = [];
  if (ENGINES.includes("pglite")) engines.push(await pgliteEngine());
  if (ENGINES.includes("postgres")) {
    const postgres = await postgresEngine();
    if (postgres) engines.push(postgres);
    else console.log(`PostgreSQL (${redact(POSTGRES_URL)}) not reachable: PGlite only.\n`);
  }
  console.log(
    `bench:search: ${SALONS} salons (${SEEDED} seeded, the rest copies), then ${LARGE}; ${SECONDS} s per HTTP measure, ${CONNECTIONS} connections; load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  const tables: [string, Figure[]][] = [];
  for (const engine of engines) {
    console.log(`=== ${engine.name} ===`);
    const figures: Figure[] = [];
    const add = (figure: Omit<Figure, "load"> & { load?: string }) => {
      const row = { ...figure, load: figure.load ?? load() };
      figures.push(row);
      console.log(
        `  ${row.measure}: ${row.value}${row.target ? ` (target ${row.target}: ${row.met ? "met" : "NOT met"})` : ""} [load ${row.load}]`,
      );
    };

    let handle = await openDatabase(engine.url);
    await handle.migrate();
    // Records the dictionary's fingerprint on the empty database, so the server does not recompute.
    await ensureSearchTermsCurrent(handle.db);
    let started = performance.now();
    await seedDatabase(handle.db, { salonCount: SEEDED });
    if (SALONS > SEEDED) await growTo(handle, SALONS);
    await handle.db.execute(sql`analyze`);
    console.log(
      `seeded ${SALONS} salons in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const atBase = await timeQuery(handle);
    add({
      measure: `keyword query (${SEARCH_QUERY}), ${SALONS.toLocaleString("en")} salons, in process, median / p95 ms`,
      value: `${atBase.median.toFixed(1)} / ${atBase.p95.toFixed(1)}`,
    });
    const streams = await timeStreams(handle);
    add({
      measure: "distinct searches, in process (the page's loader), p50 / p99 ms",
      value: `${streams.plain.p50.toFixed(1)} / ${streams.plain.p99.toFixed(1)}`,
    });
    add({
      measure: "the same with the free-time filter, p50 / p99 ms",
      value: `${streams.freeTime.p50.toFixed(1)} / ${streams.freeTime.p99.toFixed(1)}`,
    });
    const detailSlug = await topSalonSlug(handle);
    // PGlite allows one process per data directory: the render child and the server open it next.
    await handle.close();

    const render = await measureRender(engine.url);
    add({
      measure: "search page render (React SSR + loader data), query apart, p50 / p99 ms",
      value: `${render.p50.toFixed(1)} / ${render.p99.toFixed(1)} (${render.pages} pages, ${Math.round(render.bytes / 1024)} KB)`,
      target: "< 5 ms",
      met: render.p50 < 5,
    });

    for (const row of await measureHttp(engine, detailSlug)) {
      const isDistinct = row.label.startsWith("search, distinct");
      const target = isDistinct
        ? engine.name === "postgres"
          ? "≥ 300 req/s, p99 < 300 ms"
          : "≥ 100 req/s, no timeouts"
        : undefined;
      const met = isDistinct
        ? engine.name === "postgres"
          ? row.rps >= 300 && row.p99 < 300
          : row.rps >= 100 && row.timeouts === 0
        : undefined;
      add({
        measure: `HTTP ${row.label}: req/s, p50 / p99 ms, timeouts, redirects`,
        value: `${row.rps.toFixed(0)}, ${row.p50} / ${row.p99}, ${row.timeouts}, ${row.non2xx}`,
        target,
        met,
        load: row.load,
      });
    }

    handle = await openDatabase(engine.url);
    started = performance.now();
    await growTo(handle, LARGE);
    console.log(
      `grew to ${LARGE} salons in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const atLarge = await timeQuery(handle);
    await handle.close();
    const ratio = atLarge.median / atBase.median;
    add({
      measure: `keyword query, ${LARGE.toLocaleString("en")} salons, median / p95 ms`,
      value: `${atLarge.median.toFixed(1)} / ${atLarge.p95.toFixed(1)}`,
      target: engine.name === "postgres" ? "< 20 ms median" : undefined,
      met: engine.name === "postgres" ? atLarge.median < 20 : undefined,
    });
    add({
      measure: `keyword query, ${LARGE.toLocaleString("en")} ÷ ${SALONS.toLocaleString("en")} salons (medians)`,
      value: `${ratio.toFixed(2)}×`,
      target: "≤ 3×",
      met: ratio <= 3,
    });
    tables.push([engine.name, figures]);
    console.log("");
  }
  printMarkdown(tables);
}

type Timing = { median: number; p95: number };

/** The keyword query as the search page asks it (bounded count), 30 runs after 5 warm-up. */
async function timeQuery(handle: DatabaseHandle): Promise<Timing> {
  const query = parseSearchQuery(new URLSearchParams(SEARCH_QUERY));
  const run = () =>
    searchSalons(handle.db, query, undefined, new Date(), { countCap: SEARCH_COUNT_CAP });
  for (let i = 0; i < 5; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[15] ?? 0, p95: samples[28] ?? 0 };
}

/** 200 distinct searches of each stream through the page's loader (query, options, suggestions). */
async function timeStreams(handle: DatabaseHandle) {
  const now = new Date();
  const time = async (paths: string[]) => {
    const queries = paths.map((p) => parseSearchQuery(new URL(p, "http://x").searchParams));
    for (const query of queries.slice(0, 10)) await loadSearchPage(handle.db, query, now);
    const samples: number[] = [];
    for (const query of queries) {
      const started = performance.now();
      await loadSearchPage(handle.db, query, now);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const at = (q: number) =>
      samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
    return { p50: at(0.5), p99: at(0.99) };
  };
  // Every 9th, so the 200 cover all keywords, genres, features, orders and pages.
  const every = (paths: string[]) => paths.filter((_, i) => i % 9 === 0).slice(0, 200);
  return {
    plain: await time(every(DISTINCT_SEARCHES)),
    freeTime: await time(every(freeTimeSearches(toLocal(now, ZONE).date))),
  };
}

async function topSalonSlug(handle: DatabaseHandle) {
  const result = await searchSalons(handle.db, parseSearchQuery(new URLSearchParams()));
  const slug = result.salons[0]?.slug;
  if (!slug) throw new Error("no salon to benchmark");
  return slug;
}

type Render = { pages: number; samples: number; p50: number; p99: number; bytes: number };

/** bench/render.ts in a child process: React's production build needs NODE_ENV from the start. */
function measureRender(databaseUrl: string): Promise<Render> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/render.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString("hex"),
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`render bench exited ${code}`));
      else resolve(JSON.parse(line) as Render);
    });
  });
}

type Target = { label: string; paths: string[] };
type Http = {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  timeouts: number;
  non2xx: number;
  /** The load average at the end of this measure. */
  load: string;
};

async function measureHttp(engine: Engine, detailSlug: string): Promise<Http[]> {
  const today = toLocal(new Date(), ZONE).date;
  const figures: Http[] = [];
  // On PostgreSQL also with one server process per core (WEB_CONCURRENCY, server/cluster.ts).
  const runs: { cache: "on" | "off"; processes: number }[] = [
    { cache: "on", processes: 1 },
    { cache: "off", processes: 1 },
  ];
  if (engine.name === "postgres" && PROCESSES > 1)
    runs.push({ cache: "off", processes: PROCESSES });
  for (const { cache, processes } of runs) {
    const server = await startServer(engine.url, {
      ...(cache === "off" ? { PAGE_CACHE_ENTRIES: "0" } : {}),
      WEB_CONCURRENCY: String(processes),
    });
    const each = processes > 1 ? `, ${processes} processes` : "";
    try {
      const base = `http://127.0.0.1:${PORT}`;
      const detailPath = `/salons/${detailSlug}`;
      const targets: Target[] = [
        { label: `search, distinct queries, cache ${cache}${each}`, paths: DISTINCT_SEARCHES },
        {
          label: `search, distinct + free time, cache ${cache}${each}`,
          paths: freeTimeSearches(today),
        },
      ];
      if (cache === "on" && processes === 1) {
        const detailHtml = await (await fetch(base + detailPath)).text();
        await writeFile(STATIC_FILE, detailHtml);
        cleanups.push(() => rm(STATIC_FILE, { force: true }));
        // The same search asked again is answered by the micro-cache: say so, not assume it.
        await (await fetch(base + SEARCH_PATH)).arrayBuffer();
        const again = await fetch(base + SEARCH_PATH);
        await again.arrayBuffer();
        console.log(`search page asked twice: x-cache ${again.headers.get("x-cache") ?? "(none)"}`);
        targets.unshift({ label: "search page, the same query, cache on", paths: [SEARCH_PATH] });
        targets.push(
          { label: "salon page, cache on", paths: [detailPath] },
          {
            label: `static file (${Buffer.byteLength(detailHtml)} B)`,
            paths: [`/assets/${STATIC_NAME}`],
          },
        );
      }
      for (const target of targets) figures.push(await hammer(base, target));
    } finally {
      await stopServer(server);
    }
  }
  return figures;
}

/** Autocannon on one target, the paths in turn (a distinct stream), after a 2 s warm-up. */
async function hammer(base: string, target: Target): Promise<Http> {
  const first = target.paths[0] ?? "/";
  const check = await fetch(base + first);
  if (check.status !== 200) throw new Error(`${first} answered ${check.status}`);
  await check.arrayBuffer();
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
  const run = (duration: number) =>
    autocannon({ url: base + first, connections: CONNECTIONS, duration, requests });
  await run(2);
  // The warm-up's last requests may still be queued (PGlite answers one query
  // at a time): one more request returns only once they are done, so the
  // measure starts on an idle server instead of behind them.
  await (await fetch(base + first, { signal: AbortSignal.timeout(120_000) })).arrayBuffer();
  const result = await run(SECONDS);
  return {
    label: target.label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    timeouts: result.timeouts,
    // Redirects of searches asked past their last page (`?page=3` of a narrow search).
    non2xx: result.non2xx,
    load: load(),
  };
}

function printMarkdown(tables: [string, Figure[]][]) {
  const commit = process.env.GIT_COMMIT ?? "";
  console.log(
    `\n### bench:search, ${new Date().toISOString().slice(0, 16)} UTC${commit ? `, commit ${commit}` : ""}: ${SALONS.toLocaleString("en")} salons (${SEEDED.toLocaleString("en")} seeded), ${SECONDS} s per HTTP measure\n`,
  );
  console.log("| engine | measure | value | target | load avg (1 min) |");
  console.log("| ------ | ------- | ----: | ------ | ---------------: |");
  for (const [engine, figures] of tables) {
    for (const f of figures) {
      const target = f.target ? `${f.target}: ${f.met ? "**met**" : "not met"}` : "";
      console.log(`| ${engine} | ${f.measure} | ${f.value} | ${target} | ${f.load} |`);
    }
  }
  console.log("");
}

try {
  await main();
} finally {
  await cleanUp();
}
