import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarDay } from "../../common/local-time";
import { feeDescription, sendBookingMoney } from "../../server/bookings/booking-fees.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import { type Database, type DatabaseHandle, openDatabase } from "../../server/db/client";
import { bookings, paymentDiscrepancies, payments } from "../../server/db/schema";
import { createLogger } from "../../server/logger";
import { applyBookingAction } from "../../server/owner/booking-actions.server";
import type { PaymentProvider } from "../../server/payments/provider.server";
import { reconcilePayments } from "../../server/payments/reconciliation.server";
import { createStripeProvider } from "../../server/payments/stripe-provider.server";
import { bookWithPolicy, feePolicy, payAhead } from "../support/booking-money";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * Issue 40 §5, done for real (decision 0084): an app process is killed with
 * SIGKILL after the provider accepted a fee's charge and before our
 * transaction recorded it. The fake Stripe runs in a process of its own
 * (`npm run payments:fake`), so the charge outlives the killed process; the
 * kill point is the fake's own fault hook (`hang` after the charge: the
 * charge exists, the answer never comes). After the "restart" the
 * reconciliation finds the charge and settles our row, and sending the
 * saved key again is answered with the first charge: charged once.
 */
const database = withTestDatabase();
const log = createLogger("silent");
/**
 * Node itself with tsx as its loader, never the `tsx` command: that one runs the
 * script in a child of its own, which a SIGKILL to the command would leave running.
 */
const NODE_TSX = [process.execPath, "--import", "tsx"] as const;
const run = (args: string[], options: Parameters<typeof spawn>[2]) =>
  spawn(NODE_TSX[0], [...NODE_TSX.slice(1), ...args], options);
const secretKey = `sk_test_kill9${randomBytes(8).toString("hex")}`;
const webhookSecret = `whsec_kill9${randomBytes(8).toString("hex")}`;

let fakeProcess: ChildProcess | undefined;
let apiUrl = "";
let provider: PaymentProvider;
let pgliteDir: string | null = null;

/** A process's first stdout line that passes `test`. */
async function lineOf(child: ChildProcess, test: (line: string) => boolean): Promise<string> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) if (test(line)) return line;
  throw new Error("the process ended before the line");
}

beforeAll(async () => {
  fakeProcess = run(["server/payments/fake/serve.ts", "--port", "0"], {
    env: { ...process.env, STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret },
    stdio: ["ignore", "pipe", "inherit"],
  });
  apiUrl = JSON.parse(await lineOf(fakeProcess, (l) => l.startsWith("{"))).apiUrl;
  provider = createStripeProvider({
    secretKey,
    webhookSecret,
    apiUrl,
    name: "fake",
    maxNetworkRetries: 0,
    timeoutMs: 5_000,
  });
}, 60_000);

afterAll(async () => {
  if (fakeProcess && fakeProcess.exitCode === null) {
    fakeProcess.kill("SIGTERM");
    await once(fakeProcess, "exit");
  }
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
});

/**
 * The database the killed process and the test share: the PostgreSQL test
 * database; on PGlite, a directory (one process at a time opens it).
 */
async function openShared(): Promise<{ url: string; handle: DatabaseHandle | null; db: Database }> {
  if (database.url) return { url: database.url, handle: null, db: database.db };
  pgliteDir ??= mkdtempSync(join(tmpdir(), "kill9-pglite-"));
  const handle = await openDatabase(pgliteDir);
  await handle.migrate();
  return { url: pgliteDir, handle, db: handle.db };
}

