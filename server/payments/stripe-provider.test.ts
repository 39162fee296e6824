import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  payOnHostedPage,
  startPaymentsHarness,
  startWebhookReceiver,
} from "../../tests/support/payments";
import { startFakePayments } from "./payments.server";
import {
  type CheckoutSession,
  idempotencyKeys,
  PaymentProviderUnavailableError,
  PaymentRequestError,
  WebhookSignatureError,
} from "./provider.server";
import { createStripeProvider } from "./stripe-provider.server";

/**
 * The Stripe adapter (the official SDK) against the fake Stripe over HTTP:
 * every operation the booking flow will use, idempotency, the hosted page
 * driven by plain form posts, signed webhooks and the injected faults.
 */
let harness: Awaited<ReturnType<typeof startPaymentsHarness>>;
let bookingSeq = 0;
const nextBooking = () => `bk-${Date.now()}-${++bookingSeq}`;

beforeAll(async () => {
  harness = await startPaymentsHarness();
});
afterAll(async () => {
  await harness.close();
});
afterEach(() => {
  harness.fake.clearFaults();
  harness.fake.setDuplicateWebhooks(false);
  harness.fake.releaseWebhooks();
});

const urls = (bookingId: string) => ({
  successUrl: `http://localhost:3000/bookings/${bookingId}/paid?session={CHECKOUT_SESSION_ID}`,
  cancelUrl: `http://localhost:3000/bookings/${bookingId}/confirm`,
});

async function depositSession(bookingId: string, amount = 3000): Promise<CheckoutSession> {
  return harness.provider.createCheckoutSession({
    bookingId,
    mode: "payment",
    amount,
    description: "予約金（カット）",
    customerEmail: "hanako@example.com",
    ...urls(bookingId),
    idempotencyKey: idempotencyKeys.checkout(bookingId),
  });
}

/** A booking paid on the hosted page with `card`; resolves once the completion webhook arrived. */
async function paidBooking(card = "4242 4242 4242 4242") {
  const bookingId = nextBooking();
  const session = await depositSession(bookingId);
  const answer = await payOnHostedPage(session.url ?? "", card);
  expect(answer.status).toBe(303);
  await harness.receiver.waitFor((events) =>
    events.some((e) => e.kind === "checkout_completed" && e.session.id === session.id),
  );
  return { bookingId, session: await harness.provider.retrieveCheckoutSession(session.id) };
}

