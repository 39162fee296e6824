import { createHmac } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type Redis from "ioredis";
import { normalizeEmail } from "../../common/field-rules";
import type { Database } from "../db/client";
import { rateLimits } from "../db/schema";

export type RateLimitRule = { window: number; max: number };
export type RateLimitResult = { allowed: boolean; retryAfter: number | null };

/**
 * One atomic "count this request" step, in the shape Better Auth's
 * `rateLimit.customStorage` takes, so the /api/auth endpoints and our form
 * actions share the counters. Counters live in the database or in Redis,
 * never in process memory, so a limit holds across several app servers.
 */
export type RateLimitStore = {
  consume(key: string, rule: RateLimitRule): Promise<RateLimitResult>;
  /** Releases the store's own connection (Redis) when the server stops. */
  close(): Promise<void>;
};

/** How often, at most, one app server deletes expired counters. */
const CLEANUP_EVERY_MS = 60_000;

export function databaseRateLimitStore(
  db: Database,
  clock: () => Date = () => new Date(),
): RateLimitStore {
  let longestWindow = 0;
  let lastCleanup = 0;
  /**
   * Every key ever counted would otherwise stay forever (one row per IP and
   * address tried). Rows whose window ended longer ago than the longest rule
   * this server uses can only restart at 1, so deleting them changes no
   * answer; done on write, at most once a minute.
   */
  async function deleteExpired(now: Date) {
    if (now.getTime() - lastCleanup < CLEANUP_EVERY_MS) return;
    lastCleanup = now.getTime();
    const cutoff = new Date(now.getTime() - longestWindow * 1000);
    await db.delete(rateLimits).where(lt(rateLimits.windowStart, cutoff));
  }

  return {
    async consume(key, rule) {
      const now = clock();
      longestWindow = Math.max(longestWindow, rule.window);
      await deleteExpired(now);
      const cutoff = new Date(now.getTime() - rule.window * 1000).toISOString();
      // One statement: concurrent requests on the same key serialize on the row.
      const [row] = await db
        .insert(rateLimits)
        .values({ key, count: 1, windowStart: now })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when "rate_limits"."window_start" <= ${cutoff}::timestamptz then 1 else "rate_limits"."count" + 1 end`,
            windowStart: sql`case when "rate_limits"."window_start" <= ${cutoff}::timestamptz then ${now.toISOString()}::timestamptz else "rate_limits"."window_start" end`,
          },
        })
        .returning();
      if (!row) throw new Error("rate limit row not written");
      if (row.count <= rule.max) return { allowed: true, retryAfter: null };
      const endsAt = row.windowStart.getTime() + rule.window * 1000;
      return {
        allowed: false,
        retryAfter: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)),
      };
    },
    // The database handle belongs to the server, which closes it.
    async close() {},
  };
}

export function redisRateLimitStore(redis: Redis): RateLimitStore {
  return {
    async consume(key, rule) {
      const results = await redis
        .multi()
        .set(`rl:${key}`, 0, "EX", rule.window, "NX")
        .incr(`rl:${key}`)
        .ttl(`rl:${key}`)
        .exec();
      const count = Number(results?.[1]?.[1] ?? 0);
      const ttl = Number(results?.[2]?.[1] ?? rule.window);
      return count <= rule.max
        ? { allowed: true, retryAfter: null }
        : { allowed: false, retryAfter: Math.max(1, ttl) };
    },
    async close() {
      // QUIT's reply comes before the socket is closed: wait for the end too.
      const ended = new Promise((resolve) => redis.once("end", resolve));
      await redis.quit();
      if (redis.status !== "end") await ended;
    },
  };
}

/**
 * The store under keys that name nobody: every key (it may hold an address,
 * a phone number, a client IP) is stored as its HMAC-SHA256 under a server
 * secret, so the database's `rate_limits` rows and Redis hold no personal
 * data, and without the secret nobody can test a guessed address against
 * them (a plain hash of an address is found by hashing a list of addresses).
 * Counting is unchanged: one key in, one fixed key stored (decision 0067).
 */
export function keyedRateLimitStore(store: RateLimitStore, secret: string): RateLimitStore {
  // A key of its own, derived from the auth secret, used for nothing else.
  const key = createHmac("sha256", secret).update("rate-limit-keys").digest();
  return {
    consume: (name, rule) =>
      store.consume(createHmac("sha256", key).update(name).digest("base64url"), rule),
    close: () => store.close(),
  };
}

export type LimitedAction = "sign-in" | "sign-up" | "password-reset" | "send-mail" | "contact";

/**
 * Better Auth's endpoints (under /api/auth) counted as the form action that
 * does the same thing, under the same keys, so neither path is a way round
 * the other's limit. `account` says where the account's address is: a body
 * field, or the signed-in session for endpoints that act on one's own account.
 */
export type AuthEndpointLimit = {
  action: LimitedAction;
  account: "email" | "newEmail" | "session";
};

export const authEndpointLimits: Record<string, AuthEndpointLimit | AuthEndpointLimit[]> = {
  "/sign-in/email": { action: "sign-in", account: "email" },
  "/sign-up/email": { action: "sign-up", account: "email" },
  "/sign-in/magic-link": { action: "send-mail", account: "email" },
  "/request-password-reset": { action: "password-reset", account: "email" },
  "/forget-password": { action: "password-reset", account: "email" },
  "/reset-password": { action: "password-reset", account: "email" },
  "/send-verification-email": { action: "send-mail", account: "email" },
  // A mail to the new address, and a password check on one's own account.
  "/change-email": [
    { action: "send-mail", account: "newEmail" },
    { action: "sign-in", account: "session" },
  ],
  "/verify-password": { action: "sign-in", account: "session" },
  "/change-password": { action: "sign-in", account: "session" },
  "/set-password": { action: "sign-in", account: "session" },
  "/delete-user": { action: "sign-in", account: "session" },
};

export type RateLimits = {
  store: RateLimitStore;
  window: number;
  perIp: number;
  perAccount: number;
};

/**
 * The actions a known device of the account counts on its own allowance:
 * password guesses, and asking for a reset link (issue 38 §4.4), which
 * strangers could otherwise spend for the owner from five addresses.
 * Other mails asked for an address stay counted on the address.
 */
const DEVICE_ALLOWANCE: ReadonlySet<LimitedAction> = new Set(["sign-in", "password-reset"]);

/**
 * Counts one attempt of `action` against the client address and, when the
 * request names one, the email address: a spray over many accounts from
 * one address and a slow attack on one account from many addresses both stop.
 * From a known device of that account (`device`: the nonce of its genuine
 * device cookie, device-cookie.ts) a sign-in or a reset request counts
 * against the device's own allowance instead, so strangers never lock the
 * owner out of the browsers they signed in with before (decision 0026).
 */
export async function consumeAttempt(
  limits: RateLimits,
  action: LimitedAction,
  who: { ip: string; email?: string; device?: string | null },
): Promise<RateLimitResult> {
  const byIp = await limits.store.consume(`${action}:ip:${who.ip}`, {
    window: limits.window,
    max: limits.perIp,
  });
  if (!byIp.allowed) return byIp;
  if (!who.email) return byIp;
  const key =
    who.device && DEVICE_ALLOWANCE.has(action)
      ? `${action}:device:${who.device}`
      : `${action}:account:${normalizeEmail(who.email).toLowerCase()}`;
  return limits.store.consume(key, { window: limits.window, max: limits.perAccount });
}
