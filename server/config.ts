import { isIP } from "node:net";
import { z } from "zod";
import { isPostgresUrl } from "./db/postgres-url";

/**
 * Every setting the server reads from the environment, parsed once at start
 * so a bad value stops the process with a clear message instead of failing
 * on some later request. `.env.example` documents each one.
 */
const booleanFlag = z
  .enum(["true", "false", "1", "0"])
  .default("false")
  .transform((value) => value === "true" || value === "1");

/** `192.0.2.1`, `2001:db8::1`, or a CIDR range such as `10.0.0.0/8`. */
function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Empty: PGlite in ./data/db. `memory://`: throwaway PGlite. `postgres://…`: a server. */
  DATABASE_URL: z.string().default("./data/db"),
  /**
   * A streaming replica of DATABASE_URL's PostgreSQL (decision 0074): the
   * public pages that may lag a little (search, areas, listings, a salon's
   * public tabs, the sitemap) read it; everything that decides or shows a
   * booking, a hold, availability, an account or the back office, and a
   * browser's reads for a few seconds after it wrote, stay on the primary.
   * Unset: every read goes to DATABASE_URL.
   */
  DATABASE_REPLICA_URL: z.string().optional(),
  /**
   * How often each app server checks its replica (milliseconds): whether it
   * answers, and how far behind the primary it has replayed. While it fails
   * or lags, the pages read the primary (server/db/replica-monitor.server.ts).
   */
  REPLICA_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /**
   * Lag (seconds) past which the replica is left for the primary; it is
   * read again after three checks in a row at most half this behind. Below
   * the read-own-writes cookie's 15 s (decision 0074), which assumes the
   * replica is never further behind than that.
   */
  REPLICA_MAX_LAG_SECONDS: z.coerce
    .number()
    .min(1)
    .max(14, "15秒（書いた直後のブラウザが主を読む時間）より短くしてください")
    .default(5),
  /**
   * Absolute origin used for canonical URLs, Open Graph, mail links and
   * Better Auth's redirects. Unset: http://localhost:PORT, so `PORT=4000
   * npm start` sends links that work on that port.
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "http(s):// で始まるURLにしてください" })
    .optional(),
  /** Google Tag Manager container (GTM-XXXX); the script loads only when set. */
  GTM_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]+$/, "GTM_ID must look like GTM-XXXXXXX")
    .optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Seconds to wait for in-flight requests on SIGTERM before closing anyway. */
  SHUTDOWN_TIMEOUT: z.coerce.number().int().min(1).default(10),
  /**
   * Server processes sharing the port (server/cluster.ts), PostgreSQL only;
   * about one per core. PGlite always runs one.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Prometheus metrics (GET /metrics, decision 0070) on a port of their own,
   * never the site's; unset: not served. With WEB_CONCURRENCY the primary
   * process answers for all of them.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Where the metrics port listens: loopback unless Prometheus scrapes from another machine. */
  METRICS_HOST: z.string().default("127.0.0.1"),
  /** Public pages held by the anonymous page micro-cache (decision 0007); 0 turns it off. */
  PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).default(500),

  /**
   * Raster map tiles for the search's map view (issue 31, decision 0058): a
   * `{z}/{x}/{y}` URL template. Unset: no map, the search is a list only.
   */
  MAP_TILE_URL: z
    .url({ protocol: /^https?$/, error: "http(s):// で始まるURLにしてください" })
    .refine(
      (value) => ["{z}", "{x}", "{y}"].every((part) => value.includes(part)),
      "{z}, {x}, {y} を含むタイルのURLにしてください",
    )
    .refine(
      (value) => !value.includes("{s}"),
      "{s} は使えません（タイルの配信元を一つにしてください）",
    )
    .optional(),
  /** The tiles' credit shown on the map (the tile server's licence requires it). */
  MAP_TILE_ATTRIBUTION: z.string().default("© OpenStreetMap contributors"),

  /** Signs session cookies and mail tokens. Required in production (checked below). */
  BETTER_AUTH_SECRET: z.string().min(32, "32文字以上のランダムな文字列にしてください").optional(),
  /** `smtp://user:pass@host:587`: mails go over SMTP. Unset: they go to the outbox (/dev/mailbox). */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Salon Navi <no-reply@salon-navi.localhost>"),
  /**
   * The waiting list's quiet hours (22:00–08:00 in the salon's zone, no offers
   * then; decision 0055). `off` only for the end-to-end tests, which must pass
   * at any hour (the integration tests prove the hours with a frozen clock).
   */
  WAITLIST_QUIET_HOURS: z.enum(["on", "off"]).default("on"),
  /**
   * Salons' webhooks (decision 0086): `on` lets an endpoint be http:// on a
   * loopback address (127.0.0.0/8, ::1) and lets deliveries reach it; only for
   * tests and development, never in production.
   */
  WEBHOOK_ALLOW_LOOPBACK: z.enum(["on", "off"]).default("off"),
  /** Seconds a webhook delivery waits for the receiver's answer. */
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(30).default(10),
  /** Rate-limit counters in Redis (shared by app servers); unset: in the database. */
  REDIS_URL: z.string().optional(),
  /**
   * Reverse proxies in front of the app, whose forwarded headers tell the
   * visitor's scheme, host and address (decision 0069,
   * server/http/visitor-request.ts): a hop count (`true`: 1) trusted whoever
   * connects, or a comma-separated list of the proxies' addresses and CIDR
   * ranges (`10.0.0.0/8,::1`), trusted only when the socket's peer is one.
   * `false`/0: forwarded headers are ignored.
   */
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((value, ctx): ProxyTrust => {
      if (value === "true" || value === "false") return { hops: value === "true" ? 1 : 0 };
      if (/^\d+$/.test(value) && Number(value) <= 10) return { hops: Number(value) };
      const proxies = value.split(",").map((entry) => entry.trim());
      if (proxies.every(isAddressOrRange)) return { proxies };
      ctx.addIssue({
        code: "custom",
        message:
          "true/false、段数（0〜10）、またはプロキシのIPアドレス・CIDRのカンマ区切り（例: 10.0.0.0/8,127.0.0.1）にしてください",
      });
      return z.NEVER;
    }),
  /**
   * Which headers the trusted proxies write: `x-forwarded` (X-Forwarded-For,
   * -Proto, -Host; nginx, Caddy, Traefik, load balancers) or `forwarded`
   * (RFC 7239). The other family is never read: a proxy passes on what it
   * does not write, so a client could forge it.
   */
  PROXY_HEADERS: z.enum(["x-forwarded", "forwarded"]).default("x-forwarded"),
  /** End-to-end tests only: POST /api/test/login makes a signed-in user. Refused in production. */
  E2E_LOGIN: booleanFlag,
  RATE_LIMIT_WINDOW: z.coerce.number().int().min(1).default(60),
  /** Sign-in, sign-up, reset and mail requests per window from one IP address. */
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  /** The same requests per window for one email address. */
  RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  /** Slot holds, and separately bookings, per RATE_LIMIT_WINDOW from one IP address. */
  BOOKING_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(60),
  /** Slot holds, and separately bookings, per RATE_LIMIT_WINDOW for one account. */
  BOOKING_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(20),
  /**
   * Live (unexpired) holds at one time, so nobody can block a salon's day
   * (decision 0034): per member account, per guest browser (its hold
   * cookie), and per client address for guests' holds.
   */
  LIVE_HOLDS_PER_ACCOUNT: z.coerce.number().int().min(1).default(3),
  LIVE_HOLDS_PER_BROWSER: z.coerce.number().int().min(1).default(3),
  LIVE_GUEST_HOLDS_PER_IP: z.coerce.number().int().min(1).default(3),

  /** Uploaded photos (WebP files with content-hashed names) when no S3 bucket is set. */
  UPLOADS_DIR: z.string().default("./data/uploads"),
  /**
   * An S3-compatible bucket for uploaded photos instead of UPLOADS_DIR: set
   * S3_BUCKET, S3_ENDPOINT and the key pair together (path-style requests,
   * so MinIO, R2 and the like work as well as AWS).
   */
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),

  /**
   * Online payment (issue 40, decision 0076): Stripe's secret key (sk_…/rk_…)
   * and the signing secret of the webhook endpoint (whsec_…), set together.
   * Unset outside production: a local fake Stripe (テスト決済) stands in;
   * unset in production: no online payment.
   */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "sk_test_… / sk_live_… の形のキーにしてください")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "whsec_… の形の署名シークレットにしてください")
    .optional(),
  /** Where the Stripe SDK sends its requests; unset: api.stripe.com. Only for a local fake or stripe-mock. */
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: "http(s):// で始まるURLにしてください" })
    .optional(),

  /**
   * LINE messages (issue 41 §1, decision 0089): the Messaging API channel's
   * secret (signs the inbound webhook) and its long-lived access token, set
   * together. Unset outside production: a local fake Messaging API (/dev/line)
   * stands in; unset in production: every message goes by mail.
   */
  LINE_CHANNEL_SECRET: z.string().min(1).optional(),
  LINE_CHANNEL_ACCESS_TOKEN: z.string().min(1).optional(),
  /** Where the LINE SDK sends its requests; unset: api.line.me. Only for a local fake. */
  LINE_API_URL: z
    .url({ protocol: /^https?$/, error: "http(s):// で始まるURLにしてください" })
    .optional(),
  /** Pushes a month (Asia/Tokyo) before messages go by mail instead: the plan's free allowance. */
  LINE_MONTHLY_QUOTA: z.coerce.number().int().min(0).default(5000),

  /**
   * The session sync of SPEC §7 (decision 0088): a sign-in POSTs an ID token (HS256, signed
   * with SESSION_SYNC_SECRET, 300 s) to this URL with a bearer header; a sign-out sends DELETE.
   */
  SESSION_SYNC_URL: z
    .url({ protocol: /^https?$/, error: "http(s):// で始まるURLにしてください" })
    .optional(),
  SESSION_SYNC_SECRET: z.string().min(32, "32文字以上のランダムな文字列にしてください").optional(),

  /** External sign-in: a provider is offered only when its client id and secret are set. */
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
  LINE_CLIENT_ID: z.string().optional(),
  LINE_CLIENT_SECRET: z.string().optional(),
  LINE_ISSUER: z.url().default("https://access.line.me"),

  /** Password policy (SPEC.md §5), served at /api/auth/password-policy. */
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(1).max(128).default(6),
  PASSWORD_MAX_LENGTH: z.coerce.number().int().min(1).max(128).default(128),
  PASSWORD_REQUIRE_LOWERCASE: booleanFlag,
  PASSWORD_REQUIRE_UPPERCASE: booleanFlag,
  PASSWORD_REQUIRE_NUMERIC: booleanFlag,
  PASSWORD_REQUIRE_NON_ALPHANUMERIC: booleanFlag,
});

