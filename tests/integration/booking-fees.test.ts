import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelBooking } from "../../server/bookings/booking.server";
import { salonActor } from "../../server/bookings/booking-history.server";
import { settleCheckout } from "../../server/bookings/booking-payments.server";
import { rescheduleBooking } from "../../server/bookings/reschedule.server";
import { auditLog, jobs, payments } from "../../server/db/schema";
import { applyBookingAction } from "../../server/owner/booking-actions.server";
import {
  bookingDetailPage,
  submitBookingForm,
} from "../../server/owner/booking-detail-page.server";
import {
  ownerPaymentsOfBooking,
  PaymentActionRefusedError,
  submitPaymentForm,
} from "../../server/owner/booking-money.server";
import { startFakePayments } from "../../server/payments/payments.server";
import type { SalonAccess } from "../../server/salon-access/salon-access.server";
import { bookingClient } from "../support/booking-client";
import { bookWithPolicy, feePolicy, GOOD_CARD, payAhead } from "../support/booking-money";
import { buildSalonWithStaff, buildUser } from "../support/builders";
import { payOnHostedPage } from "../support/payments";
import { withTestDatabase } from "../support/test-database";

/**
 * The salon is paid for no-shows and late cancellations, and refunds are
 * right (issue 40 §3; decision 0080), against the fake Stripe: each rule's
 * rows (kind, amount, key, who) and what the provider was asked.
 */
const database = withTestDatabase();
let fake: Awaited<ReturnType<typeof startFakePayments>>;

const NOW = new Date("2026-12-01T09:00:00+09:00");
const START = new Date("2026-12-03T11:00:00+09:00");
const PUBLIC_URL = "http://127.0.0.1:3000";

beforeAll(async () => {
  fake = await startFakePayments({ maxNetworkRetries: 0, timeoutMs: 3_000 });
});
afterAll(async () => {
  await fake?.fake.close();
});

const money = () => ({ provider: fake.provider, publicUrl: PUBLIC_URL });

async function scene(policy = feePolicy(), settings = { cancellationCutoffHours: 0 }) {
  const { salon, stylists, menu } = await buildSalonWithStaff(database.db, { settings });
  const staffId = stylists[0]?.id ?? "";
  const customer = await buildUser(database.db);
  const staffUser = await buildUser(database.db);
  const booking = await bookWithPolicy(database.db, {
    salonId: salon.id,
    menuId: menu.id,
    staffId,
    userId: customer.id,
    start: START,
    now: NOW,
    policy,
  });
  return { salon, staffId, customer, staffUser, booking };
}

async function rowsOf(bookingId: string) {
  return database.db
    .select()
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .orderBy(asc(payments.createdAt));
}

/** The PaymentIntents the fake holds for a booking's fees (metadata purpose fee). */
function feeIntents(bookingId: string) {
  return [...fake.fake.paymentIntents.values()].filter(
    (pi) =>
      (pi.metadata as Record<string, string>).booking_id === bookingId &&
      (pi.metadata as Record<string, string>).purpose === "fee",
  );
}

function refundsAtFake(paymentIntentId: string | null) {
  return [...fake.fake.refunds.values()].filter((r) => r.payment_intent === paymentIntentId);
}

const noShow = (s: Awaited<ReturnType<typeof scene>>, at = new Date(START.getTime() + 1_800_000)) =>
  applyBookingAction(
    database.db,
    { salonId: s.salon.id, bookingId: s.booking.id },
    { action: "no_show", version: s.booking.version },
    salonActor(s.staffUser.id),
    at,
    money(),
  );