async function control(body: Record<string, unknown>) {
  const response = await fetch(`${apiUrl}/__fake/control`, {
    method: "POST",
    headers: { Authorization: `Bearer ${secretKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

/** The fee intents the fake (another process) holds for a booking, read through its API. */
async function feeIntentsAtFake(bookingId: string) {
  const found = [];
  const now = Date.now();
  for await (const payment of provider.listPayments({
    createdFrom: new Date(now - 3_600_000),
    createdBefore: new Date(now + 3_600_000),
  })) {
    if (payment.bookingId === bookingId && payment.metadata.purpose === "fee") found.push(payment);
  }
  return found;
}

describe("kill -9 between the charge and our commit", () => {
  it("after the restart the reconciliation finds the charge and settles the row; the saved key charges nothing new", async () => {
    let shared = await openShared();
    // The booking's clock is the test's (a Thursday the demo salon is open); the provider's is real.
    const START = new Date("2026-12-03T11:00:00+09:00");
    const { salon, stylists, menu } = await buildSalonWithStaff(shared.db, {
      settings: { cancellationCutoffHours: 0 },
    });
    const customer = await buildUser(shared.db);
    const staffUser = await buildUser(shared.db);
    const booking = await bookWithPolicy(shared.db, {
      salonId: salon.id,
      menuId: menu.id,
      staffId: stylists[0]?.id ?? "",
      userId: customer.id,
      start: START,
      now: new Date("2026-12-01T09:00:00+09:00"),
      policy: feePolicy({ mode: "card_only", deposit: null }),
    });
    await payAhead(shared.db, provider, booking, "card", 0);
    // The no-show recorded; its fee saved pending with its key (sent by the process below).
    await applyBookingAction(
      shared.db,
      { salonId: salon.id, bookingId: booking.id },
      { action: "no_show", version: booking.version },
      salonActor(staffUser.id),
      new Date(START.getTime() + 30 * 60_000),
      { provider: null, publicUrl: "http://127.0.0.1:3000" },
    );
    const fee = await shared.db
      .select()
      .from(payments)
      .where(eq(payments.bookingId, booking.id))
      .orderBy(asc(payments.createdAt))
      .then((rows) => rows.find((r) => r.kind === "fee"));
    expect(fee).toMatchObject({ status: "pending", idempotencyKey: `fee:${booking.id}:no_show` });
    await shared.handle?.close();

    // The provider will take the charge and never answer: the process waits there.
    await control({
      action: "injectFault",
      fault: { method: "POST", path: "/v1/payment_intents", kind: "hang", when: "after", times: 1 },
    });
    const app = run(
      [
        "tests/support/fee-send-child.ts",
        "--db",
        shared.url,
        "--api-url",
        apiUrl,
        "--secret-key",
        secretKey,
        "--webhook-secret",
        webhookSecret,
        "--booking",
        booking.id,
        "--now",
        new Date().toISOString(),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const output: string[] = [];
    const exited = once(app, "exit");
    await lineOf(app, (line) => {
      output.push(line);
      return line === "sending";
    });
    // The deterministic point: the charge exists at the provider, our process has no answer.
    const deadline = Date.now() + 30_000;
    let charged = await feeIntentsAtFake(booking.id);
    while (charged.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      charged = await feeIntentsAtFake(booking.id);
    }
    expect(charged).toHaveLength(1);
    app.kill("SIGKILL");
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: "SIGKILL" });
    // Gone for good: no process of ours is left to answer or write.
    expect(() => process.kill(app.pid ?? 0, 0)).toThrow();
    expect(output).not.toContain("sent");
    await control({ action: "clearFaults" });

    // The restart: our row still says pending; the provider has the charge.
    shared = await openShared();
    const [after] = await shared.db
      .select()
      .from(payments)
      .where(eq(payments.id, fee?.id ?? ""));
    expect(after?.status).toBe("pending");
    const charge = charged[0];
    if (!charge || !after) throw new Error("no charge");
    expect(charge).toMatchObject({ status: "succeeded", amount: after.amount });

    const now = new Date();
    const result = await reconcilePayments(shared.db, provider, {
      day: calendarDay(now, "Asia/Tokyo"),
      now,
      log,
    });
    expect(result.fixed).toBeGreaterThanOrEqual(1);
    const [settled] = await shared.db.select().from(payments).where(eq(payments.id, after.id));
    expect(settled).toMatchObject({ status: "succeeded", paymentIntentId: charge.id });
    const [noted] = await shared.db
      .select()
      .from(paymentDiscrepancies)
      .where(eq(paymentDiscrepancies.providerId, charge.id));
    expect(noted).toMatchObject({
      kind: "status_mismatch",
      ourStatus: "pending",
      resolution: "auto",
    });

    // 再試行 / the retry job: nothing is pending any more, nothing is sent.
    await sendBookingMoney(shared.db, provider, booking.id, {
      now: new Date(),
      publicUrl: "http://127.0.0.1:3000",
    });
    // The saved key sent again exactly as our fee code sent it: the first charge answers.
    const [number] = await shared.db
      .select({ number: bookings.bookingNumber })
      .from(bookings)
      .where(eq(bookings.id, booking.id));
    const again = await provider.chargeOffSession({
      bookingId: booking.id,
      customerId: after.providerCustomerId ?? "",
      paymentMethodId: after.paymentMethodId ?? "",
      amount: after.amount,
      description: feeDescription(after, number?.number ?? ""),
      metadata: { payment_id: after.id, salon_id: after.salonId, purpose: "fee" },
      idempotencyKey: after.idempotencyKey,
    });
    expect(again).toMatchObject({ outcome: "succeeded", payment: { id: charge.id } });
    expect(await feeIntentsAtFake(booking.id)).toHaveLength(1);
    await shared.handle?.close();
  }, 120_000);
});
