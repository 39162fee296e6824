import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { RouterContextProvider } from "react-router";
import { type AccountServices, createAccountServices } from "../accounts/account-services";
import { withAuthFailure } from "../accounts/auth-failures";
import { accountRecordHandler } from "../api/accounts";
import { adminApi } from "../api/admin";
import { createBookingApi } from "../api/booking-api";
import { testLoginHandler } from "../api/test-login";
import { type Config, mapTileOrigin } from "../config";
import { appContext } from "../context";
import type { Database, DatabaseHandle } from "../db/client";
import type { ReplicaMonitor } from "../db/replica-monitor.server";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  type DomainError,
  NotFoundError,
} from "../errors/domain-error";
import type { LineChannel } from "../line/line-channel.server";
import { lineWebhook } from "../line/webhook-route.server";
import { describeError, type Logger } from "../logger";
import type { AppMetrics } from "../metrics/metrics.server";
import { requestMetrics } from "../metrics/request-metrics";
import type { PaymentProvider } from "../payments/provider.server";
import { paymentsWebhook } from "../payments/webhook-route.server";
import { MAX_PHOTO_BYTES, TOO_LARGE_MESSAGE } from "../photos/photo-image.server";
import { createPhotoStore, type PhotoStore, uploadKey } from "../photos/photo-store.server";
import { createSlotEvents, type SlotEvents } from "../realtime/slot-events.server";
import { createRedirectRuleCache, type RedirectRuleCache } from "../routing/redirect-rules";
import { withJapaneseAuthErrors } from "./auth-error-answers";
import { authEndpointGuard } from "./auth-limits";
import { bodyLimit } from "./body-limit";
import { compression } from "./compression";
import { isCrawler } from "./crawler";
import { rejectCrossSiteWrites } from "./cross-site";
import {
  domainErrorResponse,
  isApiPath,
  noteUnavailable,
  thrownAnswers,
  toDomainError,
} from "./errors";
import { screenInput } from "./input-screen";
import { type PageCache, pageCache } from "./page-cache";
import { privateAnswers } from "./private-answers";
import { readOwnWrites, readsPrimary } from "./read-own-writes";
import { visitorRequest } from "./visitor-request";

export type HttpAppDeps = {
  config: Config;
  database: DatabaseHandle;
  /** The read replica (DATABASE_REPLICA_URL, decision 0074); absent: the pages read `database`. */
  replica?: DatabaseHandle;
  /** Whether the replica is fit to read now; absent: it always is (tests of the routing alone). */
  replicaMonitor?: Pick<ReplicaMonitor, "inUse" | "checkNow">;
  log: Logger;
  /** React Router's document and data handler. */
  handleRequest: (request: Request, context: RouterContextProvider) => Promise<Response>;
  /** Built client files (hashed assets under assets/); absent under the Vite dev server, which serves them. */
  clientDir?: string;
  /** Auth and rate limits; built from config and database when not given (tests pass their own). */
  accounts?: AccountServices;
  /** Route rules (SPEC.md §2), cached in memory; built from the database when not given. */
  redirects?: RedirectRuleCache;
  /**
   * The page micro-cache (decision 0007), dropped on every app server when
   * salons change; built from config and database when not given.
   */
  pages?: PageCache;
  /** Uploaded photos (local folder or S3, server/photos/); built from config when not given. */
  photos?: PhotoStore;
  /** Live slot changes (LISTEN/NOTIFY); built from the database when not given. */
  slotEvents?: SlotEvents;
  /** Comment interval of live availability streams; 25 s unless a test shortens it. */
  liveHeartbeatMs?: number;
  /** The clock of the booking API; tests fix it. */
  now?: () => Date;
  /** The payment provider (server/payments/, decision 0076); absent: no online payment. */
  payments?: PaymentProvider | null;
  /** The LINE channel (decision 0089), or its local fake; absent: no LINE. */
  line?: LineChannel | null;
  /** Request counts and times for /metrics (decision 0070); absent, nothing is recorded. */
  metrics?: AppMetrics;
  /** The page route pattern of a path (React Router's table), the metrics' route label. */
  pagePattern?: (pathname: string) => string | null;
};

