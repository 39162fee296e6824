import cluster from "node:cluster";
import type { ServerType } from "@hono/node-server";
import { serve } from "@hono/node-server";
import { createRequestHandler, type ServerBuild } from "react-router";
import { type AccountServices, createAccountServices } from "./accounts/account-services";
import {
  DEMO_PASSWORD,
  demoAccounts,
  demoOwnerSalonSummary,
  presentDemoAccounts,
} from "./accounts/demo-accounts";

import { type FreeDaysRefresh, startFreeDaysRefresh } from "./bookings/free-days.server";
import { loadConfig } from "./config";
import { type DatabaseHandle, openDatabase } from "./db/client";
import { createReplicaMonitor, type ReplicaMonitor } from "./db/replica-monitor.server";
import { createHttpApp, type HttpAppDeps } from "./http/app";
import { withDomainErrors } from "./http/errors";
import { gracefulClose } from "./http/graceful-close";
import { startBackgroundJobs } from "./jobs/background.server";
import type { RunningJobWorker } from "./jobs/queue.server";
import { type LineChannel, startLine } from "./line/line-channel.server";
import { createLogger, describeError, type Logger, routeConsoleTo } from "./logger";
import { type MailDelivery, startMailDelivery } from "./mail/mailer";
import {
  createAppMetrics,
  reportToClusterPrimary,
  serveProcessMetrics,
} from "./metrics/metrics.server";
import { pagePatternsOf } from "./metrics/request-metrics";
import { type PaymentsHandle, startPayments } from "./payments/payments.server";
import { prepareDatabase } from "./prepare-database.server";
import { createSlotEvents, type SlotEvents } from "./realtime/slot-events.server";
import {
  type RunningWebhookDelivery,
  startWebhookDelivery,
  webhookDeliveryOptions,
} from "./webhooks/delivery.server";

/**
 * Entry of the server bundle (vite.config.ts points the SSR build here), so
 * Hono, the routes and the domain code share one module graph.
 */

/** The routes of this bundle (also for bench/render.ts, which times their rendering alone). */
export const loadServerBuild = () =>
  import("virtual:react-router/server-build") as Promise<ServerBuild>;

/** The Hono app around a React Router build: the built one, or Vite's in development. */
export function createServerApp(
  deps: Omit<HttpAppDeps, "handleRequest">,
  loadBuild: () => Promise<ServerBuild> = loadServerBuild,
) {
  const mode = deps.config.NODE_ENV === "production" ? "production" : "development";
  const build = () => loadBuild().then(withDomainErrors);
  // The metrics name a page by its route pattern once the route table is read.
  let pagePattern: ((pathname: string) => string | null) | undefined;
  if (deps.metrics)
    build().then(
      (built) => (pagePattern = pagePatternsOf(built)),
      () => {},
    );
  const metricsPattern = (pathname: string) => pagePattern?.(pathname) ?? null;
  if (mode === "development") {
    // A function: React Router reloads the build (and re-derives its route table) per request.
    return createHttpApp({
      ...deps,
      pagePattern: metricsPattern,
      handleRequest: createRequestHandler(build, mode),
    });
  }
  // The built routes never change: derive the route table once, not for every
  // request (about a millisecond of each page's render).
  let handler: Promise<ReturnType<typeof createRequestHandler>> | undefined;
  return createHttpApp({
    ...deps,
    pagePattern: metricsPattern,
    handleRequest: async (request, context) => {
      handler ??= build().then((built) => createRequestHandler(built, mode));
      return (await handler)(request, context);
    },
  });
}

export { serveProcesses } from "./cluster";

/**
 * One app server. `migrate: false` when a primary process already migrated
 * for its workers (server/cluster.ts).
 */