describe("無断キャンセル", () => {
  it("charges the agreed fee less the deposit paid, off-session on the kept card, with its key, once", async () => {
    const s = await scene();
    const deposit = await payAhead(database.db, fake.provider, s.booking, "deposit", 1100);
    await noShow(s);
    const rows = await rowsOf(s.booking.id);
    const fee = rows.find((r) => r.kind === "fee");
    expect(fee).toMatchObject({
      amount: 5500 - 1100,
      status: "succeeded",
      feeWindow: "no_show",
      idempotencyKey: `fee:${s.booking.id}:no_show`,
      createdBy: s.staffUser.id,
      paymentMethodId: deposit.paymentMethodId,
    });
    const intents = feeIntents(s.booking.id);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ amount: 4400, status: "succeeded" });
    expect(fee?.paymentIntentId).toBe(intents[0]?.id);
    // The deposit is kept (counted), not refunded.
    expect(rows.find((r) => r.kind === "refund")).toBeUndefined();
  });

  it("charges nothing when what was paid covers the fee, and gives back what was paid beyond it", async () => {
    const s = await scene(feePolicy({ mode: "full", deposit: null, noShowPercent: 50 }));
    const full = await payAhead(database.db, fake.provider, s.booking, "full", 5500);
    await noShow(s);
    const rows = await rowsOf(s.booking.id);
    expect(rows.find((r) => r.kind === "fee")).toBeUndefined();
    expect(feeIntents(s.booking.id)).toHaveLength(0);
    const refund = rows.find((r) => r.kind === "refund");
    expect(refund).toMatchObject({
      amount: 2750,
      status: "succeeded",
      refundOf: full.id,
      idempotencyKey: `refund:${full.id}:1`,
    });
    expect(refundsAtFake(full.paymentIntentId).map((r) => r.amount)).toEqual([2750]);
  });

  it("records a declined card as failed with the reason in Japanese", async () => {
    const s = await scene(feePolicy({ mode: "card_only", deposit: null }));
    const card = await payAhead(database.db, fake.provider, s.booking, "card", 0);
    fake.fake.setPaymentMethodBehaviour(card.paymentMethodId ?? "", "4000000000009995");
    await noShow(s);
    const [fee] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(fee).toMatchObject({
      status: "failed",
      amount: 5500,
      failureCode: "insufficient_funds",
    });
    expect(fee?.failureMessage).toContain("残高");
  });

  it("mails a payment link when the card needs authentication; the link paid settles the fee", async () => {
    const s = await scene(feePolicy({ mode: "card_only", deposit: null }));
    const card = await payAhead(database.db, fake.provider, s.booking, "card", 0);
    fake.fake.setPaymentMethodBehaviour(card.paymentMethodId ?? "", "4000002760003184");
    await noShow(s);
    const [fee] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(fee).toMatchObject({ status: "open", failureCode: "authentication_required" });
    expect(fee?.checkoutSessionId).toMatch(/^cs_/);
    const [job] = await database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `fee-link:${fee?.id}`));
    const url = String((job?.payload as Record<string, unknown> | undefined)?.url);
    expect(url.startsWith(fake.fake.url)).toBe(true);
    const session = await fake.provider.retrieveCheckoutSession(fee?.checkoutSessionId ?? "");
    expect(session.amountTotal).toBe(5500);
    // The customer pays on the page (authenticating there); the provider's answer settles it.
    await payOnHostedPage(url, GOOD_CARD);
    const done = await fake.provider.retrieveCheckoutSession(session.id);
    await settleCheckout(database.db, fake.provider, done, { now: new Date() });
    const [paid] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(paid).toMatchObject({ status: "succeeded", paymentIntentId: done.paymentIntentId });
  });

  it("keeps the fee pending when the provider does not answer, and the retry sends the same key: one charge", async () => {
    const s = await scene(feePolicy({ mode: "card_only", deposit: null }));
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
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
    const [pending] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(pending?.status).toBe("pending");
    // The charge was made at the provider although we never heard.
    expect(feeIntents(s.booking.id)).toHaveLength(1);
    const { sendBookingMoney } = await import("../../server/bookings/booking-fees.server");
    await sendBookingMoney(database.db, fake.provider, s.booking.id, {
      ...money(),
      now: new Date(),
    });
    const [fee] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(fee?.status).toBe("succeeded");
    expect(feeIntents(s.booking.id)).toHaveLength(1);
  });
});

