import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createAccountServices } from "../../server/accounts/account-services";
import { requireAdmin, requireLogin } from "../../server/accounts/guards";
import { loadConfig } from "../../server/config";
import { appContext } from "../../server/context";
import { DomainError } from "../../server/errors/domain-error";
import { createHttpApp, type HttpAppDeps } from "../../server/http/app";
import {
  domainErrorResponse,
  isApiPath,
  thrownAnswers,
  toDomainError,
} from "../../server/http/errors";
import { createLogger } from "../../server/logger";
import { notFound } from "../../server/routing/not-found";
import { createTestDatabase, type TestDatabase, withTestDatabase } from "../support/test-database";

// The Hono layer on its own: React Router's handler is replaced by a plain
// function so the middleware order, probes and error handling are visible.
const database = withTestDatabase();
const lines: string[] = [];
const log = createLogger("info", {}, (line) => lines.push(line));

function app(
  env: Record<string, string>,
  handleRequest: HttpAppDeps["handleRequest"] = async () => new Response("<p>ok</p>"),
) {
  return createHttpApp({
    config: loadConfig(env),
    database,
    log,
    handleRequest,
    clientDir: "build/client",
  });
}

/**
 * A database that is gone (created, then dropped), for the answers when it
 * cannot answer: one per file, since starting a PGlite of its own costs
 * seconds and both tests only need it closed.
 */
let gone: Promise<TestDatabase> | undefined;
const goneDatabase = () =>
  (gone ??= createTestDatabase().then(async (closed) => {
    await closed.drop();
    return closed;
  }));

describe("Hono application", () => {
  it("sends HSTS only in production", async () => {
    const production = await app({
      NODE_ENV: "production",
      BETTER_AUTH_SECRET: "x".repeat(32),
    }).request("/healthz");
    expect(production.headers.get("strict-transport-security")).toContain("max-age=");
    const development = await app({}).request("/healthz");
    expect(development.headers.get("strict-transport-security")).toBeNull();
  });

  it("hands the database, config and request id to React Router through the context", async () => {
    let seen: { requestId: string; hasDb: boolean; port: number } | undefined;
    const response = await app({ PORT: "4321" }, async (_request, context) => {
      const ctx = context.get(appContext);
      seen = { requestId: ctx.requestId, hasDb: ctx.db === database.db, port: ctx.config.PORT };
      return new Response("ok");
    }).request("/anything");
    expect(seen).toEqual({
      requestId: response.headers.get("x-request-id"),
      hasDb: true,
      port: 4321,
    });
  });

  it("answers an unexpected error with a Japanese 500 and no stack trace, and logs it", async () => {
    const response = await app({}, async () => {
      throw new Error("secret internals at /work/server.ts:42");
    }).request("/boom");
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).toContain("問題が発生しました");
    expect(body).not.toContain("secret internals");
    expect(lines.some((line) => line.includes("secret internals"))).toBe(true);
  });

  it("turns domain errors, guards and notFound() thrown in a handler into one kind of answer", async () => {
    const accounts = createAccountServices(database.db, loadConfig({}));
    // Pages: React Router's handler. /api: a Hono handler with the app's two
    // converters (every unknown /api path is the app's own 404 now).
    const throwing = (thrown: (request: Request) => unknown) => {
      const site = app({}, async (request) => {
        throw await thrown(request);
      });
      const api = new Hono()
        .use(thrownAnswers(log))
        .all("/api/*", async (c) => {
          throw await thrown(c.req.raw);
        })
        .onError((error, c) => {
          const domain = toDomainError(error);
          if (!domain) throw error;
          return domainErrorResponse(c, domain);
        });
      return {
        request: (path: string) =>
          Promise.resolve(isApiPath(path) ? api.request(path) : site.request(path)),
      };
    };
    const slotTaken = () => new DomainError("slot_taken", "この時間は予約できません。", 409);

    const api = await throwing(slotTaken).request("/api/thrown");
    expect(api.status).toBe(409);
    expect(api.headers.get("cache-control")).toBe("private, no-store");
    expect(await api.json()).toEqual({
      error: { code: "slot_taken", message: "この時間は予約できません。" },
    });
    const page = await throwing(slotTaken).request("/bookings");
    expect(page.status).toBe(409);
    expect(await page.text()).toBe("この時間は予約できません。");

    // Guards and notFound() serve loaders first (they throw React Router's
    // redirect and data()); from a Hono handler they answer as JSON too.
    const guest = await throwing((request) =>
      requireLogin(request, { db: database.db, accounts }).catch((thrown) => thrown),
    ).request("/api/mine");
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const admin = await throwing((request) =>
      requireAdmin(request, { db: database.db, accounts }).catch((thrown) => thrown),
    ).request("/api/admin/things");
    // A guest: requireAdmin sends them to sign in first, which an API caller gets as 401.
    expect(admin.status).toBe(401);
    expect(((await admin.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const missing = await throwing((request) => notFound(request)).request("/api/salons/x");
    expect(missing.status).toBe(404);
    await accounts.close();
  });

  it("answers an unexpected error under /api as a JSON 500", async () => {
    // The route rules cannot be read from a database that is gone.
    const closed = await goneDatabase();
    const response = await createHttpApp({
      config: loadConfig({}),
      database: closed,
      log,
      handleRequest: async () => new Response("ok"),
    }).request("/api/route-rules?path=/about");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: "internal_error", message: expect.stringContaining("問題が発生しました") },
    });
  });

  it("answers any unknown /api path with the API's JSON 404, whatever the method", async () => {
    const site = app(
      {},
      async () => new Response("<h1>ページが見つかりません</h1>", { status: 404 }),
    );
    for (const path of ["/api", "/api/nope", "/api/salons/x/nope", "/api/auth/nope"]) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const response = await site.request(path, {
          method,
          headers: { "content-type": "application/json", origin: "http://localhost:3000" },
          body: method === "GET" ? undefined : "{}",
        });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get("content-type"), `${method} ${path}`).toContain(
          "application/json",
        );
        expect(await response.json(), `${method} ${path}`).toEqual({
          error: { code: "not_found", message: expect.stringContaining("APIはありません") },
        });
      }
    }
    // A page path is still the site's page.
    expect(await (await site.request("/nope")).text()).toContain("ページが見つかりません");
  });

  it("keeps a crawler's error status but sends no page", async () => {
    const notFound = async () => new Response("<h1>ページが見つかりません</h1>", { status: 404 });
    const bot = await app({}, notFound).request("/missing", {
      headers: { "user-agent": "Googlebot/2.1" },
    });
    expect(bot.status).toBe(404);
    expect(await bot.text()).toBe("");
    const person = await app({}, notFound).request("/missing", {
      headers: {
        "user-agent":
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
      },
    });
    expect(await person.text()).toContain("ページが見つかりません");
  });

  it("reports not ready when the database cannot answer", async () => {
    const closed = await goneDatabase();
    const response = await createHttpApp({
      config: loadConfig({}),
      database: closed,
      log,
      handleRequest: async () => new Response("ok"),
    }).request("/readyz");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable" });
  });
});
