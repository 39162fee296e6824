import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { databaseRateLimitStore } from "../../server/accounts/rate-limit";
import { cancelBooking, confirmBooking, holdSlot } from "../../server/bookings/booking.server";
import {
  bookingMenus,
  mailOutbox,
  salonOwners,
  staff,
  type WebhookEventType,
  webhookDeliveries,
  webhookEndpoints,
} from "../../server/db/schema";
import { createLogger } from "../../server/logger";
import { processCounts } from "../../server/metrics/counts";
import { createAppMetrics } from "../../server/metrics/metrics.server";
import { reviewInputSchema } from "../../server/reviews/review.schema";
import { saveReview } from "../../server/reviews/reviews.server";
import { salonAccessFor } from "../../server/salon-access/salon-access.server";
import {
  checkEndpointUrl,
  isAllowedAddress,
  resolveAllowed,
} from "../../server/webhooks/address-guard.server";
import { createWebhookSender, FAILING_DISABLE_MS } from "../../server/webhooks/delivery.server";
import {
  createWebhookEndpoint,
  MAX_ENDPOINTS_PER_SALON,
  MAX_REPLAYS_PER_HOUR,
  replayWebhookDelivery,
  rotateWebhookSecret,
  webhookDeliveryLog,
} from "../../server/webhooks/endpoints.server";
import { postWebhook } from "../../server/webhooks/http-post.server";
import { webhookPayloadSchemas } from "../../server/webhooks/payload.schema";
import { bookingClient } from "../support/booking-client";
import { buildBooking, buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";
import { startWebhookReceiver } from "../support/webhook-receiver";

/**
 * A salon's webhooks (issue 41, §2; decision 0086): the outbox row written with
 * the booking, a real local receiver verifying with the `standardwebhooks`
 * package, the retry schedule and Retry-After, 410, three days of failures,
 * rotation, replay and its limit, and the addresses never reached.
 */
const database = withTestDatabase();
const log = createLogger("silent");
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});
// Each test sends only its own deliveries: what an earlier one left pending is closed.
beforeEach(async () => {
  await database.db
    .update(webhookDeliveries)
    .set({ status: "failed" })
    .where(eq(webhookDeliveries.status, "pending"));
});

const sender = (options: { allowLoopback?: boolean; timeoutMs?: number } = {}) =>
  createWebhookSender({
    db: database.db,
    log,
    allowLoopback: options.allowLoopback ?? true,
    timeoutMs: options.timeoutMs ?? 5000,
    mailFrom: "Salon Navi <no-reply@salon.example.jp>",
    publicUrl: "https://salon.example.jp",
  });

/** A salon with its owner, and an endpoint on the receiver for the events given. */
async function salonWithEndpoint(
  events: WebhookEventType[] = ["booking.created", "booking.cancelled"],
  path = "/hook",
) {
  const { salon, menu } = await buildSalonWithStaff(database.db);
  const owner = await buildUser(database.db, { role: "owner" });
  await database.db.insert(salonOwners).values({ salonId: salon.id, userId: owner.id });
  const access = await salonAccessFor(
    database.db,
    {
      id: owner.id,
      email: owner.email,
      emailVerified: true,
      name: owner.name,
      role: "owner",
      profile: null,
    },
    salon.id,
  );
  if (!access) throw new Error("no access");
  const created = await createWebhookEndpoint(
    database.db,
    access,
    { url: receiver.url(path), events },
    { allowLoopback: true, now: new Date() },
  );
  if (!created.ok) throw new Error(JSON.stringify(created.errors));
  return { salon, menu, owner, access, endpoint: created.endpoint, secret: created.secret };
}

