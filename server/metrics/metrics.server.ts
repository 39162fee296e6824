import { createServer, type Server } from "node:http";
import { and, count, eq, isNull, lte, min } from "drizzle-orm";
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  Registry,
} from "prom-client";
import type { DatabaseHandle } from "../db/client";
import type { ReplicaMonitor } from "../db/replica-monitor.server";
import { jobs } from "../db/schema/jobs";
import { mailOutbox } from "../db/schema/mail";
import { webhookDeliveries } from "../db/schema/webhooks";
import type { SlotEvents } from "../realtime/slot-events.server";
import { processCounts } from "./counts";

/**
 * The app server's Prometheus metrics (issue 39 §4, decision 0070): requests
 * by route, the database pool, the job queue, live streams, mail and
 * bookings. Each app process has a registry of its own (tests run several
 * apps in one process); several processes of one server are summed by the
 * cluster's primary (`serveClusterMetrics`). Figures read from the shared
 * database (queue depth, mails waiting) are the same on every process, so
 * the primary keeps one of them ("max"), not their sum.
 */
export type AppMetrics = {
  registry: Registry;
  /** One finished request: its method, route pattern (never the raw path), status, seconds. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
};

export type MetricSources = {
  database: Pick<DatabaseHandle, "db" | "poolStats">;
  slotEvents: Pick<SlotEvents, "subscriberCount">;
  /** The read replica's monitor (DATABASE_REPLICA_URL); absent: no replica gauges. */
  replica?: Pick<ReplicaMonitor, "state">;
  now?: () => Date;
};

/** Request seconds: a cached page in milliseconds, a search in tens of them, a slow export in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createAppMetrics({
  database,
  slotEvents,
  replica,
  now = () => new Date(),
}: MetricSources): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers,
  });
  const durations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request (until the response started), by method and route pattern",
    labelNames: ["method", "route"] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });

  new Gauge({
    name: "db_pool_connections",
    help: "Database pool connections of this process: total open, idle, and requests waiting for one",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const stats = database.poolStats();
      this.set({ state: "total" }, stats.total);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "waiting" }, stats.waiting);
    },
  });
  new Gauge({
    name: "live_streams_open",
    help: "Live availability and ledger streams open on this process",
    registers,
    collect() {
      this.set(slotEvents.subscriberCount());
    },
  });

  if (replica) {
    // Several processes of one server: "in use" only if every one reads the replica.
    new Gauge({
      name: "db_replica_in_use",
      help: "1 while the pages that may lag read the read replica, 0 while they read the primary (replica down or lagging)",
      aggregator: "min",
      registers,
      collect() {
        this.set(replica.state().inUse ? 1 : 0);
      },
    });
    new Gauge({
      name: "db_replica_lag_seconds",
      help: "How far the replica's replay was behind the primary at the last check (0: caught up or not a standby; NaN: unreachable)",
      aggregator: "max",
      registers,
      collect() {
        const state = replica.state();
        this.set(state.status === "down" ? Number.NaN : (state.lagSeconds ?? 0));
      },
    });
  }

  // One query for both queue figures, shared by the two gauges of one scrape.
  let queueRead: Promise<{ due: number; oldest: Date | null }> | null = null;
  const readQueue = () => {
    queueRead ??= database.db
      .select({ due: count(), oldest: min(jobs.runAt) })
      .from(jobs)
      .where(and(isNull(jobs.doneAt), lte(jobs.runAt, now())))
      .then(([row]) => ({ due: row?.due ?? 0, oldest: row?.oldest ?? null }))
      .finally(() => {
        queueRead = null;
      });
    return queueRead;
  };
  new Gauge({
    name: "jobs_due",
    help: "Jobs whose time has come and that are not done yet (all servers)",
    aggregator: "max",
    registers,
    async collect() {
      this.set((await readQueue()).due);
    },
  });
  new Gauge({
    name: "jobs_oldest_due_age_seconds",
    help: "How long the oldest due job has waited past its time (0: none waiting)",
    aggregator: "max",
    registers,
    async collect() {
      const { oldest } = await readQueue();
      this.set(oldest ? Math.max(0, (now().getTime() - oldest.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: "mails_queued",
    help: "Mails in the outbox, not yet accepted by the SMTP server (all servers)",
    aggregator: "max",
    registers,
    async collect() {
      const [row] = await database.db.select({ queued: count() }).from(mailOutbox);
      this.set(row?.queued ?? 0);
    },
  });

  new Gauge({
    name: "webhook_deliveries_pending",
    help: "Salons' webhook deliveries waiting for their first or next attempt (all servers)",
    aggregator: "max",
    registers,
    async collect() {
      const [row] = await database.db
        .select({ pending: count() })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, "pending"));
      this.set(row?.pending ?? 0);
    },
  });

  // Counters kept by the domain code (server/metrics/counts.ts), copied at each scrape.
  const copied = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Array<[Partial<Record<L, string>>, number]>,
  ) =>
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [labels, value] of read()) this.inc(labels, value);
      },
    });
  copied("mails_sent_total", "Mails the SMTP server accepted from this process", [], () => [
    [{}, processCounts().mailsSent],
  ]);
  copied(
    "mails_failed_total",
    "Mail deliveries the SMTP server refused or that failed (each is retried)",
    [],
    () => [[{}, processCounts().mailsFailed]],
  );
  copied(
    "webhook_attempts_total",
    "Attempts of salons' webhooks from this process, by outcome (delivered, retrying, failed, gone)",
    ["outcome"],
    () =>
      Object.entries(processCounts().webhookAttempts).map(([outcome, value]) => [
        { outcome },
        value,
      ]),
  );
  copied("holds_made_total", "Times held by visitors on this process", [], () => [
    [{}, processCounts().holds],
  ]);
  copied(
    "bookings_made_total",
    "Bookings made on this process: confirmed on the web, or entered by the salon",
    ["source"],
    () => Object.entries(processCounts().bookings).map(([source, value]) => [{ source }, value]),
  );

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      durations.observe({ method, route }, seconds);
    },
  };
}

/**
 * GET /metrics on its own port (METRICS_PORT, on METRICS_HOST: loopback by
 * default), never on the site's: Prometheus reaches it inside the
 * installation, and the public proxy has no route to it.
 */
export function serveMetrics(
  port: number,
  host: string,
  read: () => Promise<{ text: string; contentType: string }>,
): Server {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || (request.url ?? "").split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("metrics are at GET /metrics\n");
      return;
    }
    read().then(
      ({ text, contentType }) => {
        response.writeHead(200, { "content-type": contentType });
        response.end(text);
      },
      (error: unknown) => {
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end(`metrics could not be read: ${String(error)}\n`);
      },
    );
  });
  server.listen(port, host);
  return server;
}

/** In a worker of several server processes: answer the primary's requests with this registry. */
export function reportToClusterPrimary(metrics: AppMetrics) {
  AggregatorRegistry.setRegistries([metrics.registry]);
  // Constructing one installs prom-client's listener for the primary's requests.
  new AggregatorRegistry();
}

/** In the primary of several server processes: /metrics sums what every worker reports. */
export function serveClusterMetrics(port: number, host: string) {
  const aggregator = new AggregatorRegistry();
  return serveMetrics(port, host, async () => ({
    text: await aggregator.clusterMetrics(),
    contentType: aggregator.contentType,
  }));
}

/** In a single server process: /metrics is this process's registry. */
export function serveProcessMetrics(metrics: AppMetrics, port: number, host: string) {
  return serveMetrics(port, host, async () => ({
    text: await metrics.registry.metrics(),
    contentType: metrics.registry.contentType,
  }));
}
