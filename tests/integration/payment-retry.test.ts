import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { salonActor } from "../../server/bookings/booking-history.server";
import { paymentsOfBooking } from "../../server/bookings/booking-payments.server";
import { paymentResendJobHandlers } from "../../server/bookings/payment-resend-jobs.server";
import { auditLog, jobs, payments } from "../../server/db/schema";
import { createJobWorker } from "../../server/jobs/queue.server";
import { createLogger } from "../../server/logger";
import { applyBookingAction } from "../../server/owner/booking-actions.server";
import { ownerPaymentsOfBooking } from "../../server/owner/booking-money.server";
import {
  claimSend,
  RESEND_ATTEMPTS,
  resendJobKind,
} from "../../server/payments/payment-send.server";
import { startFakePayments } from "../../server/payments/payments.server";
import type { SalonAccess } from "../../server/salon-access/salon-access.server";
import { bookWithPolicy, feePolicy, payAhead } from "../support/booking-money";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { withTestDatabase } from "../support/test-database";

/**
 * Decision 0084: a fee or refund the provider could not be reached for is
 * retried by a job (backoff, bounded, the same key, one sender at a time),
 * and taking back a 無断キャンセル gives its fee back or drops it.
 */
const database = withTestDatabase();
let fake: Awaited<ReturnType<typeof startFakePayments>>;
const log = createLogger("silent");

const NOW = new Date("2026-12-01T09:00:00+09:00");
const START = new Date("2026-12-03T11:00:00+09:00");
const AFTER_START = new Date(START.getTime() + 30 * 60_000);
const MINUTE = 60_000;
const PUBLIC_URL = "http://127.0.0.1:3000";

beforeAll(async () => {
  fake = await startFakePayments({ maxNetworkRetries: 0, timeoutMs: 1_500 });
});
afterAll(async () => {
  await fake?.fake.close();
});

const money = () => ({ provider: fake.provider, publicUrl: PUBLIC_URL });

async function scene(policy = feePolicy({ mode: "card_only", deposit: null })) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, {
    settings: { cancellationCutoffHours: 0 },
  });
  const customer = await buildUser(database.db);
  const staffUser = await buildUser(database.db);
  const booking = await bookWithPolicy(database.db, {
    salonId: salon.id,
    menuId: menu.id,
    staffId: stylists[0]?.id ?? "",
    userId: customer.id,
    start: START,
    now: NOW,
    policy,
  });
  return { salon, staffUser, booking };
}
type Scene = Awaited<ReturnType<typeof scene>>;

const rowsOf = (bookingId: string) =>
  database.db
    .select()
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .orderBy(asc(payments.createdAt));

const feeOf = async (bookingId: string) =>
  (await rowsOf(bookingId)).find((r) => r.kind === "fee" && r.idempotencyKey.endsWith("no_show"));

/** The fee's charges the fake received (each POST to payment_intents with its key). */
const chargeRequests = (key: string) =>
  fake.fake.requests.filter((r) => r.path === "/v1/payment_intents" && r.idempotencyKey === key);

const feeIntents = (bookingId: string) =>
  [...fake.fake.paymentIntents.values()].filter(
    (pi) =>
      (pi.metadata as Record<string, string>).booking_id === bookingId &&
      (pi.metadata as Record<string, string>).purpose === "fee",
  );

const noShow = (s: Scene, at = AFTER_START) =>
  applyBookingAction(
    database.db,
    { salonId: s.salon.id, bookingId: s.booking.id },
    { action: "no_show", version: s.booking.version },
    salonActor(s.staffUser.id),
    at,
    money(),
  );

const resendJobs = (paymentId: string) =>
  database.db
    .select()
    .from(jobs)
    .where(eq(jobs.kind, resendJobKind))
    .then((all) => all.filter((j) => j.payload.paymentId === paymentId));

/** A job worker with only the retry's handler, on a clock the test moves. */
function workerAt(clock: { now: Date }) {
  return createJobWorker({
    db: database.db,
    handlers: paymentResendJobHandlers({ provider: fake.provider, publicUrl: PUBLIC_URL, log }),
    log,
    now: () => clock.now,
  });
}