/** A web booking of the salon two days from now (a fresh hour each time). */
let hour = 10;
async function book(salonId: string, menuId: string, visitorId?: string) {
  const now = new Date();
  const day = new Date(now.getTime() + 2 * 86_400_000);
  const tokyoDate = day.toLocaleDateString("sv-SE", { timeZone: "Asia/Tokyo" });
  const start = new Date(`${tokyoDate}T${String(hour++).padStart(2, "0")}:00:00+09:00`);
  if (hour > 18) hour = 10;
  const visitor = visitorId ? { id: visitorId } : await buildUser(database.db);
  const hold = await holdSlot(database.db, {
    ...bookingClient(database.db),
    salonId,
    menuIds: [menuId],
    staffId: null,
    start,
    userId: visitor.id,
    couponId: null,
    now,
  });
  return confirmBooking(database.db, {
    ...bookingClient(database.db),
    holdId: hold.id,
    userId: visitor.id,
    customer: {
      name: "予約 花子",
      kana: "よやく はなこ",
      phone: "090-1234-5678",
      email: "hanako@example.jp",
    },
    notes: "",
    idempotencyKey: null,
    now,
  });
}

const deliveriesOf = (endpointId: string) =>
  database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.createdAt);

/** Time passes: the endpoint's pending deliveries are due now. */
const makeDue = (endpointId: string) =>
  database.db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(Date.now() - 1000) })
    .where(
      and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")),
    );