export async function start(
  env: Record<string, string | undefined> = process.env,
  { migrate = true }: { migrate?: boolean } = {},
) {
  const config = loadConfig(env);
  // The demo accounts' addresses are published (README): their start-up line keeps them.
  const log = createLogger(config.LOG_LEVEL, {}, undefined, {
    publicEmails: demoAccounts.map((account) => account.email),
  });
  routeConsoleTo(log);
  const database = await openDatabase(config.DATABASE_URL, log);
  if (migrate) await prepareDatabase(database, log);
  // Never migrated: a streaming replica follows the primary's schema (decision 0074).
  const replica = config.DATABASE_REPLICA_URL
    ? await openDatabase(config.DATABASE_REPLICA_URL, log, {
        connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
      })
    : undefined;
  // While the replica is down or lagging, the pages read the primary (decision 0074).
  const replicaMonitor = config.DATABASE_REPLICA_URL
    ? createReplicaMonitor({
        replicaUrl: config.DATABASE_REPLICA_URL,
        primary: database.db,
        log,
        checkMs: config.REPLICA_CHECK_MS,
        maxLagSeconds: config.REPLICA_MAX_LAG_SECONDS,
      })
    : undefined;
  await replicaMonitor?.start();
  const accounts = createAccountServices(database.db, config, log);
  // Requests only queue mail; this loop sends it (without SMTP_URL it stays for /dev/mailbox).
  const delivery = config.SMTP_URL
    ? startMailDelivery({ database, smtpUrl: config.SMTP_URL, log })
    : null;
  // Keeps the search's free-time summary current as time passes (decision 0014).
  const freeDays = startFreeDaysRefresh({ db: database.db, log });
  const slotEvents = createSlotEvents(database);
  const metrics = createAppMetrics({ database, slotEvents, replica: replicaMonitor });
  // Stripe with a key; without one, the local fake outside production (テスト決済), whose
  // webhooks come to this process; in production without a key, no online payment: a salon
  // asking payment at booking is then refused online with a message (decision 0078).
  const payments = await startPayments(config, {
    webhookUrl: `http://${loopbackHost(config.HOST)}:${config.PORT}/api/payments/webhook`,
    log,
  });
  if (!payments)
    log.warn(
      "payments: no STRIPE_SECRET_KEY; salons asking payment at booking cannot be booked online",
    );
  // LINE with a channel; without one, the local fake outside production (/dev/line shows what
  // it received); in production without one, every visitor message goes by mail (decision 0089).
  const line = await startLine(config, log);
  // Booking mails, reminders, housekeeping and the payments' daily reconciliation are jobs
  // in the database (decisions 0010, 0081); not against the in-process fake, which forgets
  // its payments on restart (its reconciliation runs from /admin/payments when asked).
  const jobs = startBackgroundJobs(database.db, config, log, {
    payments: payments && !payments.fake ? payments.provider : null,
    sender: payments?.provider ?? null,
    line,
  });
  // Salons' webhooks: the outbox rows their changes wrote, sent and retried (decision 0086).
  const webhooks = startWebhookDelivery(webhookDeliveryOptions(database.db, config, log));
  const app = createServerApp({
    config,
    database,
    replica,
    replicaMonitor,
    log,
    accounts,
    slotEvents,
    metrics,
    payments: payments?.provider ?? null,
    line,
    clientDir: "build/client",
  });
  // One process answers /metrics for itself; a worker of several reports to the primary.
  if (cluster.isWorker) reportToClusterPrimary(metrics);
  const metricsServer =
    !cluster.isWorker && config.METRICS_PORT
      ? serveProcessMetrics(metrics, config.METRICS_PORT, config.METRICS_HOST)
      : null;
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) =>
    log.info("listening", {
      url: `http://localhost:${info.port}`,
      pid: process.pid,
      // Mail links and redirects use this origin; set PUBLIC_URL when it is not the one above.
      publicUrl: config.PUBLIC_URL,
      database: database.engine,
    }),
  );
  keepConnectionsOpen(server);
  stopGracefullyOnSignals(
    server,
    {
      database,
      replica,
      replicaMonitor,
      accounts,
      delivery,
      jobs,
      webhooks,
      slotEvents,
      freeDays,
      metricsServer,
      payments,
      line,
    },
    log,
    config.SHUTDOWN_TIMEOUT,
  );
  if (!config.isProduction) await logDemoAccounts(database, log, config.PUBLIC_URL);
  return server;
}

