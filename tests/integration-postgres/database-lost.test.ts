import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AccountServices,
  createAccountServices,
} from "../../server/accounts/account-services";
import { type DatabaseHandle, openDatabase } from "../../server/db/client";
import { createLogger } from "../../server/logger";
import { ORIGIN, testLogin } from "../support/accounts";
import { createFullApp } from "../support/full-app";
import { startRedisServer } from "../support/redis-server";
import { startTcpRelay, type TcpRelay } from "../support/tcp-relay";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * The database goes away under a signed-in visitor (a failover, a restart):
 * the app server reaches PostgreSQL through a TCP relay that the test cuts,
 * so pooled connections are reset and new ones refused, as when the proxy
 * in front of the nodes drops a demoted primary. Every request that needs
 * the session goes through Better Auth's session lookup, which wraps the
 * lost connection in its own APIError: it must still answer 503 with
 * Retry-After, on pages and on /api, not 500.
 */
const env = {
  PUBLIC_URL: ORIGIN,
  TRUST_PROXY: "true",
  E2E_LOGIN: "true",
  PAGE_CACHE_ENTRIES: "0",
  RATE_LIMIT_PER_IP: "1000000",
  RATE_LIMIT_PER_ACCOUNT: "1000000",
};

let database: TestDatabase;
let redis: Awaited<ReturnType<typeof startRedisServer>>;
let accounts: AccountServices;
let relay: TcpRelay;
let throughRelay: DatabaseHandle;
let app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> };
const lines: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // Rate limits in Redis, as on a cluster: then a request to Better Auth's endpoints reaches
  // the session lookup (with them in the database, the limiter itself fails first).
  redis = await startRedisServer();
  const server = new URL(process.env.TEST_DATABASE_URL ?? "");
  relay = await startTcpRelay({ host: server.hostname, port: Number(server.port || 5432) });
  throughRelay = await openDatabase(relay.urlThrough(database.url ?? ""), createLogger("silent"));
  const full = await createFullApp(database, { ...env, REDIS_URL: redis.url });
  // Its accounts (Better Auth) are built on the relayed handle too.
  const log = createLogger("info", {}, (line) => lines.push(line));
  accounts = createAccountServices(throughRelay.db, full.config, log);
  app = full.serverOn(throughRelay, { log, accounts });
});
afterAll(async () => {
  await relay?.restore();
  await throughRelay?.close();
  await relay?.close();
  await accounts?.close();
  redis?.stop();
  await database?.drop();
});

describe("the database lost under a signed-in visitor", () => {
  it("answers 503 with Retry-After on pages and on /api, and 200 again once it is back", async () => {
    const { b } = await testLogin(app, database.db, "user");
    expect((await b.request("/account/history")).status).toBe(200);
    expect((await b.request("/api/favorites")).status).toBe(200);

    await relay.cut();
    const page = await b.request("/account/history");
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    const html = await page.text();
    expect(html).toContain("問題が発生しました");
    expect(html).toContain("一時的にアクセスできない");
    // It failed where it was meant to: in Better Auth's session lookup, wrapped in its APIError.
    const warning = lines.find((line) => line.includes('"database unavailable"'));
    expect(warning).toContain('"errorName":"APIError"');

    for (const path of ["/api/favorites", "/api/accounts"]) {
      const api = await b.request(path);
      expect(api.status, path).toBe(503);
      expect(api.headers.get("retry-after"), path).toBe("5");
      expect(await api.json(), path).toMatchObject({
        error: { code: "service_unavailable", message: expect.stringContaining("時間をおいて") },
      });
    }
    // Better Auth's own endpoint: its handler would answer the wrapped error with a bare 500.
    const session = await b.request("/api/auth/get-session");
    expect(session.status).toBe(503);
    expect(session.headers.get("retry-after")).toBe("5");
    expect(
      lines.filter((line) => line.includes('"path":"/api/auth/get-session"')).join(),
    ).toContain('"errorName":"APIError"');
    expect(lines.some((line) => line.includes('"unhandled'))).toBe(false);

    await relay.restore();
    expect((await b.request("/account/history")).status).toBe(200);
  });
});