describe("webhook delivery", () => {
  it("writes booking.created with the booking and delivers it signed; the receiver verifies it", async () => {
    const { salon, menu, endpoint, secret } = await salonWithEndpoint();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const booking = await book(salon.id, menu.id);
    // The outbox row committed with the booking, before anything was sent.
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ eventType: "booking.created", status: "pending", attempts: 0 });

    const before = receiver.received.length;
    expect(await sender().deliverDue()).toBe(1);
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    if (!got) throw new Error("nothing received");
    expect(got.headers["webhook-id"]).toBe(row?.messageId);
    expect(got.headers["content-type"]).toBe("application/json");
    const payload = new Webhook(secret).verify(got.body, got.headers) as {
      type: string;
      version: number;
      salonId: string;
      data: { booking: { id: string; number: string; status: string; menus: unknown[] } };
    };
    expect(payload).toMatchObject({ type: "booking.created", version: 1, salonId: salon.id });
    // The body is what the OpenAPI document's webhooks section says (strictly: no field unlisted).
    expect(webhookPayloadSchemas["booking.created"].strict().parse(payload)).toBeTruthy();
    expect(payload.data.booking).toMatchObject({ id: booking.id, status: "confirmed" });
    expect(payload.data.booking.menus).toHaveLength(1);
    // Another secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(got.body, got.headers),
    ).toThrow();

    const log = await webhookDeliveryLog(database.db, salon.id, endpoint.id);
    expect(log).toHaveLength(1);
    expect(log?.[0]).toMatchObject({ status: "delivered", lastStatus: 200, attempts: 1 });
    expect(log?.[0]?.body).toBe(got.body);
    // Another salon's id reads no log.
    const other = await buildSalonWithStaff(database.db);
    expect(await webhookDeliveryLog(database.db, other.salon.id, endpoint.id)).toBeNull();
  });

  it("writes nothing for events the endpoint did not ask for, and booking.cancelled when asked", async () => {
    const { salon, menu, endpoint } = await salonWithEndpoint(["booking.cancelled"]);
    const booking = await book(salon.id, menu.id);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(0);
    await cancelBooking(database.db, {
      bookingId: booking.id,
      userId: booking.userId ?? "",
      reason: "",
      now: new Date(),
    });
    const rows = await deliveriesOf(endpoint.id);
    expect(rows.map((r) => r.eventType)).toEqual(["booking.cancelled"]);
  });

  it("writes customer.created for a new person only, and review.posted with the review", async () => {
    const { salon, menu, endpoint, secret } = await salonWithEndpoint([
      "customer.created",
      "review.posted",
    ]);
    const first = await book(salon.id, menu.id);
    // The same person again: the salon's known customer, no new record.
    await book(salon.id, menu.id, first.userId ?? undefined);
    expect((await deliveriesOf(endpoint.id)).map((r) => r.eventType)).toEqual(["customer.created"]);

    const visitor = await buildUser(database.db);
    const startsAt = new Date(Date.now() - 86_400_000);
    const [stylist] = await database.db.select().from(staff).where(eq(staff.salonId, salon.id));
    const visit = await buildBooking(database.db, {
      salonId: salon.id,
      staffId: stylist?.id ?? "",
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      status: "completed",
      userId: visitor.id,
    });
    await database.db.insert(bookingMenus).values({
      salonId: salon.id,
      bookingId: visit.id,
      position: 0,
      menuId: menu.id,
      name: menu.name,
      price: menu.price,
      durationMinutes: 60,
    });
    const { review } = await saveReview(database.db, {
      userId: visitor.id,
      bookingId: visit.id,
      input: reviewInputSchema.parse({ rating: 5, body: "丁寧なカウンセリングで満足しました。" }),
      now: new Date(),
      limits: {
        store: databaseRateLimitStore(database.db),
        window: 60,
        perIp: 100_000,
        perAccount: 100_000,
      },
      ip: "198.51.100.7",
    });
    const before = receiver.received.length;
    await sender().deliverDue();
    const got = (await receiver.waitFor(before + 2)).slice(before);
    const payloads = got.map((r) => new Webhook(secret).verify(r.body, r.headers)) as {
      type: string;
      data: Record<string, { id: string; rating?: number }>;
    }[];
    expect(payloads.map((p) => p.type).sort()).toEqual(["customer.created", "review.posted"]);
    for (const p of payloads) {
      expect(webhookPayloadSchemas[p.type as WebhookEventType].parse(p)).toBeTruthy();
    }
    const posted = payloads.find((p) => p.type === "review.posted");
    expect(posted?.data.review).toMatchObject({ id: review.id, rating: 5 });
  });

  it("retries on the Standard Webhooks schedule, honouring Retry-After, until a 2xx", async () => {
    const { salon, menu, endpoint } = await salonWithEndpoint();
    const attemptsBefore = processCounts().webhookAttempts;
    await book(salon.id, menu.id);
    // /metrics: the delivery waits, seen from the database by every server.
    const metrics = createAppMetrics({ database, slotEvents: { subscriberCount: () => 0 } });
    expect(await metrics.registry.metrics()).toMatch(/^webhook_deliveries_pending 1$/m);
    receiver.answer({ status: 503, headers: { "retry-after": "120" } }, { status: 500 });
    const start = Date.now();
    await sender().deliverDue();
    let [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatus: 503 });
    // The schedule says 5 s; the receiver asked for 120 s.
    const wait1 = (row?.nextAttemptAt?.getTime() ?? 0) - start;
    expect(wait1).toBeGreaterThanOrEqual(119_000);
    expect(wait1).toBeLessThan(130_000);
    // Not due yet: nothing is sent.
    expect(await sender().deliverDue()).toBe(0);
    const [failing] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(failing?.failingSince).not.toBeNull();

    await makeDue(endpoint.id);
    const second = Date.now();
    await sender().deliverDue();
    [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "pending", attempts: 2, lastStatus: 500 });
    // After the second failure: 5 minutes.
    const wait2 = (row?.nextAttemptAt?.getTime() ?? 0) - second;
    expect(wait2).toBeGreaterThanOrEqual(299_000);
    expect(wait2).toBeLessThan(310_000);

    await makeDue(endpoint.id);
    await sender().deliverDue();
    [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 3, lastStatus: 200 });
    const attempts = processCounts().webhookAttempts;
    expect(attempts.retrying - attemptsBefore.retrying).toBe(2);
    expect(attempts.delivered - attemptsBefore.delivered).toBe(1);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^webhook_deliveries_pending 0$/m);
    expect(text).toMatch(/^webhook_attempts_total\{outcome="delivered"\} [1-9]/m);
    const [healthy] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(healthy?.failingSince).toBeNull();
  });

  it("gives up after the schedule's eight attempts", async () => {
    const { salon, menu, endpoint } = await salonWithEndpoint();
    const failedBefore = processCounts().webhookAttempts.failed;
    await book(salon.id, menu.id);
    for (let i = 0; i < 8; i++) {
      receiver.answer({ status: 500 });
      await makeDue(endpoint.id);
      await sender().deliverDue();
    }
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({
      status: "failed",
      attempts: 8,
      lastStatus: 500,
      nextAttemptAt: null,
    });
    expect(processCounts().webhookAttempts.failed - failedBefore).toBe(1);
  });

  it("disables the endpoint on 410 Gone and tells the owner; later events are not written", async () => {
    const { salon, menu, owner, endpoint } = await salonWithEndpoint();
    const goneBefore = processCounts().webhookAttempts.gone;
    await book(salon.id, menu.id);
    receiver.answer({ status: 410 });
    await sender().deliverDue();
    expect(processCounts().webhookAttempts.gone - goneBefore).toBe(1);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "failed", lastStatus: 410 });
    const [disabled] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(disabled).toMatchObject({ disabledReason: "gone" });
    const mails = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.email));
    expect(mails.map((m) => m.subject)).toEqual([
      `【Salon Navi】Webhookの送信を停止しました（${salon.name}）`,
    ]);
    expect(mails[0]?.text).toContain("410 Gone");
    await book(salon.id, menu.id);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
  });

  it("disables an endpoint failing for three days and mails the owner once", async () => {
    const { salon, menu, owner, endpoint } = await salonWithEndpoint();
    await database.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date(Date.now() - FAILING_DISABLE_MS - 60_000) })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await book(salon.id, menu.id);
    receiver.answer({ status: 502 });
    await sender().deliverDue();
    const [disabled] = await database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(disabled).toMatchObject({ disabledReason: "failing" });
    const mails = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("3日間");
    // Its pending delivery is closed at its next turn, never sent.
    const before = receiver.received.length;
    await makeDue(endpoint.id);
    await sender().deliverDue();
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "failed", lastError: "endpoint disabled" });
    expect(receiver.received.length).toBe(before);
  });

  it("signs with both secrets during a rotation; each verifies", async () => {
    const { salon, menu, access, endpoint, secret } = await salonWithEndpoint();
    const rotated = await rotateWebhookSecret(database.db, access, endpoint.id, new Date());
    if (!rotated.ok) throw new Error("not rotated");
    expect(rotated.secret).not.toBe(secret);
    await book(salon.id, menu.id);
    const before = receiver.received.length;
    await sender().deliverDue();
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    if (!got) throw new Error("nothing received");
    expect(got.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({
      type: "booking.created",
    });
    expect(new Webhook(rotated.secret).verify(got.body, got.headers)).toMatchObject({
      type: "booking.created",
    });
  });

  it("replays a delivery with the same webhook-id, at most ten times an hour per endpoint", async () => {
    const { salon, menu, access, endpoint, secret } = await salonWithEndpoint();
    await book(salon.id, menu.id);
    await sender().deliverDue();
    const [first] = await deliveriesOf(endpoint.id);
    if (!first) throw new Error("no delivery");
    const replayed = await replayWebhookDelivery(database.db, access, first.id, new Date());
    expect(replayed.ok).toBe(true);
    const before = receiver.received.length;
    await sender().deliverDue();
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    expect(got?.headers["webhook-id"]).toBe(first.messageId);
    expect(new Webhook(secret).verify(got?.body ?? "", got?.headers ?? {})).toBeTruthy();
    for (let i = 1; i < MAX_REPLAYS_PER_HOUR; i++) {
      expect((await replayWebhookDelivery(database.db, access, first.id, new Date())).ok).toBe(
        true,
      );
    }
    const refused = await replayWebhookDelivery(database.db, access, first.id, new Date());
    expect(refused).toMatchObject({ ok: false, status: 429 });
    if (!refused.ok) expect(refused.errors.form).toMatch(/1時間に10回まで/);
    // Another salon's owner cannot replay it: the same answer as a delivery that does not exist.
    const other = await salonWithEndpoint();
    expect(
      await replayWebhookDelivery(database.db, other.access, first.id, new Date()),
    ).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it("refuses an eleventh endpoint with a Japanese message", async () => {
    const { access } = await salonWithEndpoint();
    for (let i = 1; i < MAX_ENDPOINTS_PER_SALON; i++) {
      const made = await createWebhookEndpoint(
        database.db,
        access,
        { url: `https://hooks.example.com/${i}`, events: ["booking.created"] },
        { allowLoopback: false, now: new Date() },
      );
      expect(made.ok).toBe(true);
    }
    const refused = await createWebhookEndpoint(
      database.db,
      access,
      { url: "https://hooks.example.com/11", events: ["booking.created"] },
      { allowLoopback: false, now: new Date() },
    );
    expect(refused).toMatchObject({ ok: false, status: 409 });
    if (!refused.ok) expect(refused.errors.form).toMatch(/10件まで/);
  });
});

describe("addresses a webhook never reaches", () => {
  it("refuses URLs that are not https, or name a private, loopback or link-local address", () => {
    for (const url of [
      "http://hooks.example.com/x",
      "ftp://hooks.example.com/x",
      "https://10.0.0.8/x",
      "https://172.20.1.1/x",
      "https://192.168.1.10/x",
      "https://169.254.169.254/latest/meta-data",
      "https://127.0.0.1/x",
      "https://[::1]/x",
      "https://[fe80::1]/x",
      "https://[fd00::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:10.0.0.1]/x",
      // Other spellings of 127.0.0.1 the URL parser normalizes.
      "https://2130706433/x",
      "https://0x7f.1/x",
      "https://localhost/x",
      "http://127.0.0.1:8080/x",
      "https://user:pass@hooks.example.com/x",
      "not a url",
      "",
    ]) {
      const checked = checkEndpointUrl(url, false);
      expect(checked.ok, url).toBe(false);
      if (!checked.ok) expect(checked.message, url).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
    expect(checkEndpointUrl("https://hooks.example.com/x", false).ok).toBe(true);
    expect(checkEndpointUrl("https://[2606:4700::1111]/x", false).ok).toBe(true);
    // Loopback only where the setting allows it (tests, development).
    expect(checkEndpointUrl("http://127.0.0.1:8080/x", true).ok).toBe(true);
    expect(checkEndpointUrl("http://10.0.0.8/x", true).ok).toBe(false);
  });

  it("checks every resolved address, IPv4 and IPv6", async () => {
    expect(isAllowedAddress("93.184.216.34", false)).toBe(true);
    expect(isAllowedAddress("2606:4700::1111", false)).toBe(true);
    for (const address of [
      "10.1.2.3",
      "100.64.0.1",
      "0.0.0.0",
      "::",
      "fe80::abcd",
      "::ffff:a9fe:a9fe",
      "ff02::1",
    ]) {
      expect(isAllowedAddress(address, true), address).toBe(false);
    }
    expect(isAllowedAddress("127.0.0.1", false)).toBe(false);
    expect(isAllowedAddress("::1", false)).toBe(false);
    expect(isAllowedAddress("127.0.0.1", true)).toBe(true);
    // localhost resolves to loopback only: refused without the setting.
    await expect(resolveAllowed("localhost", false)).rejects.toThrow(/refused/);
    await expect(resolveAllowed("localhost", true)).resolves.toMatchObject({
      address: expect.any(String),
    });
  });

  it("sends nothing to loopback without the setting, follows no redirect, and stops waiting", async () => {
    const before = receiver.received.length;
    const refused = await postWebhook(new URL(receiver.url()), {}, "{}", {
      allowLoopback: false,
      timeoutMs: 2000,
      now: new Date(),
    });
    expect(refused).toMatchObject({ kind: "failed", error: expect.stringMatching(/^refused/) });
    expect(receiver.received.length).toBe(before);

    receiver.answer({ status: 302, headers: { location: receiver.url("/elsewhere") } });
    const redirected = await postWebhook(new URL(receiver.url()), {}, "{}", {
      allowLoopback: true,
      timeoutMs: 2000,
      now: new Date(),
    });
    expect(redirected).toMatchObject({ kind: "answered", status: 302 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received.slice(before).map((r) => r.path)).toEqual(["/hook"]);

    receiver.answer({ status: 200, hang: true });
    const started = Date.now();
    const slow = await postWebhook(new URL(receiver.url()), {}, "{}", {
      allowLoopback: true,
      timeoutMs: 300,
      now: new Date(),
    });
    expect(slow).toMatchObject({ kind: "failed", error: expect.stringMatching(/no answer/) });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("a delivery to a refused address fails and is retried, never sent", async () => {
    const { salon, menu, endpoint } = await salonWithEndpoint();
    await book(salon.id, menu.id);
    const before = receiver.received.length;
    await sender({ allowLoopback: false }).deliverDue();
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatus: null });
    expect(row?.lastError).toMatch(/^refused/);
    expect(receiver.received.length).toBe(before);
  });
});