describe("from the booking detail page", () => {
  it("無断キャンセル pressed on the page charges the fee, and the page lists it with who and when", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "deposit", 1100);
    const access = accessOf(s, "reception");
    const at = new Date(START.getTime() + 1_800_000);
    const outcome = await submitBookingForm(
      database.db,
      access,
      s.booking.id,
      form({ intent: "no_show", version: String(s.booking.version) }),
      at,
      money(),
    );
    expect(outcome.kind).toBe("done");
    const page = await bookingDetailPage(
      database.db,
      access,
      s.booking.id,
      new URL("http://127.0.0.1/"),
      at,
    );
    expect(
      page?.booking.payments?.map((p) => [p.kindLabel, p.amount, p.statusLabel, p.byLabel]),
    ).toEqual([
      ["予約金", 1100, "完了", "お客様"],
      ["キャンセル料（無断キャンセル）", 4400, "完了", s.staffUser.name],
    ]);
    expect(page?.booking.payments?.[1]?.atLabel).toMatch(
      /^\d{4}年\d{1,2}月\d{1,2}日\(.\) \d{2}:\d{2}$/,
    );
  });
});

describe("cancellations", () => {
  it("a customer's cancellation on the day charges the 当日 fee less the deposit", async () => {
    const s = await scene();
    await payAhead(database.db, fake.provider, s.booking, "deposit", 1100);
    await cancelBooking(database.db, {
      bookingId: s.booking.id,
      userId: s.customer.id,
      reason: "",
      now: new Date("2026-12-03T08:00:00+09:00"),
      money: money(),
    });
    const [fee] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(fee).toMatchObject({
      amount: 2750 - 1100,
      feeWindow: "same_day",
      status: "succeeded",
      idempotencyKey: `fee:${s.booking.id}:late_cancel`,
      createdBy: null,
    });
  });

  it("a customer's cancellation the day before charges the 前日 fee; ahead of the windows it refunds the deposit", async () => {
    const early = await scene(feePolicy({ mode: "card_only", deposit: null }));
    await payAhead(database.db, fake.provider, early.booking, "card", 0);
    await cancelBooking(database.db, {
      bookingId: early.booking.id,
      userId: early.customer.id,
      reason: "",
      now: new Date("2026-12-02T21:00:00+09:00"),
      money: money(),
    });
    expect((await rowsOf(early.booking.id)).find((r) => r.kind === "fee")).toMatchObject({
      amount: 1650,
      feeWindow: "day_before",
      status: "succeeded",
    });

    const free = await scene();
    const deposit = await payAhead(database.db, fake.provider, free.booking, "deposit", 1100);
    await cancelBooking(database.db, {
      bookingId: free.booking.id,
      userId: free.customer.id,
      reason: "",
      now: NOW,
      money: money(),
    });
    const rows = await rowsOf(free.booking.id);
    expect(rows.find((r) => r.kind === "fee")).toBeUndefined();
    expect(rows.find((r) => r.kind === "refund")).toMatchObject({
      amount: 1100,
      status: "succeeded",
    });
    expect(refundsAtFake(deposit.paymentIntentId).map((r) => r.amount)).toEqual([1100]);
  });

  it("a cancellation by the salon refunds everything paid, with the refund's key, by whom", async () => {
    const s = await scene(feePolicy({ mode: "full", deposit: null }));
    const full = await payAhead(database.db, fake.provider, s.booking, "full", 5500);
    await applyBookingAction(
      database.db,
      { salonId: s.salon.id, bookingId: s.booking.id },
      { action: "cancel", version: s.booking.version, category: "salon", message: "" },
      salonActor(s.staffUser.id),
      new Date("2026-12-03T08:00:00+09:00"),
      money(),
    );
    const rows = await rowsOf(s.booking.id);
    expect(rows.find((r) => r.kind === "fee")).toBeUndefined();
    expect(rows.find((r) => r.kind === "refund")).toMatchObject({
      amount: 5500,
      status: "succeeded",
      idempotencyKey: `refund:${full.id}:1`,
      createdBy: s.staffUser.id,
    });
    expect(rows.find((r) => r.id === full.id)?.status).toBe("refunded");
    expect(refundsAtFake(full.paymentIntentId).map((r) => r.amount)).toEqual([5500]);
  });

  it("a customer's 予約変更 keeps the payment as it is", async () => {
    const s = await scene();
    const deposit = await payAhead(database.db, fake.provider, s.booking, "deposit", 1100);
    await rescheduleBooking(database.db, {
      ...bookingClient(database.db),
      bookingId: s.booking.id,
      userId: s.customer.id,
      start: new Date("2026-12-04T14:00:00+09:00"),
      now: NOW,
    });
    const rows = await rowsOf(s.booking.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: deposit.id, status: "succeeded", amount: 1100 });
    expect(refundsAtFake(deposit.paymentIntentId)).toHaveLength(0);
    // And the fee windows follow the new start: a cancellation on the new day owes 当日.
    await cancelBooking(database.db, {
      bookingId: s.booking.id,
      userId: s.customer.id,
      reason: "",
      now: new Date("2026-12-04T08:00:00+09:00"),
      money: money(),
    });
    expect((await rowsOf(s.booking.id)).find((r) => r.kind === "fee")).toMatchObject({
      feeWindow: "same_day",
      amount: 1650,
    });
  });
});

