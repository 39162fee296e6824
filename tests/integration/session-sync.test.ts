import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  SYNC_TOKEN_SECONDS,
  sessionSyncJobHandlers,
  sessionSyncJobKind,
} from "../../server/accounts/session-sync.server";
import { setOwnerSuspended } from "../../server/admin/owners";
import { loadConfig } from "../../server/config";
import { jobs, sessions, users } from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import {
  browser,
  createAccountsApp,
  ORIGIN,
  signUpThroughApi,
  uniqueEmail,
} from "../support/accounts";
import { buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/** SPEC §7's session sync (issue 41 §3), against a real HTTP receiver on this machine. */
const database = withTestDatabase();
const SECRET = "session-sync-test-secret-0123456789abcdef";

type Received = { method: string; authorization: string; body: string };
let receiver: Server;
let received: Received[] = [];
/** What the receiver answers next (then 204). */
let answers: number[] = [];
let syncUrl = "";

function readBody(request: IncomingMessage) {
  return new Promise<string>((resolve) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => resolve(body));
  });
}

beforeAll(async () => {
  receiver = createServer(async (request, response) => {
    const body = await readBody(request);
    received.push({
      method: request.method ?? "",
      authorization: request.headers.authorization ?? "",
      body,
    });
    const status = answers.shift() ?? 204;
    // 0: the receiver hangs (the request is left open until the test ends).
    if (status === 0) return;
    response.statusCode = status;
    response.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  syncUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/session`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      receiver.closeAllConnections();
      receiver.close(() => resolve());
    }),
);
beforeEach(async () => {
  received = [];
  answers = [];
  await database.db.delete(jobs).where(eq(jobs.kind, sessionSyncJobKind));
});

function setUp(
  env: Record<string, string> = { SESSION_SYNC_URL: syncUrl, SESSION_SYNC_SECRET: SECRET },
  timeoutMs?: number,
) {
  const { app, config } = createAccountsApp(database, env);
  // The real clock, moved on by `later` to reach a retry's time.
  let offset = 0;
  const worker = createJobWorker({
    db: database.db,
    handlers: sessionSyncJobHandlers(config, createLogger("silent"), timeoutMs),
    log: createLogger("silent"),
    now: () => new Date(Date.now() + offset),
    retryBaseMs: 30_000,
  });
  const later = (ms: number) => {
    offset += ms;
  };
  return { app, config, worker, later };
}

async function signedIn(app: ReturnType<typeof setUp>["app"]) {
  const b = browser(app);
  const email = uniqueEmail("sync");
  const response = await signUpThroughApi(b, email, "secret-pass-1");
  expect(response.status).toBe(200);
  const [user] = await database.db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error("no user");
  return { b, user };
}

async function verified(authorization: string) {
  const token = authorization.replace(/^Bearer /, "");
  const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
    issuer: ORIGIN,
    audience: new URL(syncUrl).origin,
  });
  return { token, payload };
}

const syncJobs = () => database.db.select().from(jobs).where(eq(jobs.kind, sessionSyncJobKind));

describe("the session sync", () => {
  it("posts a verifiable ID token once after a sign-in, and DELETE once after the sign-out", async () => {
    const { app, worker } = setUp();
    const { b, user } = await signedIn(app);
    // The sign-in answered without waiting for the receiver.
    expect(received).toEqual([]);

    await worker.runOnce();
    expect(received.map((r) => r.method)).toEqual(["POST"]);
    const [post] = received;
    if (!post) throw new Error("nothing posted");
    const { token, payload } = await verified(post.authorization);
    expect(JSON.parse(post.body)).toEqual({ idToken: token });
    expect(payload.sub).toBe(user.id);
    expect(payload.email).toBe(user.email);
    expect(Number(payload.exp) - Number(payload.iat)).toBe(SYNC_TOKEN_SECONDS);
    const [session] = await database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(payload.sid).toBe(session?.id);
    // Neither the session's own token nor the secret leaves the server.
    expect(post.body).not.toContain(session?.token ?? "missing");
    expect(post.body).not.toContain(SECRET);

    await worker.runOnce();
    expect(received).toHaveLength(1);

    const out = await b.request("/api/auth/sign-out", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(out.status).toBe(200);
    await worker.runOnce();
    expect(received.map((r) => r.method)).toEqual(["POST", "DELETE"]);
    const deleted = await verified(received[1]?.authorization ?? "");
    expect(deleted.payload.sub).toBe(user.id);
    expect(deleted.payload.sid).toBe(session?.id);
    await worker.runOnce();
    expect(received).toHaveLength(2);
  });

  it("retries when the receiver is down or busy, with the queue's backoff", async () => {
    const { app, worker, later } = setUp();
    await signedIn(app);
    answers = [503, 429];
    await worker.runOnce();
    expect(received).toHaveLength(1);
    const [failed] = await syncJobs();
    expect(failed?.doneAt).toBeNull();
    expect(failed?.lastError).toContain("503");

    // Not before its backoff.
    await worker.runOnce();
    expect(received).toHaveLength(1);
    later(31_000);
    await worker.runOnce();
    expect(received).toHaveLength(2);
    later(61_000);
    await worker.runOnce();
    expect(received.map((r) => r.method)).toEqual(["POST", "POST", "POST"]);
    const [done] = await syncJobs();
    expect(done?.doneAt).not.toBeNull();
  });

  it("gives up on a receiver that does not answer in time, and tries again later", async () => {
    const { app, worker, later } = setUp(undefined, 300);
    await signedIn(app);
    answers = [0];
    await worker.runOnce();
    const [failed] = await syncJobs();
    expect(failed?.doneAt).toBeNull();
    expect(failed?.lastError).toMatch(/timeout|abort/i);
    later(31_000);
    await worker.runOnce();
    expect(received).toHaveLength(2);
    const [done] = await syncJobs();
    expect(done?.doneAt).not.toBeNull();
  });

  it("takes a 4xx as the receiver's answer: not sent again", async () => {
    const { app, worker, later } = setUp();
    await signedIn(app);
    answers = [401];
    await worker.runOnce();
    later(3_600_000);
    await worker.runOnce();
    expect(received).toHaveLength(1);
    const [done] = await syncJobs();
    expect(done?.doneAt).not.toBeNull();
  });

  it("does not post a session that ended before it was told; its DELETE still goes", async () => {
    const { app, worker } = setUp();
    const { b } = await signedIn(app);
    await b.request("/api/auth/sign-out", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await worker.runOnce();
    expect(received.map((r) => r.method)).toEqual(["DELETE"]);
  });

  it("sends DELETE for each session an administrator's suspension ends", async () => {
    const { app, config, worker } = setUp();
    const { user } = await signedIn(app);
    await worker.runOnce();
    expect(received.map((r) => r.method)).toEqual(["POST"]);
    const [session] = await database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    await database.db.update(users).set({ role: "owner" }).where(eq(users.id, user.id));
    const admin = await buildUser(database.db, { role: "admin" });
    await setOwnerSuspended(
      database.db,
      { userId: user.id, suspended: true },
      { id: admin.id },
      new Date(),
      config,
    );
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual(
      [],
    );
    await worker.runOnce();
    expect(received.map((r) => r.method)).toEqual(["POST", "DELETE"]);
    const deleted = await verified(received[1]?.authorization ?? "");
    expect(deleted.payload.sid).toBe(session?.id);
  });

  it("queues nothing when no sync is configured", async () => {
    const { app } = setUp({});
    const { b } = await signedIn(app);
    await b.request("/api/auth/sign-out", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(await syncJobs()).toEqual([]);
  });

  it("is configured with both the URL and a long secret, or neither", () => {
    expect(() => loadConfig({ SESSION_SYNC_URL: syncUrl })).toThrow(/SESSION_SYNC/);
    expect(() => loadConfig({ SESSION_SYNC_URL: syncUrl, SESSION_SYNC_SECRET: "short" })).toThrow(
      /SESSION_SYNC_SECRET/,
    );
    expect(() =>
      loadConfig({ SESSION_SYNC_URL: "ftp://example.jp/x", SESSION_SYNC_SECRET: SECRET }),
    ).toThrow(/SESSION_SYNC_URL/);
  });
});
