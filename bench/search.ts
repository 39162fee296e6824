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
import { salons } from "../server/db/schema";
import { seedDatabase } from "../server/db/seed/seed";
import { SEARCH_COUNT_CAP, searchSalons } from "../server/salons/search";
import { loadSearchPage } from "../server/salons/search-page";
import { ensureSearchTermsCurrent } from "../server/salons/search-terms-state.server";
import { growTo } from "./grow";
import {
  cleanUp,
  cleanups,
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
import { cpuBetween, sampleCpu } from "./proc-cpu";

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
 * one per core, 1 skips it), --keep-postgres NAME (a database seeded once and
 * kept: seeded only when it holds fewer salons than asked; the --large step
 * grows a copy of it), --only-distinct (only the distinct stream with the
 * cache off beside the static file, with their CPU: a quick re-run),
 * --vs DIR (with --only-distinct: DIR is another checkout, built, whose
 * server is measured in turn with this one, --rounds times, each pair in
 * the same minutes), --accept-encoding br (sent with every request, as a
 * browser does: the server then compresses each answer).
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
    "keep-postgres": { type: "string" },
    "only-distinct": { type: "boolean", default: false },
    vs: { type: "string" },
    rounds: { type: "string", default: "3" },
    "accept-encoding": { type: "string" },
  },
});
const KEEP_POSTGRES = options["keep-postgres"] ?? process.env.BENCH_KEEP_POSTGRES;
const ONLY_DISTINCT = options["only-distinct"] === true || options.vs !== undefined;
const VS = options.vs ? path.resolve(options.vs) : undefined;
const ROUNDS = Number(options.rounds);
// A browser's `Accept-Encoding: br` makes the server compress each page (the static file too).
const ACCEPT_ENCODING = options["accept-encoding"];
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
    const postgres = await postgresEngine(KEEP_POSTGRES);
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
    const kept = await handle.db.$count(salons);
    if (kept === 0) await seedDatabase(handle.db, { salonCount: SEEDED });
    if (kept < SALONS) {
      await growTo(handle, SALONS);
      await handle.db.execute(sql`analyze`);
      console.log(
        `seeded ${SALONS} salons in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    } else console.log(`kept database: ${kept} salons`);
    if (ONLY_DISTINCT) {
      const detailSlug = await topSalonSlug(handle);
      await handle.close();
      for (const row of await measureDistinct(engine, detailSlug)) addHttp(row);
      tables.push([engine.name, figures]);
      console.log("");
      continue;
    }
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

    for (const row of await measureHttp(engine, detailSlug)) addHttp(row);

    // A kept database stays at SALONS for the next run: grow a copy of it.
    const large = KEEP_POSTGRES && engine.name === "postgres" ? await copyOf(engine) : engine;
    handle = await openDatabase(large.url);
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

    function addHttp(row: Http) {
      const isDistinct = row.label.startsWith("search, distinct");
      add({
        measure: `HTTP ${row.label}: req/s (rendered 200s / s), p50 / p99 ms, timeouts, redirects, other non-2xx`,
        value: `${row.rps.toFixed(0)} (${row.renderedRps.toFixed(0)}), ${row.p50} / ${row.p99}, ${row.timeouts}, ${row.redirects}, ${row.otherNon2xx}`,
        load: row.load,
      });
      if (!isDistinct) return;
      if (row.staticRps) {
        // Issue 42: only searches that render results count, against the static file of the same server run.
        const share = row.renderedRps / row.staticRps;
        add({
          measure: `HTTP ${row.label}: rendered searches as a share of the static file's rate`,
          value: `${row.renderedRps.toFixed(0)} ÷ ${row.staticRps.toFixed(0)} = ${share.toFixed(3)}`,
          target: row.label.includes("cache off") ? "≥ 0.2" : undefined,
          met: row.label.includes("cache off") ? share >= 0.2 : undefined,
          load: row.load,
        });
      }
      if (row.cpu) {
        const total = row.cpu.server + row.cpu.postgres;
        add({
          measure: `HTTP ${row.label}: CPU per request from /proc, Node + PostgreSQL ms (of ${row.responses})`,
          value: `${row.cpu.server.toFixed(2)} + ${row.cpu.postgres.toFixed(2)} = ${total.toFixed(2)}`,
          target: "≤ 7 ms",
          met: total <= 7,
          load: row.load,
        });
      }
    }
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
  /** Every answer a second, redirects included. */
  rps: number;
  /** 200s a second: the pages that render (a redirect is a few headers). */
  renderedRps: number;
  p50: number;
  p99: number;
  timeouts: number;
  /** 3xx: a search past its last page, or words the page turns into filters. */
  redirects: number;
  otherNon2xx: number;
  responses: number;
  /** The static file's rate in the same server run, for the share of distinct searches. */
  staticRps?: number;
  /** CPU ms per answer during the timed run, from /proc: the server, and the database's backends. */
  cpu?: { server: number; postgres: number };
  /** The load average at the end of this measure. */
  load: string;
};