function accessOf(s: Scene, role: "owner" | "reception"): SalonAccess {
  return {
    user: {
      id: s.staffUser.id,
      email: s.staffUser.email,
      emailVerified: true,
      name: s.staffUser.name,
      role: "user",
      profile: null,
    },
    salon: {
      id: s.salon.id,
      slug: s.salon.slug,
      name: s.salon.name,
      timeZone: "Asia/Tokyo",
      status: s.salon.status,
    },
    role,
    staffId: null,
  };
}

describe("the automatic retry of a fee or refund left pending", () => {
  it("charges once: the answer lost, the job sends the same key after the backoff and the provider replays it", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
    // The charge is made at the provider; its answer never reaches us.
    fake.fake.injectFault({
      method: "POST",
      path: "/v1/payment_intents",
      kind: "drop",
      when: "after",
      times: Number.POSITIVE_INFINITY,
    });
    try {
      await noShow(s);
    } finally {
      fake.fake.clearFaults();
    }
    const pending = await feeOf(s.booking.id);
    expect(pending).toMatchObject({ status: "pending", sendingUntil: null });
    expect(feeIntents(s.booking.id)).toHaveLength(1);
    const [first] = await resendJobs(pending?.id ?? "");
    expect(first).toMatchObject({
      dedupeKey: `${resendJobKind}:${pending?.id}:1`,
      payload: { paymentId: pending?.id, attempt: 1 },
    });
    expect(first?.runAt.getTime()).toBe(AFTER_START.getTime() + MINUTE);

    const clock = { now: new Date(AFTER_START.getTime() + 30_000) };
    const worker = workerAt(clock);
    expect(await worker.runOnce()).toBe(0); // not due yet
    clock.now = new Date(AFTER_START.getTime() + MINUTE);
    expect(await worker.runOnce()).toBe(1);

    const fee = await feeOf(s.booking.id);
    expect(fee).toMatchObject({ status: "succeeded", sendingUntil: null });
    expect(fee?.paymentIntentId).toBe(feeIntents(s.booking.id)[0]?.id);
    // Every request with the one key and amount; one charge.
    expect(new Set(chargeRequests(fee?.idempotencyKey ?? "").map((r) => r.params.amount))).toEqual(
      new Set([String(fee?.amount)]),
    );
    expect(feeIntents(s.booking.id)).toHaveLength(1);
    expect(await resendJobs(fee?.id ?? "")).toHaveLength(1);
  });

  it("backs off, stops after the last attempt with the row shown as needing action, and 再試行 still sends the same key", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
    fake.fake.injectFault({
      method: "POST",
      path: "/v1/payment_intents",
      kind: "drop",
      when: "before",
      times: Number.POSITIVE_INFINITY,
    });
    const clock = { now: AFTER_START };
    const worker = workerAt(clock);
    let fee: Awaited<ReturnType<typeof feeOf>>;
    try {
      await noShow(s);
      fee = await feeOf(s.booking.id);
      let at = AFTER_START.getTime();
      for (let attempt = 1; attempt <= RESEND_ATTEMPTS; attempt++) {
        const job = (await resendJobs(fee?.id ?? "")).find((j) => j.payload.attempt === attempt);
        // 1, 2, 4, 8, 16 minutes after the attempt before.
        at += MINUTE * 2 ** (attempt - 1);
        expect(job?.runAt.getTime()).toBe(at);
        clock.now = new Date(at);
        const before = chargeRequests(fee?.idempotencyKey ?? "").length;
        expect(await worker.runOnce()).toBe(1);
        // Each attempt asked the provider again, with the same key.
        expect(chargeRequests(fee?.idempotencyKey ?? "").length).toBeGreaterThan(before);
      }
    } finally {
      fake.fake.clearFaults();
    }
    expect(await resendJobs(fee?.id ?? "")).toHaveLength(RESEND_ATTEMPTS);
    const given = await feeOf(s.booking.id);
    expect(given).toMatchObject({ status: "pending", failureCode: "provider_unreachable" });
    const line = (
      await ownerPaymentsOfBooking(database.db, accessOf(s, "reception"), s.booking.id)
    ).find((l) => l.id === given?.id);
    expect(line).toMatchObject({ canRetry: true, statusLabel: "未送信（再試行できます）" });
    expect(line?.reason).toContain("自動の再試行もすべて失敗しました");
    // Nothing more is scheduled.
    clock.now = new Date(clock.now.getTime() + 24 * 60 * MINUTE);
    expect(await worker.runOnce()).toBe(0);

    const { sendBookingMoney } = await import("../../server/bookings/booking-fees.server");
    await sendBookingMoney(database.db, fake.provider, s.booking.id, {
      ...money(),
      now: clock.now,
    });
    expect((await feeOf(s.booking.id))?.status).toBe("succeeded");
    expect(feeIntents(s.booking.id)).toHaveLength(1);
  });

  it("never sends beside another sender: a claimed row is left alone, and two sends at once make one request", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
    fake.fake.injectFault({
      method: "POST",
      path: "/v1/payment_intents",
      kind: "drop",
      when: "before",
      times: Number.POSITIVE_INFINITY,
    });
    try {
      await noShow(s);
    } finally {
      fake.fake.clearFaults();
    }
    const fee = await feeOf(s.booking.id);
    expect(fee?.status).toBe("pending");
    const key = fee?.idempotencyKey ?? "";
    const asked = chargeRequests(key).length;

    // Another sender holds the row (its call under way): the job does not call the provider.
    const at = new Date(AFTER_START.getTime() + MINUTE);
    expect(await claimSend(database.db, fee?.id ?? "", at)).not.toBeNull();
    expect(await claimSend(database.db, fee?.id ?? "", at)).toBeNull();
    const clock = { now: at };
    expect(await workerAt(clock).runOnce()).toBe(1);
    expect(chargeRequests(key)).toHaveLength(asked);
    expect((await feeOf(s.booking.id))?.status).toBe("pending");
    // It tries again later (attempt 2), when the claim has lapsed.
    const [second] = (await resendJobs(fee?.id ?? "")).filter((j) => j.payload.attempt === 2);
    expect(second?.runAt.getTime()).toBe(at.getTime() + 2 * MINUTE);

    // Two senders at once, the provider slow to answer: the second does not call it.
    fake.fake.injectFault({
      method: "POST",
      path: "/v1/payment_intents",
      kind: "hang",
      when: "after",
      times: Number.POSITIVE_INFINITY,
    });
    const { sendBookingMoney } = await import("../../server/bookings/booking-fees.server");
    const later = new Date(at.getTime() + 10 * MINUTE);
    const other = await database.openAnother();
    try {
      const first = sendBookingMoney(database.db, fake.provider, s.booking.id, {
        ...money(),
        now: later,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const whileHanging = chargeRequests(key).length;
      expect(whileHanging).toBeGreaterThan(asked);
      await sendBookingMoney(other.db, fake.provider, s.booking.id, { ...money(), now: later });
      expect(chargeRequests(key)).toHaveLength(whileHanging);
      await first;
    } finally {
      fake.fake.clearFaults();
      await other.close();
    }
    expect(feeIntents(s.booking.id)).toHaveLength(1);
    // The hung call's charge is there; the next attempt settles it with the same key.
    clock.now = new Date(later.getTime() + 60 * MINUTE);
    await workerAt(clock).runOnce();
    expect((await feeOf(s.booking.id))?.status).toBe("succeeded");
    expect(feeIntents(s.booking.id)).toHaveLength(1);
  });

  it("retries a refund the provider did not answer: one refund", async () => {
    const s = await scene(feePolicy({ mode: "full", deposit: null }));
    const full = await payAhead(database.db, fake.provider, s.booking, "full", 5500);
    fake.fake.injectFault({
      method: "POST",
      path: "/v1/refunds",
      kind: "drop",
      when: "after",
      times: Number.POSITIVE_INFINITY,
    });
    try {
      await applyBookingAction(
        database.db,
        { salonId: s.salon.id, bookingId: s.booking.id },
        {
          action: "cancel",
          version: s.booking.version,
          category: "salon",
          message: "",
        } as Parameters<typeof applyBookingAction>[2],
        salonActor(s.staffUser.id),
        NOW,
        money(),
      );
    } finally {
      fake.fake.clearFaults();
    }
    const refund = (await rowsOf(s.booking.id)).find((r) => r.kind === "refund");
    expect(refund).toMatchObject({ status: "pending", idempotencyKey: `refund:${full.id}:1` });
    // Meanwhile the visitor (thanks page, history, mails) sees the refund under way.
    const shown = (await paymentsOfBooking(database.db, s.booking.id)).find(
      (line) => line.kind === "refund",
    );
    expect(shown).toMatchObject({ amount: 5500, statusLabel: "手続き中" });
    const clock = { now: new Date(NOW.getTime() + MINUTE) };
    expect(await workerAt(clock).runOnce()).toBe(1);
    expect((await rowsOf(s.booking.id)).find((r) => r.kind === "refund")?.status).toBe("succeeded");
    const made = [...fake.fake.refunds.values()].filter(
      (r) => r.payment_intent === full.paymentIntentId,
    );
    expect(made).toHaveLength(1);
  });
});