/** This server's own address for the fake's webhooks: loopback when it listens on every address. */
function loopbackHost(host: string) {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * A new connection to the replica that takes longer fails its page, which
 * is then read from the primary (server/http/app.ts): a replica that stops
 * answering without refusing (a host gone from the network) must not hold
 * pages until the operating system gives up, minutes later.
 */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s)
 * is shorter than what clients and proxies keep theirs (load balancers
 * 60 s): a request they send on a connection the server is closing at that
 * moment fails with ECONNRESET (a 502 behind a proxy). Longer than 60 s, so
 * the client side always gives up first; the headers timeout must exceed
 * it. A shutdown still closes idle connections at once (graceful-close.ts).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

function keepConnectionsOpen(server: ServerType) {
  if (!("keepAliveTimeout" in server)) return;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}

/** With the development seed's demo accounts present, how to sign in as each (never in production). */
async function logDemoAccounts(database: DatabaseHandle, log: Logger, origin: string) {
  const present = await presentDemoAccounts(database.db);
  if (present.length === 0) return;
  // The demo owner's salons, each with its 今日 page and today's bookings (as of start-up).
  const ownerSalons = await demoOwnerSalonSummary(database.db, new Date());
  log.info("demo accounts", {
    password: DEMO_PASSWORD,
    accounts: present.map((account) => ({ role: account.role, email: account.email })),
    ownerSalons: ownerSalons.map((salon) => ({
      name: salon.name,
      url: `${origin}${salon.path}`,
      bookingsToday: salon.bookingsToday,
    })),
  });
}

/**
 * SIGTERM/SIGINT: stop accepting connections, end live streams, let
 * in-flight requests finish (bounded by the timeout), then close Redis and
 * the database so PGlite flushes.
 */
function stopGracefullyOnSignals(
  server: ServerType,
  {
    database,
    replica,
    replicaMonitor,
    accounts,
    delivery,
    freeDays,
    jobs,
    webhooks,
    slotEvents,
    metricsServer,
    payments,
    line,
  }: {
    database: DatabaseHandle;
    replica: DatabaseHandle | undefined;
    replicaMonitor: ReplicaMonitor | undefined;
    accounts: AccountServices;
    delivery: MailDelivery | null;
    freeDays: FreeDaysRefresh;
    jobs: RunningJobWorker;
    webhooks: RunningWebhookDelivery;
    slotEvents: SlotEvents;
    metricsServer: import("node:http").Server | null;
    payments: PaymentsHandle | null;
    line: LineChannel | null;
  },
  log: Logger,
  timeoutSeconds: number,
) {
  // Set up now: it follows the requests in progress from the first one on.
  const closeServer = gracefulClose(server);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    const force = setTimeout(() => {
      log.warn("in-flight requests did not finish in time; closing anyway");
      if ("closeAllConnections" in server) server.closeAllConnections();
    }, timeoutSeconds * 1000);
    force.unref();
    // Live availability streams never end on their own: end them now, and
    // their browsers reconnect to another server.
    const streamsClosed = slotEvents.close();
    metricsServer?.close();
    closeServer().then(async () => {
      try {
        await streamsClosed;
        await jobs.stop();
        await webhooks.stop();
        await delivery?.stop();
        await freeDays.stop();
        await payments?.close();
        await line?.close();
        await accounts.close();
        await replicaMonitor?.stop();
        await replica?.close();
        await database.close();
        log.info("stopped");
        process.exit(0);
      } catch (error) {
        log.error("error while closing connections", describeError(error));
        process.exit(1);
      }
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
