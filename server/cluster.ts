import cluster, { type Worker } from "node:cluster";
import { loadConfig } from "./config";
import { isPostgresUrl, openDatabase } from "./db/client";
import { createLogger } from "./logger";
import { serveClusterMetrics } from "./metrics/metrics.server";
import { prepareDatabase } from "./prepare-database.server";

/**
 * `WEB_CONCURRENCY=N` on PostgreSQL: N server processes share the port
 * (node:cluster hands each new connection to one of them), so a search's
 * query and render use every core instead of one Node thread
 * (docs/decisions/0024-server-processes.md). Each worker is a whole app
 * server (start()): the page micro-cache, redirect rules and live slots stay
 * true across them through LISTEN/NOTIFY, limits are in the database or
 * Redis, and jobs, mail delivery and the free-time refresh already run safely
 * on several servers. The primary alone migrates, and brings the search
 * terms up to date (decision 0023), once (two workers migrating at once
 * would race), forks, replaces a worker that dies, and on SIGTERM/SIGINT
 * passes the signal on and waits for each to finish.
 * PGlite is one process's files, so it always runs one server.
 */
export async function serveProcesses(
  start: (options: { migrate: boolean }) => Promise<unknown>,
  env: Record<string, string | undefined> = process.env,
) {
  const config = loadConfig(env);
  const log = createLogger(config.LOG_LEVEL);
  const wanted = config.WEB_CONCURRENCY;
  if (cluster.isWorker) return start({ migrate: false });
  if (wanted <= 1) return start({ migrate: true });
  if (!isPostgresUrl(config.DATABASE_URL)) {
    log.warn("WEB_CONCURRENCY is ignored on PGlite: one process owns its files", { wanted });
    return start({ migrate: true });
  }
  const database = await openDatabase(config.DATABASE_URL, log);
  try {
    // Once for all workers: two preparing at once would race.
    await prepareDatabase(database, log);
  } finally {
    await database.close();
  }
  superviseWorkers(wanted, log);
  // /metrics sums what every worker reports (decision 0070).
  if (config.METRICS_PORT) serveClusterMetrics(config.METRICS_PORT, config.METRICS_HOST);
}

/** Restarts closer together than this are a crash loop: the primary gives up. */
const CRASH_WINDOW_MS = 10_000;
const MAX_CRASHES_IN_WINDOW = 5;

function superviseWorkers(count: number, log: ReturnType<typeof createLogger>) {
  let stopping = false;
  const crashes: number[] = [];
  // Our own list: cluster.workers may still hold a worker whose exit was just reported.
  const alive = new Set<Worker>();
  const fork = () => alive.add(cluster.fork());
  for (let i = 0; i < count; i += 1) fork();
  log.info("server processes", { count });
  cluster.on("exit", (worker: Worker, code, signal) => {
    alive.delete(worker);
    if (stopping) {
      if (alive.size === 0) process.exit(0);
      return;
    }
    const now = Date.now();
    crashes.push(now);
    while (crashes.length > 0 && (crashes[0] ?? now) < now - CRASH_WINDOW_MS) crashes.shift();
    log.error("server process ended; starting another", { pid: worker.process.pid, code, signal });
    if (crashes.length > MAX_CRASHES_IN_WINDOW) {
      log.error("server processes keep ending; stopping", { crashes: crashes.length });
      process.exit(1);
    }
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    if (alive.size === 0) process.exit(0);
    // Each worker closes gracefully on the signal (server/app.ts) and exits.
    for (const worker of alive) worker.process.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
