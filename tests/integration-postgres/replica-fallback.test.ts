import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "../../server/db/client";
import { openDatabase } from "../../server/db/client";
import { createReplicaMonitor, type ReplicaMonitor } from "../../server/db/replica-monitor.server";
import { createLogger } from "../../server/logger";
import { type AppMetrics, createAppMetrics } from "../../server/metrics/metrics.server";
import { createSlotEvents } from "../../server/realtime/slot-events.server";
import { browser, ORIGIN } from "../support/accounts";
import { buildArea, buildSalonWithStaff } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { startTcpRelay, type TcpRelay } from "../support/tcp-relay";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * The replica goes away and comes back (decision 0074): its pages keep
 * answering 200 from the primary, and read the replica again once it is
 * healthy. The "replica" is another database (as in read-replica.test.ts,
 * so each page shows where it read), reached through a TCP relay that the
 * test cuts and restores as a failover or a dead host would.
 */
const CHECK_MS = 200;
const PRIMARY_NAME = "プライマリ美容室";
const REPLICA_NAME = "レプリカ美容室";

let primary: TestDatabase;
let replica: TestDatabase;
let relay: TcpRelay;
let replicaThroughRelay: DatabaseHandle;
let monitor: ReplicaMonitor;
let metrics: AppMetrics;
let app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> };
const lines: string[] = [];

async function twinSalon(db: Database, name: string) {
  const area = await buildArea(db, { slug: "twin-area", name: "ツイン" });
  await buildSalonWithStaff(db, { salon: { slug: "twin", name, areaId: area.id } });
}

beforeAll(async () => {
  primary = await createTestDatabase();
  replica = await createTestDatabase();
  await twinSalon(primary.db, PRIMARY_NAME);
  await twinSalon(replica.db, REPLICA_NAME);
  const server = new URL(process.env.TEST_DATABASE_URL ?? "");
  relay = await startTcpRelay({ host: server.hostname, port: Number(server.port || 5432) });
  const replicaUrl = relay.urlThrough(replica.url ?? "");
  replicaThroughRelay = await openDatabase(replicaUrl, createLogger("silent"), {
    connectTimeoutMs: 2_000,
  });
  const log = createLogger("info", {}, (line) => lines.push(line));
  monitor = createReplicaMonitor({
    replicaUrl,
    primary: primary.db,
    log,
    checkMs: CHECK_MS,
    maxLagSeconds: 5,
  });
  await monitor.start();
  metrics = createAppMetrics({
    database: primary,
    slotEvents: createSlotEvents(primary),
    replica: monitor,
  });
  // Without the page micro-cache, each request reads where it is sent.
  const full = await createFullApp(primary, {
    PUBLIC_URL: ORIGIN,
    TRUST_PROXY: "true",
    PAGE_CACHE_ENTRIES: "0",
  });
  app = full.serverOn(primary, { replica: replicaThroughRelay, replicaMonitor: monitor, log });
});
afterAll(async () => {
  await monitor?.stop();
  await replicaThroughRelay?.close();
  await relay?.close();
  await primary?.drop();
  await replica?.drop();
});

/** The exposition's value of a gauge without labels. */
async function gauge(name: string) {
  const text = await metrics.registry.metrics();
  const line = text.split("\n").find((entry) => entry.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : undefined;
}

/** Polls until `ready` holds (the monitor's checks run every CHECK_MS), failing after `ms`. */
async function waitFor(ready: () => Promise<boolean>, ms: number) {
  const started = Date.now();
  while (!(await ready())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

/** Where an anonymous page was read, from the salon's name on it (never a 5xx). */
async function readFrom(path: string) {
  const response = await browser(app).request(path);
  expect(response.status, path).toBe(200);
  const html = await response.text();
  if (html.includes(REPLICA_NAME)) return "replica";
  if (html.includes(PRIMARY_NAME)) return "primary";
  return "neither";
}

describe("the replica goes away and comes back", () => {
  it("reads the replica while it is healthy", async () => {
    expect(monitor.state()).toMatchObject({ inUse: true, status: "healthy", lagSeconds: null });
    expect(await gauge("db_replica_in_use")).toBe(1);
    expect(await gauge("db_replica_lag_seconds")).toBe(0);
    expect(await readFrom("/salons/twin")).toBe("replica");
  });

  it("answers from the primary when it is cut, and reads it again once it is back", async () => {
    await relay.cut();
    // Within a couple of check periods (with room for a busy CI machine's timers).
    await waitFor(async () => (await gauge("db_replica_in_use")) === 0, 5 * CHECK_MS);
    expect(monitor.state()).toMatchObject({ inUse: false, status: "down" });
    expect(await gauge("db_replica_lag_seconds")).toBeNaN();
    for (const path of [
      "/salons/twin",
      "/salons/search",
      "/area/twin-area",
      "/salons/twin/coupons",
    ]) {
      expect(await readFrom(path)).toBe("primary");
    }
    expect(lines.some((line) => line.includes("read replica not used"))).toBe(true);

    await relay.restore();
    // Three healthy checks in a row, then the replica again.
    await waitFor(async () => (await gauge("db_replica_in_use")) === 1, 10 * CHECK_MS + 2_000);
    expect(await readFrom("/salons/twin")).toBe("replica");
    expect(lines.filter((line) => line.includes('"read replica in use"'))).toHaveLength(2);
  });

  it("a page that fails on the replica is read again from the primary, and the monitor checks at once", async () => {
    // A monitor that would not check on its own for a minute: only the failed page can tell it.
    const slow = createReplicaMonitor({
      replicaUrl: relay.urlThrough(replica.url ?? ""),
      primary: primary.db,
      log: createLogger("silent"),
      checkMs: 60_000,
      maxLagSeconds: 5,
    });
    const handle = await openDatabase(relay.urlThrough(replica.url ?? ""), createLogger("silent"));
    const full = await createFullApp(primary, { PAGE_CACHE_ENTRIES: "0" });
    const server = full.serverOn(primary, { replica: handle, replicaMonitor: slow });
    try {
      await slow.start();
      const guest = browser(server);
      expect(await (await guest.request("/salons/twin/coupons")).text()).toContain(REPLICA_NAME);
      await relay.cut();
      expect(slow.inUse()).toBe(true);
      // A client-side navigation's data request, then a document.
      const data = await guest.request("/salons/twin/coupons.data");
      expect(data.status).toBe(200);
      expect(await data.text()).toContain(PRIMARY_NAME);
      await waitFor(async () => !slow.inUse(), 2_000);
      const page = await guest.request("/salons/twin/coupons");
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(PRIMARY_NAME);
    } finally {
      await relay.restore();
      await slow.stop();
      await handle.close();
    }
  });

  it("a replica that takes connections but never answers is down after the check's time limit", async () => {
    // Reachable at the TCP level but mute: the relay accepts and forwards nothing.
    const mute = await startMuteServer();
    const muteMonitor = createReplicaMonitor({
      replicaUrl: `postgres://postgres@127.0.0.1:${mute.port}/nothing`,
      primary: primary.db,
      log: createLogger("silent"),
      checkMs: CHECK_MS,
      maxLagSeconds: 5,
    });
    try {
      await muteMonitor.start();
      expect(muteMonitor.state()).toMatchObject({ inUse: false, status: "down" });
      expect(muteMonitor.state().error).toMatch(/timeout|no answer/i);
    } finally {
      await muteMonitor.stop();
      await mute.close();
    }
  });
});

/** A TCP server that accepts connections and never answers (a replica hung or behind a dead link). */
async function startMuteServer() {
  const net = await import("node:net");
  const sockets = new Set<import("node:net").Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as import("node:net").AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
