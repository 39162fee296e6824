import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payOnHostedPage, startPaymentsHarness } from "../../../tests/support/payments";
import { SdkTypes, sdkEndpoints } from "../../../tests/support/stripe-sdk-types";
import { idempotencyKeys } from "../provider.server";
import { parseStripeForm } from "./form-body.server";

/**
 * The fake must not drift into an API that does not exist (issue 40 §5).
 * Stripe's published OpenAPI description is what the `stripe` package is
 * generated from; its resources (method and path of every endpoint) and its
 * types (every parameter, every field an object always has) are that
 * description as of the SDK we ship. This test runs every operation of the
 * adapter against the fake, then checks each request it sent (method, path,
 * parameter names at every depth) and each object the fake answered or sent
 * in a webhook (required fields present, never-null fields not null, no
 * invented fields) against them.
 */

/** For each endpoint we use: the SDK's types file and the interface of its parameters. */
const PARAMS: Record<string, [file: string, params: string]> = {
  "POST /v1/customers": ["Customers.d.ts", "CustomerCreateParams"],
  "POST /v1/checkout/sessions": ["Checkout/Sessions.d.ts", "Checkout.SessionCreateParams"],
  "GET /v1/checkout/sessions/{id}": ["Checkout/Sessions.d.ts", "Checkout.SessionRetrieveParams"],
  "POST /v1/checkout/sessions/{id}/expire": [
    "Checkout/Sessions.d.ts",
    "Checkout.SessionExpireParams",
  ],
  "POST /v1/payment_intents": ["PaymentIntents.d.ts", "PaymentIntentCreateParams"],
  "GET /v1/payment_intents/{id}": ["PaymentIntents.d.ts", "PaymentIntentRetrieveParams"],
  "GET /v1/payment_intents": ["PaymentIntents.d.ts", "PaymentIntentListParams"],
  "GET /v1/setup_intents/{id}": ["SetupIntents.d.ts", "SetupIntentRetrieveParams"],
  "GET /v1/payment_methods/{id}": ["PaymentMethods.d.ts", "PaymentMethodRetrieveParams"],
  "POST /v1/refunds": ["Refunds.d.ts", "RefundCreateParams"],
  "GET /v1/refunds": ["Refunds.d.ts", "RefundListParams"],
};

/** For each object the fake returns: the SDK's types file and the object's interface. */
const OBJECTS: Record<string, [file: string, type: string]> = {
  "checkout.session": ["Checkout/Sessions.d.ts", "Session"],
  payment_intent: ["PaymentIntents.d.ts", "PaymentIntent"],
  setup_intent: ["SetupIntents.d.ts", "SetupIntent"],
  payment_method: ["PaymentMethods.d.ts", "PaymentMethod"],
  customer: ["Customers.d.ts", "Customer"],
  charge: ["Charges.d.ts", "Charge"],
  refund: ["Refunds.d.ts", "Refund"],
  event: ["Events.d.ts", "EventBase"],
};

const typesByFile = new Map<string, SdkTypes>();
const typesOf = (file: string) => {
  let types = typesByFile.get(file);
  if (!types) {
    types = new SdkTypes([file]);
    typesByFile.set(file, types);
  }
  return types;
};

function templateOf(method: string, path: string): string {
  const template = path
    .replace(/^\/v1\/checkout\/sessions\/[^/]+/, "/v1/checkout/sessions/{id}")
    .replace(
      /^\/v1\/(payment_intents|setup_intents|payment_methods|refunds)\/[^/]+$/,
      "/v1/$1/{id}",
    );
  return `${method} ${template}`;
}

function objectProblems(object: Record<string, unknown>, where: string): string[] {
  const kind = String(object.object);
  const entry = OBJECTS[kind];
  if (!entry) return [`${where}: the fake answered an object of type ${kind}, unknown here`];
  // An event's data.object is any resource (checked by its own type below).
  const shape =
    kind === "event" ? { ...object, data: { ...(object.data as object), object: {} } } : object;
  const problems = typesOf(entry[0])
    .shapeProblems(entry[1], shape)
    .map((p) => `${where} (${kind}): ${p}`);
  if (kind === "event") {
    const inner = (object.data as { object: Record<string, unknown> }).object;
    problems.push(...objectProblems(inner, `${where}.data.object`));
  }
  return problems;
}