type Env = {
  Variables: { requestId: string; secureHeadersNonce?: string; inputError?: DomainError };
};

const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=3600";

/**
 * The HTTP application, built apart from listening so tests and the dev
 * server reuse it. Order matters: id and log first, then headers and
 * compression, then static files and probes, and React Router last.
 */
export function createHttpApp({
  config,
  database,
  replica,
  replicaMonitor,
  log,
  handleRequest,
  clientDir,
  accounts = createAccountServices(database.db, config, log),
  redirects = createRedirectRuleCache(database.db, { events: database }),
  pages = pageCache({ maxEntries: config.PAGE_CACHE_ENTRIES, events: database }),
  photos = createPhotoStore(config),
  slotEvents = createSlotEvents(database),
  liveHeartbeatMs,
  now,
  metrics,
  pagePattern,
  payments = null,
  line = null,
}: HttpAppDeps) {
  const app = new Hono<Env>();

  app.use(requestId());
  // Before anything reads the URL or the address: from here on the request
  // is the visitor's, as trusted proxies describe it (decision 0069).
  app.use(visitorRequest(config.TRUST_PROXY, config.PROXY_HEADERS));
  if (metrics) app.use(requestMetrics(metrics, pagePattern));
  app.use(async (c, next) => {
    const started = performance.now();
    // With LOG_LEVEL=debug, a request that never ends still leaves a trace
    // (and tests know the server has a request before they act on it).
    log.debug("request started", {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
    });
    await next();
    // Handlers that return their own Response (React Router) skip headers set
    // before them, so the id is stamped on the final response here.
    c.res.headers.set("x-request-id", c.get("requestId"));
    log.info("request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  });
  app.use(thrownAnswers(log));
  // Outside every handler, so an API write (a hold, a booking, a favorite) counts too.
  if (replica) app.use(readOwnWrites({ secure: config.PUBLIC_URL.startsWith("https:") }));

  app.use(
    secureHeaders({
      // Vite's dev server injects inline scripts, so the policy applies to built apps only.
      contentSecurityPolicy: clientDir ? contentSecurityPolicy(config) : undefined,
      strictTransportSecurity: config.isProduction ? "max-age=63072000; includeSubDomains" : false,
      referrerPolicy: "strict-origin-when-cross-origin",
      xFrameOptions: "DENY",
      xContentTypeOptions: "nosniff",
      crossOriginEmbedderPolicy: false,
      // Geolocation only for this site's own "near me" search; nothing else.
      permissionsPolicy: {
        camera: [],
        microphone: [],
        geolocation: ["self"],
        payment: [],
        usb: [],
        serial: [],
        bluetooth: [],
        hid: [],
        midi: [],
        accelerometer: [],
        gyroscope: [],
        magnetometer: [],
        displayCapture: [],
        browsingTopics: [],
      },
    }),
  );
  app.use(compression());

  if (clientDir) {
    // The build manifest must never be cached: tabs poll it to notice deploys.
    app.use(
      "/builds/latest.json",
      serveStatic({
        root: clientDir,
        onFound: (_path, c) => c.header("Cache-Control", "no-store"),
      }),
    );
    // Hashed bundles, with the brotli and gzip copies the build wrote (vite-plugins/precompress.ts).
    app.use(
      "/assets/*",
      serveStatic({
        root: clientDir,
        precompressed: true,
        onFound: (_path, c) => c.header("Cache-Control", IMMUTABLE),
      }),
    );
    // public/ files, listed once: a page request then costs no disk lookup.
    const publicFiles = listPublicFiles(clientDir);
    const servePublic = serveStatic({
      root: clientDir,
      onFound: (_path, c) => c.header("Cache-Control", SHORT),
    });
    app.use("*", (c, next) => (publicFiles.has(c.req.path) ? servePublic(c, next) : next()));
  }

  // Uploaded photos: content-hashed names, so a URL's bytes never change.
  app.on(["GET", "HEAD"], "/uploads/*", async (c) => {
    const key = uploadKey(c.req.path);
    const file = key ? await photos.get(key) : null;
    if (!file) return c.text("お探しの画像は見つかりませんでした。", 404);
    c.header("Cache-Control", IMMUTABLE);
    c.header("Content-Type", file.contentType);
    return c.body(file.body as Uint8Array<ArrayBuffer>);
  });

  app.use(privateAnswers());

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      await database.ping();
      return c.json({ status: "ready", database: database.engine });
    } catch (error) {
      log.error("readiness check failed", {
        requestId: c.get("requestId"),
        ...describeError(error),
      });
      return c.json({ status: "unavailable" }, 503);
    }
  });

  // The provider's webhooks (decision 0078): authenticated by their signature over the raw
  // body, which nothing before this may have read or rewritten.
  app.post(
    "/api/payments/webhook",
    paymentsWebhook({ db: database.db, payments, log, now: now ?? (() => new Date()) }),
  );

  // LINE's webhook (decision 0089): its signature is over the raw body, as above.
  app.post(
    "/api/line/webhook",
    lineWebhook({ db: database.db, line, limits: accounts.limits, log }),
  );

  app.use(rejectCrossSiteWrites(new URL(config.PUBLIC_URL).origin));
  // Before anything reads a body: 1 MB, except the photo upload (10 MB and the form around it).
  app.use(
    bodyLimit([
      {
        path: /^\/admin\/salons\/edit\/[^/]+\/photos(\.data)?$/,
        maxBytes: MAX_PHOTO_BYTES + 256 * 1024,
        message: TOO_LARGE_MESSAGE,
      },
    ]),
  );
  // Before Better Auth and the routes: NUL bytes, broken forms, bad callback URLs.
  app.use(screenInput(new URL(config.PUBLIC_URL).origin));

  // Better Auth owns /api/auth/* (mail links, external sign-in callbacks,
  // JSON endpoints); the password policy is ours, served beside it.
  app.get("/api/auth/password-policy", (c) => c.json(accounts.policy));
  app.use("/api/auth/*", authEndpointGuard(accounts));
  app.on(["GET", "POST"], "/api/auth/*", async (c) => {
    const { answer, lostDatabase } = await withAuthFailure(() => accounts.auth.handler(c.req.raw));
    // Thrown on to onError, which answers a lost database 503 with Retry-After.
    if (answer.status >= 500 && lostDatabase) throw lostDatabase;
    // Better Auth answers a path it does not know with an empty 404.
    if (answer.status === 404 && !answer.headers.has("content-type")) apiNotFound();
    return withJapaneseAuthErrors(answer);
  });

  // SPEC.md §7: the account record for a bearer token (or session cookie).
  const accountsHandler = accountRecordHandler({ db: database.db, accounts });
  app.get("/api/accounts", accountsHandler);
  app.get("/api/accounts/", accountsHandler);
  // End-to-end tests only: a signed-in, ready user without the mailbox.
  if (config.E2E_LOGIN)
    app.post("/api/test/login", testLoginHandler({ db: database.db, accounts }));

  // Admin JSON API (issue 16): admin-only, checked once for the whole prefix.
  app.route("/api/admin", adminApi({ db: database.db, accounts }));
  // Booking API (issue 15): availability, live slots, holds, bookings, favorites, OpenAPI.
  app.route(
    "/",
    createBookingApi({
      db: database.db,
      config,
      log,
      accounts,
      slotEvents,
      heartbeatMs: liveHeartbeatMs,
      now,
      payments,
    }),
  );

  // Route rules, asked by the client before each client-side navigation
  // (`path` is the path with its query string, which a salon's old-slug rule carries over).
  app.get("/api/route-rules", async (c) => {
    const asked = c.req.query("path") ?? "";
    const split = asked.indexOf("?");
    const path = split < 0 ? asked : asked.slice(0, split);
    const search = split < 0 ? "" : asked.slice(split);
    const rule = path.startsWith("/") ? await redirects.lookup(path, search) : null;
    return c.json({ redirect: rule });
  });

  // Any other /api path, whatever the method, is the API's JSON 404 (README), not the site's page.
  app.all("/api", apiNotFound);
  app.all("/api/*", apiNotFound);

  // Route rules on server requests: a matching document request is
  // redirected before anything renders. Data requests (client navigations)
  // were already checked by the client through /api/route-rules.
  app.on(["GET", "HEAD"], "*", async (c, next) => {
    if (c.req.path.endsWith(".data") || c.req.path.startsWith("/api/")) return next();
    const rule = await redirects.lookup(c.req.path, new URL(c.req.url).search);
    if (!rule) return next();
    return c.redirect(rule.target, rule.statusCode);
  });

  // Public pages for anonymous visitors, shared for a few seconds (decision 0007).
  app.use(pages);

  app.all("*", async (c) => {
    const render = (readDb: Database, request = c.req.raw) => {
      const context = new RouterContextProvider();
      context.set(appContext, {
        db: database.db,
        readDb,
        config,
        log: log.child({ requestId: c.get("requestId") }),
        requestId: c.get("requestId"),
        nonce: c.get("secureHeadersNonce") ?? "",
        accounts,
        redirects,
        photos,
        payments,
        line,
        inputError: c.get("inputError"),
      });
      return handleRequest(request, context);
    };
    const onReplica =
      replica !== undefined && !readsPrimary(c) && (replicaMonitor?.inUse() ?? true);
    let response = await render(onReplica ? replica.db : database.db);
    if (
      onReplica &&
      response.status === 503 &&
      (c.req.method === "GET" || c.req.method === "HEAD")
    ) {
      // The database was out of reach (server/db/unavailable.ts), most likely the replica
      // this page read: read it once more from the primary rather than show the error,
      // and have the monitor check at once, so the next pages skip the replica (decision 0074).
      // A GET page's loaders only read, so running them twice is safe.
      void replicaMonitor?.checkNow();
      log.warn("page failed on the replica; read again from the primary", {
        requestId: c.get("requestId"),
        path: c.req.path,
      });
      await response.body?.cancel().catch(() => {});
      // A new Request: reads are memoized per Request (salon-sections.ts, current-user.ts),
      // and the failed ones must not be handed back.
      response = await render(database.db, new Request(c.req.raw));
    }
    if (response.status === 503 && !response.headers.has("retry-after")) {
      // The page said the database is out of reach; say when to come back, as /api does.
      response = new Response(response.body, response);
      response.headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    }
    if (response.status >= 400 && isCrawler(c.req.header("user-agent"))) {
      log.warn("error status served to crawler without page", {
        requestId: c.get("requestId"),
        path: c.req.path,
        status: response.status,
        userAgent: c.req.header("user-agent"),
      });
      return new Response(null, { status: response.status });
    }
    return response;
  });

  app.onError((error, c) => {
    const domain = toDomainError(error);
    if (domain) {
      noteUnavailable(c, domain, error, log);
      return domainErrorResponse(c, domain);
    }
    log.error("unhandled error", {
      requestId: c.get("requestId"),
      path: c.req.path,
      ...describeError(error),
    });
    const message = "問題が発生しました。しばらくしてから再度お試しください。";
    if (isApiPath(c.req.path)) return c.json({ error: { code: "internal_error", message } }, 500);
    return c.text(message, 500);
  });

  return app;
}

/** URL paths of the built client's files outside assets/ (which has its own handler). */
function listPublicFiles(clientDir: string): Set<string> {
  // Tests build the app before `npm run build` has made the folder: then there is nothing to serve.
  if (!existsSync(clientDir)) return new Set();
  const files = readdirSync(clientDir, { recursive: true, withFileTypes: true });
  return new Set(
    files
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(clientDir, path.join(entry.parentPath, entry.name)))
      .map((relative) => `/${relative.split(path.sep).join("/")}`)
      .filter((urlPath) => !urlPath.startsWith("/assets/")),
  );
}

const TAG_MANAGER_HOSTS = ["https://www.googletagmanager.com", "https://www.google-analytics.com"];

function contentSecurityPolicy(config: Config) {
  const tags = config.GTM_ID ? TAG_MANAGER_HOSTS : [];
  // The search's map view draws its tiles as images from the tile server (decision 0058).
  const tiles = mapTileOrigin(config);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", NONCE, ...tags],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:", ...tags, ...(tiles ? [tiles] : [])],
    fontSrc: ["'self'"],
    connectSrc: ["'self'", ...tags],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
  };
}

function apiNotFound(): never {
  throw new NotFoundError("このURLのAPIはありません。パスとメソッドをご確認ください。");
}