/** The salon's person as the back office sees them (the capability table decides the rest). */
function accessOf(
  s: Awaited<ReturnType<typeof scene>>,
  role: "owner" | "manager" | "reception",
): SalonAccess {
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

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

describe("the salon's refunds, waivers and retries", () => {
  it("refunds a part, then the rest, each bounded by what is left, audited; a tampered amount is refused", async () => {
    const s = await scene(feePolicy({ mode: "full", deposit: null }));
    const full = await payAhead(database.db, fake.provider, s.booking, "full", 5500);
    const owner = accessOf(s, "owner");
    const post = (fields: Record<string, string>) =>
      submitPaymentForm(database.db, owner, s.booking.id, form(fields), new Date(), money());
    expect(
      await post({ intent: "refund_payment", paymentId: full.id, amount: "２，０００" }),
    ).toEqual({ done: "refund_payment" });
    // More than is left, nothing, a fraction or a negative: refused with the bound in yen.
    for (const amount of ["3501", "0", "-1", "10.5", "abc"]) {
      const refused = await post({ intent: "refund_payment", paymentId: full.id, amount }).catch(
        (e: unknown) => e,
      );
      expect(refused, amount).toBeInstanceOf(PaymentActionRefusedError);
      expect((refused as PaymentActionRefusedError).status).toBeLessThan(500);
      expect((refused as PaymentActionRefusedError).message).toMatch(/返金額/);
    }
    expect(await post({ intent: "refund_payment", paymentId: full.id, amount: "" })).toEqual({
      done: "refund_payment",
    });
    const refunds = (await rowsOf(s.booking.id)).filter((r) => r.kind === "refund");
    expect(refunds.map((r) => [r.amount, r.idempotencyKey, r.createdBy])).toEqual([
      [2000, `refund:${full.id}:1`, s.staffUser.id],
      [3500, `refund:${full.id}:2`, s.staffUser.id],
    ]);
    expect(refundsAtFake(full.paymentIntentId).map((r) => r.amount)).toEqual([2000, 3500]);
    const nothingLeft = await post({ intent: "refund_payment", paymentId: full.id }).catch(
      (e: unknown) => e,
    );
    expect((nothingLeft as Error).message).toContain("残っていません");
    const audited = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, s.booking.id), eq(auditLog.action, "payment.refund")));
    expect(audited).toHaveLength(2);
    // The detail lists each with who and when.
    const lines = await ownerPaymentsOfBooking(database.db, owner, s.booking.id);
    expect(lines.map((l) => [l.kindLabel, l.amount, l.byLabel])).toEqual([
      ["事前決済（全額）", 5500, "お客様"],
      ["返金（事前決済（全額））", 2000, s.staffUser.name],
      ["返金（事前決済（全額））", 3500, s.staffUser.name],
    ]);
  });

  it("lets an owner or a manager waive a fee not taken, audited; reception may not", async () => {
    const s = await scene(feePolicy({ mode: "card_only", deposit: null }));
    const card = await payAhead(database.db, fake.provider, s.booking, "card", 0);
    fake.fake.setPaymentMethodBehaviour(card.paymentMethodId ?? "", "4000000000000002");
    await noShow(s);
    const [fee] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(fee?.status).toBe("failed");
    const reception = accessOf(s, "reception");
    const lines = await ownerPaymentsOfBooking(database.db, reception, s.booking.id);
    expect(lines.find((l) => l.kind === "fee")).toMatchObject({ canWaive: false, refundable: 0 });
    const forged = await submitPaymentForm(
      database.db,
      reception,
      s.booking.id,
      form({ intent: "waive_fee", paymentId: fee?.id ?? "" }),
      new Date(),
      money(),
    ).catch((e: unknown) => e);
    expect((forged as { status: number }).status).toBe(404);

    const manager = accessOf(s, "manager");
    expect(
      (await ownerPaymentsOfBooking(database.db, manager, s.booking.id)).find(
        (l) => l.kind === "fee",
      ),
    ).toMatchObject({ canWaive: true, reason: expect.stringContaining("カード会社") });
    await submitPaymentForm(
      database.db,
      manager,
      s.booking.id,
      form({ intent: "waive_fee", paymentId: fee?.id ?? "" }),
      new Date(),
      money(),
    );
    const [waived] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    expect(waived).toMatchObject({ status: "waived", waivedBy: s.staffUser.id });
    const audited = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, s.booking.id), eq(auditLog.action, "payment.waive")));
    expect(audited).toHaveLength(1);
    // A paid fee is refunded, never waived.
    const again = await submitPaymentForm(
      database.db,
      manager,
      s.booking.id,
      form({ intent: "waive_fee", paymentId: fee?.id ?? "" }),
      new Date(),
      money(),
    ).catch((e: unknown) => e);
    expect((again as Error).message).toContain("すでに");
  });

  it("再試行 sends a pending fee with its saved key and says so when the provider is still away", async () => {
    const s = await scene(feePolicy({ mode: "card_only", deposit: null }));
    await payAhead(database.db, fake.provider, s.booking, "card", 0);
    fake.fake.injectFault({
      method: "POST",
      path: "/v1/payment_intents",
      kind: "drop",
      when: "before",
      times: Number.POSITIVE_INFINITY,
    });
    const reception = accessOf(s, "reception");
    try {
      await noShow(s);
      const [fee] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
      expect(fee?.status).toBe("pending");
      const line = (await ownerPaymentsOfBooking(database.db, reception, s.booking.id))[1];
      expect(line).toMatchObject({ canRetry: true, statusLabel: "未送信（再試行できます）" });
      const still = await submitPaymentForm(
        database.db,
        reception,
        s.booking.id,
        form({ intent: "retry_payment", paymentId: fee?.id ?? "" }),
        new Date(),
        money(),
      ).catch((e: unknown) => e);
      expect((still as { status: number }).status).toBe(409);
      expect((still as Error).message).toContain("二重に請求されることはありません");
    } finally {
      fake.fake.clearFaults();
    }
    expect(feeIntents(s.booking.id)).toHaveLength(0);
    const [fee] = (await rowsOf(s.booking.id)).filter((r) => r.kind === "fee");
    await submitPaymentForm(
      database.db,
      reception,
      s.booking.id,
      form({ intent: "retry_payment", paymentId: fee?.id ?? "" }),
      new Date(),
      money(),
    );
    expect((await rowsOf(s.booking.id)).find((r) => r.kind === "fee")?.status).toBe("succeeded");
    expect(feeIntents(s.booking.id)).toHaveLength(1);
  });
});