/** A fixed secret for development and tests only; production refuses to start without its own. */
export const DEVELOPMENT_AUTH_SECRET = "development-only-secret-do-not-use-in-production-0001";

/** Whose forwarded headers are believed: the last `hops` proxies, or those at these addresses. */
export type ProxyTrust = { hops: number } | { proxies: readonly string[] };
export type ProxyHeaders = "x-forwarded" | "forwarded";

export type Config = Omit<z.infer<typeof configSchema>, "PUBLIC_URL"> & {
  /** Always set: the configured origin, or http://localhost:PORT; no trailing slash. */
  PUBLIC_URL: string;
  isProduction: boolean;
  BETTER_AUTH_SECRET: string;
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value !== "")),
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${problems.join("\n")}`);
  }
  const isProduction = parsed.data.NODE_ENV === "production";
  if (isProduction && !parsed.data.BETTER_AUTH_SECRET) {
    throw new Error(
      "Invalid environment:\n  BETTER_AUTH_SECRET: required in production (32+ random characters)",
    );
  }
  const trustsProxy = "proxies" in parsed.data.TRUST_PROXY || parsed.data.TRUST_PROXY.hops > 0;
  // Node speaks plain HTTP: an https site is a TLS proxy in front, and
  // without trusting it every form post would look cross-site (issue 39 §1).
  if (isProduction && parsed.data.PUBLIC_URL?.startsWith("https:") && !trustsProxy) {
    throw new Error(
      "Invalid environment:\n  TRUST_PROXY: PUBLIC_URL が https:// のときは、TLS を終端するプロキシを TRUST_PROXY に設定してください（段数 1 か、プロキシのアドレス）。" +
        "\n  PUBLIC_URL is https:// but nothing tells the app the visitor's scheme: set TRUST_PROXY to the TLS proxy's hop count (1) or its addresses.",
    );
  }
  if (isProduction && parsed.data.E2E_LOGIN) {
    throw new Error("Invalid environment:\n  E2E_LOGIN: never in production (it signs anyone in)");
  }
  if (isProduction && parsed.data.WEBHOOK_ALLOW_LOOPBACK === "on") {
    throw new Error(
      "Invalid environment:\n  WEBHOOK_ALLOW_LOOPBACK: never on in production (webhooks could reach the server itself)",
    );
  }
  if (isProduction && parsed.data.WAITLIST_QUIET_HOURS === "off") {
    throw new Error(
      "Invalid environment:\n  WAITLIST_QUIET_HOURS: never off in production (offers would go out at night)",
    );
  }
  const s3 = [
    parsed.data.S3_BUCKET,
    parsed.data.S3_ENDPOINT,
    parsed.data.S3_ACCESS_KEY_ID,
    parsed.data.S3_SECRET_ACCESS_KEY,
  ];
  if (s3.some(Boolean) && !s3.every(Boolean)) {
    throw new Error(
      "Invalid environment:\n  S3_*: set S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together",
    );
  }
  const replica = parsed.data.DATABASE_REPLICA_URL;
  if (replica && (!isPostgresUrl(replica) || !isPostgresUrl(parsed.data.DATABASE_URL))) {
    throw new Error(
      "Invalid environment:\n  DATABASE_REPLICA_URL: a postgres:// URL, and only with a postgres:// DATABASE_URL (a replica of that server)",
    );
  }
  if (Boolean(parsed.data.STRIPE_SECRET_KEY) !== Boolean(parsed.data.STRIPE_WEBHOOK_SECRET)) {
    throw new Error(
      "Invalid environment:\n  STRIPE_*: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET together",
    );
  }
  if (/^(sk|rk)_live_/.test(parsed.data.STRIPE_SECRET_KEY ?? "") && parsed.data.STRIPE_API_URL) {
    throw new Error(
      "Invalid environment:\n  STRIPE_API_URL: never with a live key (the key would go to another server)",
    );
  }
  if (Boolean(parsed.data.LINE_CHANNEL_SECRET) !== Boolean(parsed.data.LINE_CHANNEL_ACCESS_TOKEN)) {
    throw new Error(
      "Invalid environment:\n  LINE_CHANNEL_*: set LINE_CHANNEL_SECRET and LINE_CHANNEL_ACCESS_TOKEN together",
    );
  }
  if (Boolean(parsed.data.SESSION_SYNC_URL) !== Boolean(parsed.data.SESSION_SYNC_SECRET)) {
    throw new Error(
      "Invalid environment:\n  SESSION_SYNC_*: set SESSION_SYNC_URL and SESSION_SYNC_SECRET together",
    );
  }
  if (parsed.data.PASSWORD_MAX_LENGTH < parsed.data.PASSWORD_MIN_LENGTH) {
    throw new Error("Invalid environment:\n  PASSWORD_MAX_LENGTH: must be >= PASSWORD_MIN_LENGTH");
  }
  return {
    ...parsed.data,
    PUBLIC_URL: (parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`).replace(
      /\/+$/,
      "",
    ),
    BETTER_AUTH_SECRET: parsed.data.BETTER_AUTH_SECRET ?? DEVELOPMENT_AUTH_SECRET,
    isProduction,
  };
}

/** The origin serving the map tiles (the CSP's img-src allows it), or null when there is no map. */
export function mapTileOrigin(config: Pick<Config, "MAP_TILE_URL">): string | null {
  if (!config.MAP_TILE_URL) return null;
  return new URL(config.MAP_TILE_URL.replace(/\{[a-z]\}/g, "0")).origin;
}