describe("taking back a 無断キャンセル", () => {
  const undo = (s: Scene, version: number, at: Date) =>
    applyBookingAction(
      database.db,
      { salonId: s.salon.id, bookingId: s.booking.id },
      { action: "undo", version, undo: "no_show" },
      salonActor(s.staffUser.id),
      at,
      money(),
    );

  it("refunds the fee charged (refund:<fee>:1), audited, listed on the booking detail; a new no-show charges anew", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
    const marked = await noShow(s);
    const fee = await feeOf(s.booking.id);
    expect(fee?.status).toBe("succeeded");
    const back = await undo(s, marked.version, new Date(AFTER_START.getTime() + 30 * MINUTE));
    expect(back.status).toBe("confirmed");

    const refund = (await rowsOf(s.booking.id)).find((r) => r.kind === "refund");
    expect(refund).toMatchObject({
      refundOf: fee?.id,
      amount: fee?.amount,
      status: "succeeded",
      idempotencyKey: `refund:${fee?.id}:1`,
      createdBy: s.staffUser.id,
    });
    expect(
      [...fake.fake.refunds.values()].filter((r) => r.payment_intent === fee?.paymentIntentId),
    ).toHaveLength(1);
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, "payment.no_show_taken_back"), eq(auditLog.targetId, s.booking.id)),
      );
    expect(audit).toMatchObject({ actorUserId: s.staffUser.id, salonId: s.salon.id });
    expect(audit?.after).toMatchObject({ refundId: refund?.id, refund: fee?.amount });
    const lines = await ownerPaymentsOfBooking(database.db, accessOf(s, "owner"), s.booking.id);
    expect(lines.map((l) => [l.kindLabel, l.statusLabel])).toEqual([
      ["カード登録", expect.any(String)],
      ["キャンセル料（無断キャンセル）", expect.any(String)],
      ["返金（キャンセル料）", expect.any(String)],
    ]);
    expect(lines[1]?.refundable).toBe(0);

    // Recorded again: a new fee with its own key, charged once more; the first stays refunded.
    const again = await noShow(
      { ...s, booking: back },
      new Date(AFTER_START.getTime() + 40 * MINUTE),
    );
    expect(again.status).toBe("no_show");
    const fees = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(fees.map((f) => [f.idempotencyKey, f.status])).toEqual([
      [`fee:${s.booking.id}:no_show`, "refunded"],
      [`fee:${s.booking.id}:no_show:2`, "succeeded"],
    ]);
  });

  it("drops a fee not yet taken (pending after a provider error): waived with the reason, never charged later", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
    fake.fake.injectFault({
      method: "POST",
      path: "/v1/payment_intents",
      kind: "drop",
      when: "before",
      times: Number.POSITIVE_INFINITY,
    });
    let marked: Awaited<ReturnType<typeof noShow>>;
    try {
      marked = await noShow(s);
    } finally {
      fake.fake.clearFaults();
    }
    expect((await feeOf(s.booking.id))?.status).toBe("pending");
    await undo(s, marked.version, new Date(AFTER_START.getTime() + 5 * MINUTE));
    const fee = await feeOf(s.booking.id);
    expect(fee).toMatchObject({
      status: "waived",
      waivedBy: s.staffUser.id,
      failureCode: "no_show_taken_back",
    });
    expect((await rowsOf(s.booking.id)).some((r) => r.kind === "refund")).toBe(false);
    const line = (
      await ownerPaymentsOfBooking(database.db, accessOf(s, "owner"), s.booking.id)
    ).find((l) => l.id === fee?.id);
    expect(line).toMatchObject({ canRetry: false, canWaive: false });
    expect(line?.reason).toContain("無断キャンセルを取り消したため");
    // The retry job finds it no longer pending: nothing is charged.
    await workerAt({ now: new Date(AFTER_START.getTime() + 60 * MINUTE) }).runOnce();
    expect(feeIntents(s.booking.id)).toHaveLength(0);
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, "payment.no_show_taken_back"), eq(auditLog.targetId, s.booking.id)),
      );
    expect(audits).toHaveLength(1);
  });
});