/** The database a PostgreSQL engine's backends serve (their process title names it); null for PGlite. */
const databaseOf = (engine: Engine) =>
  engine.name === "postgres" ? new URL(engine.url).pathname.slice(1) : null;

/**
 * The static file: the same bytes as the salon page, written under the
 * server's assets and read from disk on each request like the hashed bundles
 * (public/ files are listed when the server starts, and this file is written after).
 */
async function writeStaticFile(base: string, detailPath: string, cwd = ".") {
  const detailHtml = await (await fetch(base + detailPath)).text();
  const file = path.resolve(cwd, "build/client/assets", STATIC_NAME);
  await writeFile(file, detailHtml);
  cleanups.push(() => rm(file, { force: true }));
  return { path: `/assets/${STATIC_NAME}`, bytes: Buffer.byteLength(detailHtml) };
}

/**
 * The distinct stream without the searches that redirect (a page past the
 * last, words turned into filters): asked once each, without following.
 * Issue 42 counts searches that render results; a redirect costs a fraction.
 */
async function renderingSearches(base: string, paths: string[]): Promise<string[]> {
  const kept: string[] = [];
  const reasons = new Map<number, number>();
  for (let i = 0; i < paths.length; i += 8) {
    const batch = paths.slice(i, i + 8);
    const statuses = await Promise.all(
      batch.map(async (p) => {
        const response = await fetch(base + p, { redirect: "manual" });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    statuses.forEach((status, j) => {
      if (status === 200) kept.push(batch[j] as string);
      else reasons.set(status, (reasons.get(status) ?? 0) + 1);
    });
  }
  console.log(
    `distinct stream: ${kept.length} of ${paths.length} render (left out: ${[...reasons].map(([status, n]) => `${n} × ${status}`).join(", ") || "none"})`,
  );
  return kept;
}

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
  let staticRps: number | undefined;
  // Found with the first server, kept for the others: the same URLs in every run.
  let streams: { plain: string[]; freeTime: string[] } | undefined;
  for (const { cache, processes } of runs) {
    const server = await startServer(engine.url, {
      ...(cache === "off" ? { PAGE_CACHE_ENTRIES: "0" } : {}),
      WEB_CONCURRENCY: String(processes),
    });
    const each = processes > 1 ? `, ${processes} processes` : "";
    const cpu = { pid: server.pid as number, database: databaseOf(engine) };
    try {
      const base = `http://127.0.0.1:${PORT}`;
      const detailPath = `/salons/${detailSlug}`;
      streams ??= {
        plain: await renderingSearches(base, DISTINCT_SEARCHES),
        freeTime: await renderingSearches(base, freeTimeSearches(today)),
      };
      const targets: Target[] = [
        { label: `search, distinct queries, cache ${cache}${each}`, paths: streams.plain },
        {
          label: `search, distinct + free time, cache ${cache}${each}`,
          paths: streams.freeTime,
        },
      ];
      let staticFile: { path: string; bytes: number } | undefined;
      if (cache === "on" && processes === 1) {
        staticFile = await writeStaticFile(base, detailPath);
        // The same search asked again is answered by the micro-cache: say so, not assume it.
        await (await fetch(base + SEARCH_PATH)).arrayBuffer();
        const again = await fetch(base + SEARCH_PATH);
        await again.arrayBuffer();
        console.log(`search page asked twice: x-cache ${again.headers.get("x-cache") ?? "(none)"}`);
        targets.unshift({ label: "search page, the same query, cache on", paths: [SEARCH_PATH] });
        targets.push(
          { label: "salon page, cache on", paths: [detailPath] },
          { label: `static file (${staticFile.bytes} B)`, paths: [staticFile.path] },
        );
      }
      for (const target of targets) {
        const row = await hammer(base, target, cpu);
        if (target.paths[0] === staticFile?.path) staticRps = row.rps;
        figures.push(row);
      }
    } finally {
      await stopServer(server);
    }
  }
  // The static file is measured in the first run; the share needs it in every distinct row.
  return figures.map((row) => ({ ...row, staticRps }));
}

/**
 * `--only-distinct`: the static file and the distinct stream (the searches
 * that render only), the cache off, one process; with `--vs DIR` the
 * server of DIR and this one in turn, `--rounds` times.
 */
async function measureDistinct(engine: Engine, detailSlug: string): Promise<Http[]> {
  const figures: Http[] = [];
  const servers: { name: string; cwd?: string }[] = VS
    ? [
        { name: "this checkout", cwd: undefined },
        { name: `vs ${path.basename(VS)}`, cwd: VS },
      ]
    : [{ name: "this checkout" }];
  let paths: string[] | undefined;
  const measured: Http[] = [];
  for (let round = 1; round <= (VS ? ROUNDS : 1); round++) {
    for (const { name, cwd } of servers) {
      const server = await startServer(engine.url, { PAGE_CACHE_ENTRIES: "0" }, cwd);
      const cpu = { pid: server.pid as number, database: databaseOf(engine) };
      const label = VS ? `, ${name}, round ${round}` : "";
      try {
        const base = `http://127.0.0.1:${PORT}`;
        const file = await writeStaticFile(base, `/salons/${detailSlug}`, cwd);
        paths ??= await renderingSearches(base, DISTINCT_SEARCHES);
        const fixed = await hammer(
          base,
          { label: `static file (${file.bytes} B)${label}`, paths: [file.path] },
          cpu,
        );
        const distinct = await hammer(
          base,
          { label: `search, distinct queries that render, cache off${label}`, paths },
          cpu,
        );
        figures.push(fixed, { ...distinct, staticRps: fixed.rps });
        measured.push({ ...distinct, staticRps: fixed.rps });
      } finally {
        await stopServer(server);
      }
    }
    const [mine, theirs] = measured.slice(-2);
    if (VS && mine?.cpu && theirs?.cpu && mine.staticRps && theirs.staticRps) {
      // Measured in the same minutes: the ratios hold when the machine's speed drifts.
      const share = (row: Http) => row.renderedRps / (row.staticRps ?? 1);
      console.log(
        `  round ${round}, this ÷ vs: share ${(share(mine) / share(theirs)).toFixed(2)}, Node CPU ${(mine.cpu.server / theirs.cpu.server).toFixed(2)}, PostgreSQL CPU ${(mine.cpu.postgres / theirs.cpu.postgres).toFixed(2)}`,
      );
    }
  }
  return figures;
}

/** Autocannon on one target, the paths in turn (a distinct stream), after a 2 s warm-up. */
async function hammer(
  base: string,
  target: Target,
  cpuOf: { pid: number; database: string | null },
): Promise<Http> {
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
    autocannon({
      url: base + first,
      connections: CONNECTIONS,
      duration,
      requests,
      headers: ACCEPT_ENCODING ? { "accept-encoding": ACCEPT_ENCODING } : undefined,
    });
  await run(2);
  // The warm-up's last requests may still be queued (PGlite answers one query
  // at a time): one more request returns only once they are done, so the
  // measure starts on an idle server instead of behind them.
  await (await fetch(base + first, { signal: AbortSignal.timeout(120_000) })).arrayBuffer();
  const before = sampleCpu(cpuOf.pid, cpuOf.database);
  const result = await run(SECONDS);
  const spent = cpuBetween(before, sampleCpu(cpuOf.pid, cpuOf.database));
  const responses = result["1xx"] + result["2xx"] + result["3xx"] + result["4xx"] + result["5xx"];
  const perResponse = (seconds: number) => (seconds * 1000) / Math.max(1, responses);
  return {
    label: target.label,
    rps: responses / result.duration,
    renderedRps: result["2xx"] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    timeouts: result.timeouts,
    redirects: result["3xx"],
    otherNon2xx: result.non2xx - result["3xx"],
    responses,
    cpu: { server: perResponse(spent.server), postgres: perResponse(spent.postgres) },
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
