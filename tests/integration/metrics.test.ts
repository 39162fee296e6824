import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import { jobs, mailOutbox } from "../../server/db/schema";
import { createAppMetrics, serveProcessMetrics } from "../../server/metrics/metrics.server";
import { bookingClient } from "../support/booking-client";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { createFullApp } from "../support/full-app";
import { withTestDatabase } from "../support/test-database";

/**
 * /metrics (issue 39 §4, decision 0070): what Prometheus reads from an app
 * server, through the whole app on a test database.
 */
const database = withTestDatabase();
const NOW = new Date("2026-12-01T09:00:00+09:00");
let full: Awaited<ReturnType<typeof createFullApp>>;
let metrics: ReturnType<typeof createAppMetrics>;
let live = 0;

beforeAll(async () => {
  full = await createFullApp(database);
  metrics = createAppMetrics({
    database,
    slotEvents: { subscriberCount: () => live },
    now: () => NOW,
  });
});
afterAll(async () => {
  await full?.close();
});

/** The value of one sample line (`name{labels} value`), or null when absent. */
function sample(text: string, name: string, labels = "") {
  const line = text
    .split("\n")
    .find((row) => row.startsWith(labels ? `${name}{${labels}} ` : `${name} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : null;
}

describe("request metrics", () => {
  it("count and time requests under their route pattern, never a salon's own path", async () => {
    const { salon } = await buildSalonWithStaff(database.db);
    const app = full.serverOn(database, { metrics });
    expect((await app.request(`/salons/${salon.slug}`)).status).toBe(200);
    expect((await app.request(`/salons/${salon.slug}`)).status).toBe(200);
    expect((await app.request(`/salons/${salon.slug}/access`)).status).toBe(200);
    expect((await app.request("/healthz")).status).toBe(200);
    expect((await app.request("/no/such/page")).status).toBe(404);

    const text = await metrics.registry.metrics();
    expect(
      sample(text, "http_requests_total", 'method="GET",route="/salons/:id",status="200"'),
    ).toBe(2);
    expect(
      sample(text, "http_requests_total", 'method="GET",route="/salons/:id/access",status="200"'),
    ).toBe(1);
    expect(sample(text, "http_requests_total", 'method="GET",route="/healthz",status="200"')).toBe(
      1,
    );
    expect(sample(text, "http_requests_total", 'method="GET",route="/*",status="404"')).toBe(1);
    expect(
      sample(text, "http_request_duration_seconds_count", 'method="GET",route="/salons/:id"'),
    ).toBe(2);
    expect(text).not.toContain(salon.slug);
    expect(text).not.toContain(salon.id);
  });
});

describe("what the process and the database say", () => {
  it("report the pool, live streams, due jobs with the oldest's wait, and queued mail", async () => {
    live = 3;
    await database.db.insert(jobs).values([
      { kind: "test.metrics", runAt: new Date(NOW.getTime() - 90_000) },
      { kind: "test.metrics", runAt: new Date(NOW.getTime() - 30_000) },
      // Not due yet, and done: neither is waiting.
      { kind: "test.metrics", runAt: new Date(NOW.getTime() + 60_000) },
      { kind: "test.metrics", runAt: new Date(NOW.getTime() - 60_000), doneAt: NOW },
    ]);
    await database.db.insert(mailOutbox).values({
      to: "someone@example.jp",
      from: "Salon Navi <no-reply@example.jp>",
      subject: "件名",
      text: "本文",
      html: "<p>本文</p>",
    });
    const text = await metrics.registry.metrics();
    expect(sample(text, "db_pool_connections", 'state="total"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, "db_pool_connections", 'state="waiting"')).toBe(0);
    expect(sample(text, "live_streams_open")).toBe(3);
    expect(sample(text, "jobs_due")).toBe(2);
    expect(sample(text, "jobs_oldest_due_age_seconds")).toBe(90);
    expect(sample(text, "mails_queued")).toBe(1);
    // Node's own figures come with them.
    expect(text).toContain("process_cpu_seconds_total");
  });

  it("count holds and bookings once each, after they are made", async () => {
    const before = await metrics.registry.metrics();
    const held = (text: string) => sample(text, "holds_made_total") ?? 0;
    const booked = (text: string) => sample(text, "bookings_made_total", 'source="web"') ?? 0;
    const { salon, menu } = await buildSalonWithStaff(database.db);
    const visitor = await buildUser(database.db);
    const hold = await holdSlot(database.db, {
      ...bookingClient(database.db),
      salonId: salon.id,
      menuIds: [menu.id],
      staffId: null,
      start: new Date("2026-12-03T11:00:00+09:00"),
      userId: visitor.id,
      now: NOW,
    });
    const middle = await metrics.registry.metrics();
    expect(held(middle) - held(before)).toBe(1);
    expect(booked(middle) - booked(before)).toBe(0);
    await confirmBooking(database.db, {
      ...bookingClient(database.db),
      holdId: hold.id,
      userId: visitor.id,
      customer: {
        name: "予約 花子",
        kana: "よやく はなこ",
        phone: "090-1234-5678",
        email: "m@example.jp",
      },
      notes: "",
      idempotencyKey: null,
      now: NOW,
    });
    const after = await metrics.registry.metrics();
    expect(booked(after) - booked(before)).toBe(1);
  });
});

describe("the metrics port", () => {
  it("answers GET /metrics in Prometheus text, and nothing else", async () => {
    const server = serveProcessMetrics(metrics, 0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toContain("text/plain; version=0.0.4");
      expect(await answer.text()).toContain("# TYPE http_requests_total counter");
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: "POST" })).status).toBe(
        404,
      );
    } finally {
      server.close();
    }
  });
});