let harness: Awaited<ReturnType<typeof startPaymentsHarness>>;
const answers: unknown[] = [];

beforeAll(async () => {
  harness = await startPaymentsHarness();
  const { provider, fake } = harness;
  // Every operation of the adapter, with every kind of answer.
  const urls = {
    successUrl: "http://localhost/ok/{CHECKOUT_SESSION_ID}",
    cancelUrl: "http://localhost/back",
  };
  const paid = await provider.createCheckoutSession({
    bookingId: "b1",
    mode: "payment",
    amount: 5000,
    description: "全額事前決済",
    customerEmail: "a@example.com",
    customerName: "山田 花子",
    expiresAt: new Date(Date.now() + 60 * 60_000),
    metadata: { salon_id: "s1" },
    ...urls,
    idempotencyKey: idempotencyKeys.checkout("b1"),
  });
  await payOnHostedPage(paid.url ?? "", "4242424242424242");
  const kept = await provider.retrieveCheckoutSession(paid.id);
  const setup = await provider.createCheckoutSession({
    bookingId: "b2",
    mode: "setup",
    description: "カード登録",
    customerId: kept.customerId ?? undefined,
    ...urls,
    idempotencyKey: idempotencyKeys.checkout("b2"),
  });
  await payOnHostedPage(setup.url ?? "", "4000002760003184");
  await fetch(`${setup.url}/authenticate`, {
    method: "POST",
    body: new URLSearchParams({ result: "approve" }),
    redirect: "manual",
  });
  const strict = await provider.retrieveCheckoutSession(setup.id);
  const declined = await provider.createCheckoutSession({
    bookingId: "b3",
    mode: "payment",
    amount: 1000,
    description: "予約金",
    ...urls,
    idempotencyKey: idempotencyKeys.checkout("b3"),
  });
  await payOnHostedPage(declined.url ?? "", "4000000000000002");
  await provider.expireCheckoutSession(declined.id);
  await provider.chargeOffSession({
    bookingId: "b1",
    customerId: kept.customerId ?? "",
    paymentMethodId: kept.paymentMethodId ?? "",
    amount: 2000,
    description: "当日キャンセル料",
    metadata: { kind: "late_cancel" },
    idempotencyKey: idempotencyKeys.fee("b1", "late_cancel"),
  });
  await provider.chargeOffSession({
    bookingId: "b2",
    customerId: strict.customerId ?? "",
    paymentMethodId: strict.paymentMethodId ?? "",
    amount: 2000,
    description: "無断キャンセル料",
    idempotencyKey: idempotencyKeys.fee("b2", "no_show"),
  });
  await provider.retrievePayment(kept.paymentIntentId ?? "");
  await provider.refund({
    paymentIntentId: kept.paymentIntentId ?? "",
    amount: 500,
    reason: "requested_by_customer",
    metadata: { by: "owner" },
    idempotencyKey: idempotencyKeys.refund(kept.paymentIntentId ?? "", 1),
  });
  const range = {
    createdFrom: new Date(Date.now() - 60_000),
    createdBefore: new Date(Date.now() + 60_000),
  };
  for await (const _ of provider.listPayments(range));
  for await (const _ of provider.listRefunds({
    ...range,
    paymentIntentId: kept.paymentIntentId ?? "",
  }));
  await harness.receiver.waitFor((events) => events.some((e) => e.type === "charge.refunded"));

  // The raw answers, as the SDK got them, for the shape check.
  const raw = new Stripe(harness.secretKey, {
    host: new URL(harness.apiUrl).hostname,
    port: Number(new URL(harness.apiUrl).port),
    protocol: "http",
  });
  answers.push(
    await raw.checkout.sessions.retrieve(paid.id, { expand: ["payment_intent"] }),
    await raw.setupIntents.retrieve(strict.setupIntentId ?? ""),
    await raw.paymentMethods.retrieve(kept.paymentMethodId ?? ""),
  );
  for (const map of [
    fake.customers,
    fake.sessions,
    fake.paymentIntents,
    fake.setupIntents,
    fake.paymentMethods,
    fake.charges,
    fake.refunds,
  ]) {
    answers.push(...map.values());
  }
  answers.push(...fake.events);
});