describe("checkout sessions", () => {
  it("creates a JPY payment page that keeps the card, tagged with the booking", async () => {
    const bookingId = nextBooking();
    const session = await depositSession(bookingId, 4500);
    expect(session).toMatchObject({
      mode: "payment",
      status: "open",
      paymentStatus: "unpaid",
      bookingId,
      amountTotal: 4500,
      paymentIntentId: null,
    });
    expect(session.url).toMatch(new RegExp(`^${harness.apiUrl}/c/pay/cs_test_`));
    expect(session.customerId).toMatch(/^cus_/);
    const sent = harness.fake.requests.findLast((r) => r.path === "/v1/checkout/sessions");
    expect(sent?.params).toMatchObject({
      mode: "payment",
      customer: session.customerId,
      payment_intent_data: {
        setup_future_usage: "off_session",
        metadata: { booking_id: bookingId },
      },
      line_items: [{ quantity: "1", price_data: { currency: "jpy", unit_amount: "4500" } }],
    });
    expect(sent?.idempotencyKey).toBe(`deposit:${bookingId}`);
  });

  it("answers the same key and parameters with the same session, once", async () => {
    const bookingId = nextBooking();
    const customersBefore = harness.fake.customers.size;
    const sessionsBefore = harness.fake.sessions.size;
    const first = await depositSession(bookingId);
    const again = await depositSession(bookingId);
    expect(again.id).toBe(first.id);
    expect(again.customerId).toBe(first.customerId);
    // Replayed as first answered, even after the page was paid.
    await payOnHostedPage(first.url ?? "", "4242424242424242");
    expect(await depositSession(bookingId)).toMatchObject({ status: "open", url: first.url });
    expect(harness.fake.sessions.size).toBe(sessionsBefore + 1);
    expect(harness.fake.customers.size).toBe(customersBefore + 1);
  });

  it("refuses the same key with other parameters (idempotency_error)", async () => {
    const bookingId = nextBooking();
    await depositSession(bookingId, 3000);
    const error = await depositSession(bookingId, 9000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequestError);
    expect((error as PaymentRequestError).type).toBe("idempotency_error");
    expect((error as PaymentRequestError).statusCode).toBe(400);
  });

  it("refuses a page that would close in under 30 minutes, as Stripe does", async () => {
    const bookingId = nextBooking();
    const error = await harness.provider
      .createCheckoutSession({
        bookingId,
        mode: "payment",
        amount: 3000,
        description: "予約金",
        ...urls(bookingId),
        expiresAt: new Date(Date.now() + 10 * 60_000),
        idempotencyKey: idempotencyKeys.checkout(bookingId),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequestError);
    expect((error as Error).message).toContain("expires_at");
  });

  it("expires an open page: the page says so and a webhook tells us", async () => {
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    const expired = await harness.provider.expireCheckoutSession(session.id);
    expect(expired).toMatchObject({ status: "expired", url: null });
    const page = await fetch(session.url ?? "");
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("有効期限が切れました");
    await harness.receiver.waitFor((events) =>
      events.some((e) => e.kind === "checkout_expired" && e.session.id === session.id),
    );
  });

  it("reads a page past its expires_at as expired (the fake's clock)", async () => {
    let now = new Date();
    const timed = await startFakePayments({ now: () => now });
    try {
      const bookingId = nextBooking();
      const session = await timed.provider.createCheckoutSession({
        bookingId,
        mode: "payment",
        amount: 3000,
        description: "予約金",
        ...urls(bookingId),
        expiresAt: new Date(now.getTime() + 31 * 60_000),
        idempotencyKey: idempotencyKeys.checkout(bookingId),
      });
      now = new Date(now.getTime() + 32 * 60_000);
      expect((await fetch(session.url ?? "")).status).toBe(410);
      expect(await timed.provider.retrieveCheckoutSession(session.id)).toMatchObject({
        status: "expired",
      });
      expect(timed.fake.events.map((e) => e.type)).toContain("checkout.session.expired");
    } finally {
      await timed.fake.close();
    }
  });

  it("rejects a wrong secret key", async () => {
    const wrong = createStripeProvider({
      secretKey: "sk_test_wrong",
      webhookSecret: "whsec_x",
      apiUrl: harness.apiUrl,
    });
    const error = await wrong.retrievePayment("pi_x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequestError);
    expect((error as PaymentRequestError).statusCode).toBe(401);
  });
});

describe("the hosted テスト決済 page", () => {
  it("takes 4242…: redirects to success_url and confirms by webhook and by retrieve", async () => {
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    const page = await fetch(session.url ?? "");
    const html = await page.text();
    expect(html).toContain('<html lang="ja">');
    expect(html).toMatch(/<label for="number">カード番号<\/label>/);
    expect(html).toContain("￥3,000");

    const answer = await payOnHostedPage(session.url ?? "", "4242 4242 4242 4242");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(
      `http://localhost:3000/bookings/${bookingId}/paid?session=${session.id}`,
    );
    await harness.receiver.waitFor((events) =>
      events.some((e) => e.kind === "checkout_completed" && e.session.id === session.id),
    );
    const completed = harness.receiver.received.find(
      (e) => e.kind === "checkout_completed" && e.session.id === session.id,
    );
    expect(completed).toMatchObject({ session: { bookingId, paymentStatus: "paid" } });

    const confirmed = await harness.provider.retrieveCheckoutSession(session.id);
    expect(confirmed).toMatchObject({ status: "complete", paymentStatus: "paid", url: null });
    expect(confirmed.paymentMethodId).toMatch(/^pm_/);
    const payment = await harness.provider.retrievePayment(confirmed.paymentIntentId ?? "");
    expect(payment).toMatchObject({
      status: "succeeded",
      amount: 3000,
      amountReceived: 3000,
      currency: "jpy",
      bookingId,
      customerId: session.customerId,
      paymentMethodId: confirmed.paymentMethodId,
    });
    await harness.receiver.waitFor((events) =>
      events.some((e) => e.kind === "payment_succeeded" && e.payment.id === payment.id),
    );
  });

  it("declines 4000…0002 with a Japanese message, keeps what was typed, and stays open", async () => {
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    const answer = await payOnHostedPage(session.url ?? "", "4000 0000 0000 0002");
    expect(answer.status).toBe(422);
    const html = await answer.text();
    expect(html).toContain("カードが拒否されました");
    expect(html).toContain('value="4000 0000 0000 0002"');
    expect(html).toContain('role="alert"');
    const after = await harness.provider.retrieveCheckoutSession(session.id);
    expect(after.status).toBe("open");
    const payment = await harness.provider.retrievePayment(after.paymentIntentId ?? "");
    expect(payment.status).toBe("requires_payment_method");
    expect(payment.lastError).toMatchObject({
      code: "card_declined",
      declineCode: "generic_decline",
    });
    await harness.receiver.waitFor((events) =>
      events.some((e) => e.kind === "payment_failed" && e.payment.id === payment.id),
    );
  });

  it("declines 4000…9995 for insufficient funds", async () => {
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    const answer = await payOnHostedPage(session.url ?? "", "4000000000009995");
    expect(await answer.text()).toContain("残高が不足しています");
    const after = await harness.provider.retrieveCheckoutSession(session.id);
    const payment = await harness.provider.retrievePayment(after.paymentIntentId ?? "");
    expect(payment.lastError?.declineCode).toBe("insufficient_funds");
  });

  it("asks for a card number it knows, with the field marked", async () => {
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    const answer = await payOnHostedPage(session.url ?? "", "1234", { expiry: "13/99" });
    expect(answer.status).toBe(422);
    const html = await answer.text();
    expect(html).toContain("カード番号を16桁の数字で入力してください");
    expect(html).toMatch(/id="number"[^>]*aria-invalid="true"/);
    expect(html).toContain("有効期限");
  });

  it("sends 4000 0027 6000 3184 through a simulated 3-D Secure step", async () => {
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    const answer = await payOnHostedPage(session.url ?? "", "4000 0027 6000 3184");
    expect(answer.status).toBe(303);
    const step = new URL(answer.headers.get("location") ?? "", harness.apiUrl).href;
    expect(step).toBe(`${session.url}/authenticate`);
    expect(await (await fetch(step)).text()).toContain("本人認証");

    const failed = await fetch(step, {
      method: "POST",
      body: new URLSearchParams({ result: "fail" }),
      redirect: "manual",
    });
    expect(failed.headers.get("location")).toContain("error=authentication_failed");
    const retry = await payOnHostedPage(session.url ?? "", "4000 0027 6000 3184");
    expect(retry.status).toBe(303);
    const approved = await fetch(step, {
      method: "POST",
      body: new URLSearchParams({ result: "approve" }),
      redirect: "manual",
    });
    expect(approved.headers.get("location")).toContain(`/bookings/${bookingId}/paid`);
    const done = await harness.provider.retrieveCheckoutSession(session.id);
    expect(done).toMatchObject({ status: "complete", paymentStatus: "paid" });
  });

  it("keeps a card without charging in setup mode (カード登録のみ)", async () => {
    const bookingId = nextBooking();
    const session = await harness.provider.createCheckoutSession({
      bookingId,
      mode: "setup",
      description: "キャンセル料のためのカード登録",
      ...urls(bookingId),
      idempotencyKey: idempotencyKeys.checkout(bookingId),
    });
    expect(session).toMatchObject({ mode: "setup", paymentStatus: "no_payment_required" });
    expect(session.setupIntentId).toMatch(/^seti_/);
    expect(await (await fetch(session.url ?? "")).text()).toContain("カードを登録する");
    const answer = await payOnHostedPage(session.url ?? "", "4242424242424242");
    expect(answer.status).toBe(303);
    const done = await harness.provider.retrieveCheckoutSession(session.id);
    expect(done).toMatchObject({ status: "complete", paymentIntentId: null });
    expect(done.paymentMethodId).toMatch(/^pm_/);
    const payments = harness.fake.paymentIntents.size;

    const fee = await harness.provider.chargeOffSession({
      bookingId,
      customerId: done.customerId ?? "",
      paymentMethodId: done.paymentMethodId ?? "",
      amount: 2500,
      description: "無断キャンセル料",
      idempotencyKey: idempotencyKeys.fee(bookingId, "no_show"),
    });
    expect(fee).toMatchObject({ outcome: "succeeded", payment: { amount: 2500, bookingId } });
    expect(harness.fake.paymentIntents.size).toBe(payments + 1);
  });
});

describe("off-session fees", () => {
  it("charges a kept card once, however often the same key is sent", async () => {
    const { bookingId, session } = await paidBooking();
    const fee = () =>
      harness.provider.chargeOffSession({
        bookingId,
        customerId: session.customerId ?? "",
        paymentMethodId: session.paymentMethodId ?? "",
        amount: 1500,
        description: "当日キャンセル料",
        idempotencyKey: idempotencyKeys.fee(bookingId, "late_cancel"),
      });
    const [first, second] = await Promise.all([fee(), fee()]);
    const third = await fee();
    expect(first.outcome).toBe("succeeded");
    const id = first.outcome === "succeeded" ? first.payment.id : "";
    expect(second).toMatchObject({ outcome: "succeeded", payment: { id } });
    expect(third).toMatchObject({ outcome: "succeeded", payment: { id } });
    const charged = [...harness.fake.paymentIntents.values()].filter(
      (pi) => (pi.metadata as Record<string, string>).booking_id === bookingId,
    );
    expect(charged.map((pi) => pi.amount).sort()).toEqual([1500, 3000]);
  });

  it("says authentication_required for a card saved from 4000 0027 6000 3184 (mail a link)", async () => {
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    await payOnHostedPage(session.url ?? "", "4000002760003184");
    await fetch(`${session.url}/authenticate`, {
      method: "POST",
      body: new URLSearchParams({ result: "approve" }),
      redirect: "manual",
    });
    const kept = await harness.provider.retrieveCheckoutSession(session.id);
    const result = await harness.provider.chargeOffSession({
      bookingId,
      customerId: kept.customerId ?? "",
      paymentMethodId: kept.paymentMethodId ?? "",
      amount: 3000,
      description: "無断キャンセル料",
      idempotencyKey: idempotencyKeys.fee(bookingId, "no_show"),
    });
    expect(result.outcome).toBe("authentication_required");
    const intentId = result.outcome === "authentication_required" ? result.paymentIntentId : null;
    expect(intentId).toMatch(/^pi_/);
    expect((await harness.provider.retrievePayment(intentId ?? "")).status).toBe(
      "requires_payment_method",
    );
    await harness.receiver.waitFor((events) =>
      events.some((e) => e.kind === "payment_failed" && e.payment.id === intentId),
    );
  });

  it("reports a decline of a kept card with its code", async () => {
    const { bookingId, session } = await paidBooking();
    harness.fake.setPaymentMethodBehaviour(session.paymentMethodId ?? "", "4000000000009995");
    const result = await harness.provider.chargeOffSession({
      bookingId,
      customerId: session.customerId ?? "",
      paymentMethodId: session.paymentMethodId ?? "",
      amount: 3000,
      description: "無断キャンセル料",
      idempotencyKey: idempotencyKeys.fee(bookingId, "no_show"),
    });
    expect(result).toMatchObject({
      outcome: "declined",
      code: "card_declined",
      declineCode: "insufficient_funds",
    });
  });

  it("after a connection dropped once the charge was made: an error now, the same charge on retry", async () => {
    const { bookingId, session } = await paidBooking();
    harness.fake.injectFault({
      method: "POST",
      path: "/v1/payment_intents",
      kind: "drop",
      when: "after",
      times: Number.POSITIVE_INFINITY,
    });
    const charge = () =>
      harness.provider.chargeOffSession({
        bookingId,
        customerId: session.customerId ?? "",
        paymentMethodId: session.paymentMethodId ?? "",
        amount: 2000,
        description: "無断キャンセル料",
        idempotencyKey: idempotencyKeys.fee(bookingId, "no_show"),
      });
    const error = await charge().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderUnavailableError);
    expect((error as PaymentProviderUnavailableError).outcomeUnknown).toBe(true);
    const fees = () =>
      [...harness.fake.paymentIntents.values()].filter(
        (pi) =>
          (pi.metadata as Record<string, string>).booking_id === bookingId && pi.amount === 2000,
      );
    // The caller saw an error, but the money moved.
    expect(fees().map((pi) => pi.status)).toEqual(["succeeded"]);

    harness.fake.clearFaults();
    const retried = await charge();
    expect(retried).toMatchObject({ outcome: "succeeded", payment: { id: fees()[0]?.id } });
    expect(fees()).toHaveLength(1);
  });

  it("after a timeout once the charge was made: an error now, the same charge on retry", async () => {
    const impatient = await startFakePayments({ timeoutMs: 300, maxNetworkRetries: 0 });
    try {
      const bookingId = nextBooking();
      const session = await impatient.provider.createCheckoutSession({
        bookingId,
        mode: "setup",
        description: "カード登録",
        ...urls(bookingId),
        idempotencyKey: idempotencyKeys.checkout(bookingId),
      });
      await payOnHostedPage(session.url ?? "", "4242424242424242");
      const kept = await impatient.provider.retrieveCheckoutSession(session.id);
      impatient.fake.injectFault({
        method: "POST",
        path: "/v1/payment_intents",
        kind: "hang",
        when: "after",
        times: 1,
      });
      const charge = () =>
        impatient.provider.chargeOffSession({
          bookingId,
          customerId: kept.customerId ?? "",
          paymentMethodId: kept.paymentMethodId ?? "",
          amount: 1000,
          description: "前日キャンセル料",
          idempotencyKey: idempotencyKeys.fee(bookingId, "late_cancel"),
        });
      await expect(charge()).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
      expect([...impatient.fake.paymentIntents.values()].map((pi) => pi.status)).toEqual([
        "succeeded",
      ]);
      const retried = await charge();
      expect(retried.outcome).toBe("succeeded");
      expect(impatient.fake.paymentIntents.size).toBe(1);
    } finally {
      await impatient.fake.close();
    }
  });
});

describe("refunds and reconciliation", () => {
  it("refunds part, then the rest, never more than was paid", async () => {
    const { session } = await paidBooking();
    const paymentId = session.paymentIntentId ?? "";
    const part = await harness.provider.refund({
      paymentIntentId: paymentId,
      amount: 1000,
      reason: "requested_by_customer",
      idempotencyKey: idempotencyKeys.refund(paymentId, 1),
    });
    expect(part).toMatchObject({ amount: 1000, status: "succeeded", paymentIntentId: paymentId });
    const again = await harness.provider.refund({
      paymentIntentId: paymentId,
      amount: 1000,
      reason: "requested_by_customer",
      idempotencyKey: idempotencyKeys.refund(paymentId, 1),
    });
    expect(again.id).toBe(part.id);

    const tooMuch = await harness.provider
      .refund({
        paymentIntentId: paymentId,
        amount: 2500,
        idempotencyKey: idempotencyKeys.refund(paymentId, 2),
      })
      .catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(PaymentRequestError);
    expect((tooMuch as PaymentRequestError).code).toBe("amount_too_large");

    const rest = await harness.provider.refund({
      paymentIntentId: paymentId,
      idempotencyKey: idempotencyKeys.refund(paymentId, 2),
    });
    expect(rest.amount).toBe(2000);

    const listed = [];
    for await (const refund of harness.provider.listRefunds({
      createdFrom: new Date(Date.now() - 60_000),
      createdBefore: new Date(Date.now() + 60_000),
      paymentIntentId: paymentId,
    })) {
      listed.push(refund);
    }
    expect(listed.map((r) => r.amount)).toEqual([1000, 2000]);
    await harness.receiver.waitFor(
      (events) =>
        events.filter((e) => e.kind === "charge_refunded" && e.paymentIntentId === paymentId)
          .length === 2,
    );
    const last = harness.receiver.received.findLast(
      (e) => e.kind === "charge_refunded" && e.paymentIntentId === paymentId,
    );
    expect(last).toMatchObject({ amountRefunded: 3000 });
  });

  it("lists every payment of a period across pages, oldest first", async () => {
    const fresh = await startFakePayments();
    try {
      const from = new Date(Date.now() - 1000);
      const { session } = await (async () => {
        const bookingId = nextBooking();
        const created = await fresh.provider.createCheckoutSession({
          bookingId,
          mode: "setup",
          description: "カード登録",
          ...urls(bookingId),
          idempotencyKey: idempotencyKeys.checkout(bookingId),
        });
        await payOnHostedPage(created.url ?? "", "4242424242424242");
        return { session: await fresh.provider.retrieveCheckoutSession(created.id) };
      })();
      const made = [];
      for (let i = 0; i < 105; i++) {
        const result = await fresh.provider.chargeOffSession({
          bookingId: `bk-${i}`,
          customerId: session.customerId ?? "",
          paymentMethodId: session.paymentMethodId ?? "",
          amount: 100 + i,
          description: "fee",
          idempotencyKey: idempotencyKeys.fee(`bk-${i}`, "no_show"),
        });
        if (result.outcome === "succeeded") made.push(result.payment.id);
      }
      const listed = [];
      for await (const payment of fresh.provider.listPayments({
        createdFrom: from,
        createdBefore: new Date(Date.now() + 1000),
      })) {
        listed.push(payment.id);
      }
      expect(listed).toEqual(made);
      const pages = fresh.fake.requests.filter(
        (r) => r.method === "GET" && r.path === "/v1/payment_intents",
      );
      expect(pages).toHaveLength(2);
    } finally {
      await fresh.fake.close();
    }
  });
});

describe("webhooks", () => {
  const payload = JSON.stringify({
    id: "evt_test_1",
    object: "event",
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: "pi_1", object: "payment_intent" } },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: "payment_intent.created",
  });

  it("accepts a header made by Stripe.webhooks.generateTestHeaderString", async () => {
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: harness.webhookSecret,
    });
    const event = await harness.provider.parseWebhook(payload, header);
    expect(event).toMatchObject({
      id: "evt_test_1",
      type: "payment_intent.created",
      kind: "other",
    });
  });

  it("rejects a tampered body, a wrong secret, an old timestamp and a missing header", async () => {
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: harness.webhookSecret,
    });
    await expect(
      harness.provider.parseWebhook(payload.replace("pi_1", "pi_2"), header),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
    const otherSecret = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: "whsec_someone_else",
    });
    await expect(harness.provider.parseWebhook(payload, otherSecret)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    const old = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: harness.webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    await expect(harness.provider.parseWebhook(payload, old)).rejects.toThrow(/tolerance/);
    await expect(
      harness.provider.parseWebhook(payload, old, { now: new Date(Date.now() - 60_000) }),
    ).resolves.toMatchObject({ id: "evt_test_1" });
    await expect(harness.provider.parseWebhook(payload, undefined)).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });

  it("retries a delivery our endpoint failed", async () => {
    harness.receiver.failNext(2);
    const { session } = await paidBooking();
    const event = harness.receiver.received.find(
      (e) => e.kind === "checkout_completed" && e.session.id === session.id,
    );
    const attempts = harness.fake.deliveries.filter((d) => d.eventId === event?.id);
    expect(attempts.at(-1)).toMatchObject({ ok: true });
    const failedFirst = harness.fake.deliveries.filter((d) => d.status === 500);
    expect(failedFirst.length).toBeGreaterThanOrEqual(2);
    expect(harness.fake.deliveries.some((d) => d.ok && d.attempt > 1)).toBe(true);
  });

  it("can deliver every event twice", async () => {
    harness.fake.setDuplicateWebhooks(true);
    const { session } = await paidBooking();
    await harness.receiver.waitFor(
      (events) =>
        events.filter((e) => e.kind === "checkout_completed" && e.session.id === session.id)
          .length === 2,
    );
    const copies = harness.receiver.received.filter(
      (e) => e.kind === "checkout_completed" && e.session.id === session.id,
    );
    expect(new Set(copies.map((e) => e.id)).size).toBe(1);
  });

  it("can hold events and deliver them late and out of order", async () => {
    harness.fake.holdWebhooks();
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    await payOnHostedPage(session.url ?? "", "4242424242424242");
    const intentId = (await harness.provider.retrieveCheckoutSession(session.id)).paymentIntentId;
    const mine = () =>
      harness.receiver.received.filter(
        (e) =>
          (e.kind === "checkout_completed" && e.session.id === session.id) ||
          (e.kind === "payment_succeeded" && e.payment.id === intentId),
      );
    expect(mine()).toEqual([]);
    harness.fake.releaseWebhooks("reverse");
    await harness.receiver.waitFor(() => mine().length === 2);
    // Created payment first, then the session; delivered the other way round.
    expect(mine().map((e) => e.type)).toEqual([
      "checkout.session.completed",
      "payment_intent.succeeded",
    ]);
  });

  it("takes faults from another process through its control endpoint, with the secret key only", async () => {
    const control = (body: object, key = harness.secretKey) =>
      fetch(`${harness.apiUrl}/__fake/control`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await control({ action: "holdWebhooks" }, "sk_test_wrong")).status).toBe(401);
    expect((await control({ action: "explode" })).status).toBe(400);
    expect((await control({ action: "holdWebhooks" })).status).toBe(200);
    const bookingId = nextBooking();
    const session = await depositSession(bookingId);
    await payOnHostedPage(session.url ?? "", "4242424242424242");
    const completed = () =>
      harness.receiver.received.filter(
        (e) => e.kind === "checkout_completed" && e.session.id === session.id,
      );
    expect(completed()).toEqual([]);
    expect((await control({ action: "releaseWebhooks" })).status).toBe(200);
    await harness.receiver.waitFor(() => completed().length === 1);
  });

  it("signs what a receiver without the secret cannot accept", async () => {
    const stranger = createStripeProvider({
      secretKey: "sk_test_x",
      webhookSecret: "whsec_not_the_fakes",
      apiUrl: harness.apiUrl,
    });
    const receiver = await startWebhookReceiver(stranger);
    try {
      harness.fake.setWebhookUrl(receiver.url);
      const bookingId = nextBooking();
      const session = await depositSession(bookingId);
      await payOnHostedPage(session.url ?? "", "4242424242424242");
      await harness.fake.waitForDelivery((d) => d.status === 400);
      expect(receiver.received).toEqual([]);
      expect(receiver.rejected[0]).toMatch(/signature/i);
    } finally {
      harness.fake.setWebhookUrl(harness.receiver.url);
      await receiver.close();
    }
  });
});