afterAll(async () => {
  await harness.close();
});

describe("the fake against Stripe's API description (the stripe package's generated resources and types)", () => {
  it("was sent only endpoints that exist, each one the fake knows", () => {
    const endpoints = sdkEndpoints();
    const sent = new Set(harness.fake.requests.map((r) => templateOf(r.method, r.path)));
    expect([...sent].filter((e) => !endpoints.has(e))).toEqual([]);
    expect([...sent].filter((e) => !PARAMS[e])).toEqual([]);
    // Every endpoint the adapter uses was exercised.
    expect([...sent].sort()).toEqual(
      expect.arrayContaining([
        "POST /v1/customers",
        "POST /v1/checkout/sessions",
        "GET /v1/checkout/sessions/{id}",
        "POST /v1/checkout/sessions/{id}/expire",
        "POST /v1/payment_intents",
        "GET /v1/payment_intents/{id}",
        "GET /v1/payment_intents",
        "POST /v1/refunds",
        "GET /v1/refunds",
      ]),
    );
    // And every endpoint the fake serves exists.
    expect(Object.keys(PARAMS).filter((e) => !endpoints.has(e))).toEqual([]);
  });

  it("was sent only parameters the API has, at every depth", () => {
    const problems = harness.fake.requests.flatMap((request) => {
      const entry = PARAMS[templateOf(request.method, request.path)];
      if (!entry) return [`${request.method} ${request.path}: not an endpoint we use`];
      return typesOf(entry[0])
        .paramProblems(entry[1], request.params)
        .map((p) => `${request.method} ${request.path}: ${p}`);
    });
    expect(problems).toEqual([]);
  });

  it("answers with objects carrying every field Stripe always returns, and none it does not", () => {
    expect(answers.length).toBeGreaterThan(20);
    const problems = answers.flatMap((object, index) =>
      objectProblems(object as Record<string, unknown>, `answer ${index}`),
    );
    expect(problems).toEqual([]);
  });

  it("answers errors shaped as Stripe's (type, code, decline_code, message)", async () => {
    const response = await fetch(`${harness.apiUrl}/v1/payment_intents`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${harness.secretKey}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "amount=1000&currency=jpy&surprise=1",
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      type: "invalid_request_error",
      code: "parameter_unknown",
      param: "surprise",
    });
    // Stripe's error object (api_errors) is the type of a PaymentIntent's last_payment_error.
    const apiErrors = typesOf("PaymentIntents.d.ts");
    expect(apiErrors.shapeProblems("PaymentIntent.LastPaymentError", error)).toEqual([]);
    const cardError = harness.fake.requests.find((r) => r.status === 402);
    expect(cardError).toBeDefined();
  });

  it("catches a parameter the API does not have (the check can fail)", () => {
    const types = typesOf("Checkout/Sessions.d.ts");
    expect(
      types.paramProblems("Checkout.SessionCreateParams", {
        mode: "payment",
        payment_intent_data: { setup_future_usage: "off_session", keep_card: "true" },
        line_items: [{ price_data: { currency: "jpy", amount: "100" } }],
      }),
    ).toEqual([
      "payment_intent_data.keep_card is not a parameter of Checkout.SessionCreateParams.PaymentIntentData",
      "line_items[0].price_data.amount is not a parameter of Checkout.SessionCreateParams.LineItem.PriceData",
    ]);
    expect(
      typesOf("Refunds.d.ts").shapeProblems("Refund", {
        id: "re_1",
        object: "refund",
        refunded_at: 1,
      }),
    ).toEqual(
      expect.arrayContaining([
        "amount is missing (Refund)",
        "refunded_at is not a field of Refund",
      ]),
    );
  });

  it("reads Stripe's form encoding as Stripe does", () => {
    expect(
      parseStripeForm(
        "line_items[0][price_data][currency]=jpy&line_items[0][quantity]=1&expand[0]=payment_intent&expand[1]=setup_intent&metadata[booking_id]=b1",
      ),
    ).toEqual({
      line_items: [{ price_data: { currency: "jpy" }, quantity: "1" }],
      expand: ["payment_intent", "setup_intent"],
      metadata: { booking_id: "b1" },
    });
  });
});
