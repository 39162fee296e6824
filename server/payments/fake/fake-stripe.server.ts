import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import {
  type CheckoutPageModel,
  renderAuthenticationPage,
  renderCheckoutPage,
  renderClosedPage,
} from "./checkout-page.server";
import { type FormObject, type FormValue, parseStripeForm } from "./form-body.server";
import {
  chargeObject,
  checkoutSessionObject,
  customerObject,
  eventObject,
  paymentIntentObject,
  paymentMethodObject,
  refundObject,
  type StripeObject,
  seconds,
  setupIntentObject,
  stripeId,
} from "./objects.server";

/**
 * A local, stateful stand-in for the few Stripe endpoints we use (issue 40
 * §5, decision 0076): the official SDK talks to it over HTTP exactly as to
 * api.stripe.com, it serves a hosted テスト決済 page for its Checkout
 * Sessions, and it signs and delivers webhooks as Stripe does. Tests inject
 * faults through its methods (or POST /__fake/control).
 */

/** What a card does, by the test number it was typed as (Stripe's own test cards). */
type CardBehaviour =
  | { kind: "succeeds" }
  /** 4000 0027 6000 3184: 3-D Secure on the page, and every off-session charge needs authentication. */
  | { kind: "authenticate" }
  | { kind: "declined"; declineCode: string; message: string };

const CARDS: Record<string, { brand: string; behaviour: CardBehaviour }> = {
  "4242424242424242": { brand: "visa", behaviour: { kind: "succeeds" } },
  "4000002760003184": { brand: "visa", behaviour: { kind: "authenticate" } },
  "4000000000000002": {
    brand: "visa",
    behaviour: {
      kind: "declined",
      declineCode: "generic_decline",
      message: "Your card was declined.",
    },
  },
  "4000000000009995": {
    brand: "visa",
    behaviour: {
      kind: "declined",
      declineCode: "insufficient_funds",
      message: "Your card has insufficient funds.",
    },
  },
};

const DECLINE_MESSAGES_JA: Record<string, string> = {
  generic_decline: "カードが拒否されました。別のカードをお試しください。",
  insufficient_funds: "カードの残高が不足しています。別のカードをお試しください。",
  authentication_failed:
    "本人認証に失敗しました。もう一度お試しいただくか、別のカードをお使いください。",
};

/** A fault on API requests matching method and path (a prefix such as /v1/payment_intents). */
export type ApiFault = {
  method?: string;
  path: string;
  /**
   * `drop`: close the connection without an answer; `hang`: never answer
   * (the client times out). `after` the effect (the charge exists, the caller
   * sees an error) or `before` it (nothing happened).
   */
  kind: "drop" | "hang";
  when: "before" | "after";
  /** How many matching requests it hits; the SDK's own retries count. Infinity until clearFaults(). */
  times: number;
};

export type WebhookDelivery = {
  eventId: string;
  type: string;
  attempt: number;
  status: number | null;
  ok: boolean;
};

export type FakeStripeOptions = {
  /** The Bearer key the API accepts (sk_test_…). */
  secretKey: string;
  /** whsec_…: signs every webhook. */
  webhookSecret: string;
  /** Where webhooks go; unset: events are only stored. */
  webhookUrl?: string;
  port?: number;
  host?: string;
  /** The origin the hosted page's links use (defaults to http://host:port). */
  publicOrigin?: string;
  /** Waits before re-sending a webhook our endpoint failed (Stripe: hours; here: quick). */
  webhookRetryDelaysMs?: number[];
  now?: () => Date;
};

type Idempotent = { fingerprint: string; status: number; body: unknown };
type Waiter = { test: (d: WebhookDelivery) => boolean; resolve: (d: WebhookDelivery) => void };

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    /** Validation before the endpoint ran: Stripe saves no idempotent result for it. */
    readonly beforeExecution = false,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, param?: string, code?: string) =>
  new ApiError(
    400,
    {
      type: "invalid_request_error",
      message,
      ...(param ? { param } : {}),
      ...(code ? { code } : {}),
    },
    true,
  );

const missing = (what: string, id: string, param = "id") =>
  new ApiError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${what}: '${id}'`,
    param,
  });

/** The top-level parameters each endpoint takes (a subset of Stripe's; others are refused as Stripe does). */
export const FAKE_ENDPOINT_PARAMS: Record<string, string[]> = {
  "POST /v1/customers": ["email", "name", "metadata", "description", "expand"],
  "POST /v1/checkout/sessions": [
    "mode",
    "line_items",
    "success_url",
    "cancel_url",
    "customer",
    "customer_email",
    "client_reference_id",
    "currency",
    "expires_at",
    "locale",
    "metadata",
    "payment_intent_data",
    "setup_intent_data",
    "payment_method_types",
    "expand",
  ],
  "GET /v1/checkout/sessions/{id}": ["expand"],
  "POST /v1/checkout/sessions/{id}/expire": ["expand"],
  "POST /v1/payment_intents": [
    "amount",
    "currency",
    "customer",
    "payment_method",
    "off_session",
    "confirm",
    "description",
    "metadata",
    "setup_future_usage",
    "payment_method_types",
    "expand",
  ],
  "GET /v1/payment_intents/{id}": ["expand", "client_secret"],
  "GET /v1/payment_intents": [
    "created",
    "customer",
    "limit",
    "starting_after",
    "ending_before",
    "expand",
  ],
  "GET /v1/setup_intents/{id}": ["expand", "client_secret"],
  "GET /v1/payment_methods/{id}": ["expand"],
  "POST /v1/refunds": ["payment_intent", "amount", "reason", "metadata", "expand"],
  "GET /v1/refunds": [
    "created",
    "payment_intent",
    "charge",
    "limit",
    "starting_after",
    "ending_before",
    "expand",
  ],
};

export class FakeStripe {
  readonly options: Required<Omit<FakeStripeOptions, "webhookUrl" | "publicOrigin">> &
    Pick<FakeStripeOptions, "webhookUrl" | "publicOrigin">;
  private server: Server | null = null;
  private origin = "";
  private sequence = 0;

  readonly customers = new Map<string, StripeObject>();
  readonly sessions = new Map<string, StripeObject>();
  readonly paymentIntents = new Map<string, StripeObject>();
  readonly setupIntents = new Map<string, StripeObject>();
  readonly paymentMethods = new Map<string, StripeObject>();
  readonly charges = new Map<string, StripeObject>();
  readonly refunds = new Map<string, StripeObject>();
  readonly events: StripeObject[] = [];
  /** Every API request, for tests and the OpenAPI check: method, path, parameters, key, answer. */
  readonly requests: {
    method: string;
    path: string;
    params: FormObject;
    idempotencyKey: string | null;
    status: number;
  }[] = [];
  /** Every webhook delivery attempt. */
  readonly deliveries: WebhookDelivery[] = [];

  private readonly order = new Map<string, number>();
  private readonly behaviours = new Map<string, CardBehaviour>();
  private readonly idempotent = new Map<string, Idempotent>();
  private faults: ApiFault[] = [];
  private held: StripeObject[] | null = null;
  private duplicateWebhooks = false;
  private webhookDelayMs = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Set<Waiter>();

  constructor(options: FakeStripeOptions) {
    this.options = {
      port: 0,
      host: "127.0.0.1",
      webhookRetryDelaysMs: [50, 250, 1_000, 5_000, 30_000],
      now: () => new Date(),
      ...options,
    };
  }

  /** Starts listening; resolves with the API base URL (STRIPE_API_URL). */
  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) {
          this.json(response, 500, {
            error: { type: "api_error", message: `fake: ${String(error)}` },
          });
        }
      });
    });
    this.server.listen(this.options.port, this.options.host);
    await once(this.server, "listening");
    const { port } = this.server.address() as AddressInfo;
    const host = this.options.host.includes(":") ? `[${this.options.host}]` : this.options.host;
    this.origin = `http://${host}:${port}`;
    return this.origin;
  }

  get url(): string {
    return this.origin;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (!this.server) return;
    const server = this.server;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // ---- fault injection (tests) -------------------------------------------------

  injectFault(fault: Omit<ApiFault, "times"> & { times?: number }): void {
    this.faults.push({ times: 1, ...fault });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Keep webhooks until releaseWebhooks(): to deliver them late, or out of order. */
  holdWebhooks(): void {
    this.held ??= [];
  }

  /** Delivers what was held: as created, or newest first (out of order). */
  releaseWebhooks(order: "as_created" | "reverse" = "as_created"): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of order === "reverse" ? [...held].reverse() : held) this.deliver(event);
  }

  /** Every webhook is sent twice (Stripe may deliver an event more than once). */
  setDuplicateWebhooks(on: boolean): void {
    this.duplicateWebhooks = on;
  }

  setWebhookDelay(ms: number): void {
    this.webhookDelayMs = ms;
  }

  setWebhookUrl(url: string | undefined): void {
    this.options.webhookUrl = url;
  }

  /** Makes a kept card behave as another test card would (e.g. a later insufficient_funds). */
  setPaymentMethodBehaviour(paymentMethodId: string, testCardNumber: string): void {
    const card = CARDS[testCardNumber.replace(/\D/g, "")];
    if (!card) throw new Error(`not a test card: ${testCardNumber}`);
    this.behaviours.set(paymentMethodId, card.behaviour);
  }

  /** Resolves on the first delivery attempt matching `test` (e.g. `d => d.ok && d.type === …`), made or next. */
  waitForDelivery(
    test: (delivery: WebhookDelivery) => boolean,
    timeoutMs = 5_000,
  ): Promise<WebhookDelivery> {
    const done = this.deliveries.find(test);
    if (done) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        test,
        resolve: (d) => {
          clearTimeout(timer);
          resolve(d);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error("fake Stripe: no matching webhook delivery in time"));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  // ---- HTTP -------------------------------------------------------------------------

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://fake");
    const body = await readBody(request);
    if (url.pathname.startsWith("/c/pay/")) {
      return this.handlePage(request.method ?? "GET", url, body, response);
    }
    if (url.pathname === "/__fake/control" && request.method === "POST") {
      return this.handleControl(request, body, response);
    }
    const method = request.method ?? "GET";
    const params = parseStripeForm(method === "GET" ? url.search.slice(1) : body);
    const idempotencyKey = headerValue(request, "idempotency-key");
    const record = { method, path: url.pathname, params, idempotencyKey, status: 0 };
    this.requests.push(record);

    if (!this.authorized(request)) {
      record.status = 401;
      return this.json(response, 401, {
        error: {
          type: "invalid_request_error",
          message:
            "Invalid API Key provided: the fake Stripe wants the configured STRIPE_SECRET_KEY.",
        },
      });
    }
    const fault = this.takeFault(method, url.pathname);
    if (fault?.when === "before") return this.breakConnection(fault, response);

    const fingerprint = `${method} ${url.pathname} ${stableJson(params)}`;
    if (method === "POST" && idempotencyKey) {
      const saved = this.idempotent.get(idempotencyKey);
      if (saved) {
        if (saved.fingerprint !== fingerprint) {
          record.status = 400;
          return this.json(response, 400, {
            error: {
              type: "idempotency_error",
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
        }
        record.status = saved.status;
        if (fault) return this.breakConnection(fault, response);
        return this.json(response, saved.status, saved.body, { "Idempotent-Replayed": "true" });
      }
    }

    const requestInfo = { id: stripeId("req", 14), idempotency_key: idempotencyKey };
    let status = 200;
    let answer: unknown;
    try {
      answer = this.route(method, url.pathname, params, requestInfo);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      answer = { error: { ...error.body, request_log_url: null } };
      if (error.beforeExecution) {
        record.status = status;
        return this.json(response, status, answer);
      }
    }
    if (method === "POST" && idempotencyKey) {
      // The answer as it was then, as Stripe replays it: not the object as it is now.
      this.idempotent.set(idempotencyKey, { fingerprint, status, body: structuredClone(answer) });
    }
    record.status = status;
    if (fault) return this.breakConnection(fault, response);
    return this.json(response, status, answer, { "Request-Id": requestInfo.id });
  }

  private authorized(request: IncomingMessage): boolean {
    const header = headerValue(request, "authorization") ?? "";
    const given = Buffer.from(header.replace(/^Bearer\s+/i, ""));
    const expected = Buffer.from(this.options.secretKey);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private takeFault(method: string, path: string): ApiFault | undefined {
    const fault = this.faults.find(
      (f) => (!f.method || f.method === method) && path.startsWith(f.path) && f.times > 0,
    );
    if (fault) fault.times -= 1;
    return fault;
  }

  private breakConnection(fault: ApiFault, response: ServerResponse) {
    // `hang` leaves the socket open; close() or the client's timeout ends it.
    if (fault.kind === "drop") response.socket?.destroy();
  }

  private json(
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    response.writeHead(status, {
      "Content-Type": "application/json",
      "Stripe-Version": Stripe.API_VERSION,
      ...headers,
    });
    response.end(JSON.stringify(body, null, 2));
  }

  private route(
    method: string,
    path: string,
    params: FormObject,
    requestInfo: { id: string; idempotency_key: string | null },
  ): unknown {
    const segments = path.split("/").filter(Boolean);
    const id = segments[3] ?? segments[2];
    const template = templateOf(method, segments);
    const allowed = template ? FAKE_ENDPOINT_PARAMS[template] : undefined;
    if (!template || !allowed) {
      throw new ApiError(404, {
        type: "invalid_request_error",
        message: `Unrecognized request URL (${method}: ${path}). The fake Stripe serves only the endpoints the app uses.`,
      });
    }
    for (const key of Object.keys(params)) {
      if (!allowed.includes(key)) {
        throw invalid(`Received unknown parameter: ${key}`, key, "parameter_unknown");
      }
    }
    const expand = expandList(params.expand);
    switch (template) {
      case "POST /v1/customers":
        return this.createCustomer(params);
      case "POST /v1/checkout/sessions":
        return this.expanded(this.createSession(params), expand);
      case "GET /v1/checkout/sessions/{id}":
        return this.expanded(this.session(segments[3] ?? ""), expand);
      case "POST /v1/checkout/sessions/{id}/expire":
        return this.expanded(this.expireSession(segments[3] ?? "", requestInfo), expand);
      case "POST /v1/payment_intents":
        return this.expanded(this.createPaymentIntent(params, requestInfo), expand);
      case "GET /v1/payment_intents/{id}":
        return this.expanded(this.get(this.paymentIntents, "payment_intent", id ?? ""), expand);
      case "GET /v1/payment_intents":
        return this.list(
          this.paymentIntents,
          params,
          path,
          (pi) => !params.customer || pi.customer === params.customer,
        );
      case "GET /v1/setup_intents/{id}":
        return this.expanded(this.get(this.setupIntents, "setup_intent", id ?? ""), expand);
      case "GET /v1/payment_methods/{id}":
        return this.get(this.paymentMethods, "payment_method", id ?? "");
      case "POST /v1/refunds":
        return this.createRefund(params, requestInfo);
      case "GET /v1/refunds":
        return this.list(
          this.refunds,
          params,
          path,
          (refund) =>
            (!params.payment_intent || refund.payment_intent === params.payment_intent) &&
            (!params.charge || refund.charge === params.charge),
        );
    }
    return undefined;
  }

  // ---- resources -------------------------------------------------------------------

  private now() {
    return seconds(this.options.now());
  }

  private remember(map: Map<string, StripeObject>, object: StripeObject) {
    map.set(object.id, object);
    this.order.set(object.id, ++this.sequence);
    return object;
  }

  private get(map: Map<string, StripeObject>, what: string, id: string): StripeObject {
    const found = map.get(id);
    if (!found) throw missing(what, id);
    return found;
  }

  private createCustomer(params: FormObject) {
    return this.remember(
      this.customers,
      customerObject({
        id: stripeId("cus", 14),
        created: this.now(),
        email: str(params.email),
        name: str(params.name),
        metadata: metadataOf(params.metadata),
      }),
    );
  }

  private createSession(params: FormObject) {
    const mode = str(params.mode);
    if (mode !== "payment" && mode !== "setup") {
      throw invalid("The fake supports mode `payment` or `setup`.", "mode");
    }
    const successUrl = str(params.success_url);
    if (!successUrl) throw invalid("Missing required param: success_url.", "success_url");
    const customer = str(params.customer);
    if (customer && !this.customers.has(customer)) throw missing("customer", customer, "customer");
    const created = this.now();
    const expiresAt =
      params.expires_at === undefined ? created + 24 * 3600 : int(params.expires_at);
    if (expiresAt === null || expiresAt < created + 30 * 60 || expiresAt > created + 24 * 3600) {
      throw invalid(
        "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
        "expires_at",
      );
    }
    let amount: number | null = null;
    let currency = str(params.currency);
    if (mode === "payment") {
      const items = Array.isArray(params.line_items) ? params.line_items : [];
      if (items.length === 0) throw invalid("Missing required param: line_items.", "line_items");
      amount = 0;
      for (const [index, item] of items.entries()) {
        const line = item as FormObject;
        const price = (line.price_data ?? {}) as FormObject;
        const unit = int(price.unit_amount);
        const quantity = int(line.quantity ?? "1");
        const itemCurrency = str(price.currency);
        if (unit === null || unit < 0 || quantity === null || quantity < 1 || !itemCurrency) {
          throw invalid(
            "Each line item needs price_data with currency, unit_amount and a quantity.",
            `line_items[${index}][price_data]`,
          );
        }
        currency = itemCurrency;
        amount += unit * quantity;
      }
      if (currency === "jpy" && amount < 50) {
        throw invalid(
          "The Checkout Session's total amount due must add up to at least ¥50 jpy",
          "line_items",
        );
      }
    } else if (!currency) {
      throw invalid("Missing required param: currency.", "currency");
    }
    const id = stripeId("cs_test", 58);
    const metadata = metadataOf(params.metadata);
    let setupIntent: string | null = null;
    if (mode === "setup") {
      const data = (params.setup_intent_data ?? {}) as FormObject;
      setupIntent = this.remember(
        this.setupIntents,
        setupIntentObject({
          id: stripeId("seti"),
          created,
          customer,
          description: str(data.description),
          metadata: metadataOf(data.metadata),
        }),
      ).id;
    }
    const session = checkoutSessionObject({
      id,
      created,
      expiresAt,
      mode,
      amount,
      currency,
      customer,
      clientReferenceId: str(params.client_reference_id),
      successUrl,
      cancelUrl: str(params.cancel_url),
      locale: str(params.locale),
      metadata,
      setupIntent,
      url: `${this.options.publicOrigin ?? this.origin}/c/pay/${id}`,
    });
    this.remember(this.sessions, session);
    this.sessionExtras.set(id, {
      description: lineDescription(params),
      paymentIntentData: (params.payment_intent_data ?? {}) as FormObject,
    });
    return session;
  }

  private readonly sessionExtras = new Map<
    string,
    { description: string; paymentIntentData: FormObject }
  >();

  /** A session past its expires_at is expired (checked whenever it is read). */
  private session(id: string): StripeObject {
    const session = this.get(this.sessions, "checkout.session", id);
    if (session.status === "open" && (session.expires_at as number) <= this.now()) {
      this.expire(session, { id: null, idempotency_key: null });
    }
    return session;
  }

  private expireSession(id: string, requestInfo: { id: string; idempotency_key: string | null }) {
    const session = this.session(id);
    if (session.status !== "open") {
      throw invalid(
        `Only Checkout Sessions with a status of \`open\` can be expired. This session has a status of \`${String(session.status)}\`.`,
      );
    }
    return this.expire(session, requestInfo);
  }

  private expire(
    session: StripeObject,
    requestInfo: { id: string | null; idempotency_key: string | null },
  ) {
    session.status = "expired";
    session.url = null;
    const intent = this.paymentIntents.get(String(session.payment_intent));
    if (intent && intent.status !== "succeeded") {
      intent.status = "canceled";
      intent.canceled_at = this.now();
      intent.cancellation_reason = "abandoned";
    }
    this.emit("checkout.session.expired", session, requestInfo);
    return session;
  }

  private createPaymentIntent(
    params: FormObject,
    requestInfo: { id: string; idempotency_key: string | null },
  ) {
    const amount = int(params.amount);
    if (amount === null || amount < 1) throw invalid("Missing required param: amount.", "amount");
    const currency = str(params.currency);
    if (!currency) throw invalid("Missing required param: currency.", "currency");
    if (currency === "jpy" && amount < 50) {
      throw invalid("Amount must be at least ¥50 jpy", "amount", "amount_too_small");
    }
    const customer = str(params.customer);
    if (customer && !this.customers.has(customer)) throw missing("customer", customer, "customer");
    const paymentMethodId = str(params.payment_method);
    const paymentMethod = paymentMethodId ? this.paymentMethods.get(paymentMethodId) : undefined;
    if (paymentMethodId && !paymentMethod) {
      throw missing("PaymentMethod", paymentMethodId, "payment_method");
    }
    if (paymentMethod && paymentMethod.customer !== customer) {
      throw invalid(
        `The provided PaymentMethod ${paymentMethodId} was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.`,
        "payment_method",
      );
    }
    const offSession = str(params.off_session) === "true";
    const confirm = str(params.confirm) === "true";
    if (offSession && !confirm) {
      throw invalid("off_session can only be used with confirm=true.", "off_session");
    }
    const intent = this.remember(
      this.paymentIntents,
      paymentIntentObject({
        id: stripeId("pi"),
        created: this.now(),
        amount,
        currency,
        customer,
        description: str(params.description),
        metadata: metadataOf(params.metadata),
        paymentMethod: paymentMethodId,
        setupFutureUsage: str(params.setup_future_usage),
      }),
    );
    if (!confirm || !paymentMethodId) return intent;
    const behaviour = this.behaviours.get(paymentMethodId) ?? { kind: "succeeds" };
    if (behaviour.kind === "succeeds") {
      this.succeed(intent, paymentMethodId, requestInfo);
      return intent;
    }
    const error =
      behaviour.kind === "authenticate"
        ? {
            code: "authentication_required",
            decline_code: "authentication_required",
            message: "Your card was declined. This transaction requires authentication.",
          }
        : {
            code: "card_declined",
            decline_code: behaviour.declineCode,
            message: behaviour.message,
          };
    if (behaviour.kind === "authenticate" && !offSession) {
      intent.status = "requires_action";
      intent.next_action = { type: "use_stripe_sdk", use_stripe_sdk: {} };
      return intent;
    }
    this.fail(intent, paymentMethodId, error, requestInfo);
    throw new ApiError(402, {
      type: "card_error",
      ...error,
      doc_url: `https://docs.stripe.com/error-codes/${error.code.replaceAll("_", "-")}`,
      payment_intent: intent,
      payment_method: this.paymentMethods.get(paymentMethodId),
    });
  }

  private succeed(
    intent: StripeObject,
    paymentMethodId: string,
    requestInfo: { id: string | null; idempotency_key: string | null },
  ) {
    const charge = this.remember(
      this.charges,
      chargeObject({
        id: stripeId("ch"),
        created: this.now(),
        amount: intent.amount as number,
        currency: intent.currency as string,
        customer: intent.customer as string | null,
        description: intent.description as string | null,
        metadata: intent.metadata as Record<string, string>,
        paymentIntent: intent.id,
        paymentMethod: paymentMethodId,
      }),
    );
    Object.assign(intent, {
      status: "succeeded",
      amount_received: intent.amount,
      latest_charge: charge.id,
      payment_method: paymentMethodId,
      last_payment_error: null,
      next_action: null,
    });
    this.emit("payment_intent.succeeded", intent, requestInfo);
  }

  private fail(
    intent: StripeObject,
    paymentMethodId: string,
    error: { code: string; decline_code: string; message: string },
    requestInfo: { id: string | null; idempotency_key: string | null },
  ) {
    Object.assign(intent, {
      status: "requires_payment_method",
      payment_method: null,
      next_action: null,
      last_payment_error: {
        type: "card_error",
        ...error,
        payment_method: this.paymentMethods.get(paymentMethodId),
      },
    });
    this.emit("payment_intent.payment_failed", intent, requestInfo);
  }

  private createRefund(
    params: FormObject,
    requestInfo: { id: string; idempotency_key: string | null },
  ) {
    const intentId = str(params.payment_intent);
    if (!intentId) throw invalid("Missing required param: payment_intent.", "payment_intent");
    const intent = this.paymentIntents.get(intentId);
    if (!intent) throw missing("payment_intent", intentId, "payment_intent");
    const charge = this.charges.get(String(intent.latest_charge));
    if (intent.status !== "succeeded" || !charge) {
      throw invalid(
        `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        "payment_intent",
      );
    }
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    if (left <= 0) {
      throw invalid(
        `Charge ${charge.id} has already been refunded.`,
        undefined,
        "charge_already_refunded",
      );
    }
    const amount = params.amount === undefined ? left : int(params.amount);
    if (amount === null || amount < 1) throw invalid("Invalid positive integer", "amount");
    if (amount > left) {
      throw invalid(
        `Refund amount (¥${amount}) is greater than unrefunded amount on charge (¥${left})`,
        "amount",
        "amount_too_large",
      );
    }
    const reason = str(params.reason);
    if (reason && !["duplicate", "fraudulent", "requested_by_customer"].includes(reason)) {
      throw invalid(
        `Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer`,
        "reason",
      );
    }
    const refund = this.remember(
      this.refunds,
      refundObject({
        id: stripeId("re"),
        created: this.now(),
        amount,
        currency: charge.currency as string,
        charge: charge.id,
        customer: charge.customer as string | null,
        paymentIntent: intent.id,
        reason,
        metadata: metadataOf(params.metadata),
      }),
    );
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit("refund.created", refund, requestInfo);
    this.emit("charge.refunded", charge, requestInfo);
    return refund;
  }

  private list(
    map: Map<string, StripeObject>,
    params: FormObject,
    path: string,
    keep: (object: StripeObject) => boolean,
  ) {
    const created = (params.created ?? {}) as FormObject;
    const bound = (key: string) => (typeof created[key] === "string" ? Number(created[key]) : null);
    const gte = bound("gte");
    const gt = bound("gt");
    const lte = bound("lte");
    const lt = bound("lt");
    const exact = typeof params.created === "string" ? Number(params.created) : null;
    const limit = Math.min(100, Math.max(1, int(params.limit ?? "10") ?? 10));
    let all = [...map.values()]
      .filter((o) => {
        const at = o.created as number;
        return (
          keep(o) &&
          (exact === null || at === exact) &&
          (gte === null || at >= gte) &&
          (gt === null || at > gt) &&
          (lte === null || at <= lte) &&
          (lt === null || at < lt)
        );
      })
      .sort(
        (a, b) =>
          (b.created as number) - (a.created as number) ||
          (this.order.get(b.id) ?? 0) - (this.order.get(a.id) ?? 0),
      );
    const after = str(params.starting_after);
    if (after) {
      const index = all.findIndex((o) => o.id === after);
      if (index < 0) throw missing("object", after, "starting_after");
      all = all.slice(index + 1);
    }
    return { object: "list", data: all.slice(0, limit), has_more: all.length > limit, url: path };
  }

  private expanded(object: StripeObject, expand: string[]): StripeObject {
    if (expand.length === 0) return object;
    const copy: StripeObject = { ...object };
    const maps: Record<string, Map<string, StripeObject>> = {
      payment_intent: this.paymentIntents,
      setup_intent: this.setupIntents,
      customer: this.customers,
      payment_method: this.paymentMethods,
      latest_charge: this.charges,
    };
    for (const field of expand) {
      const map = maps[field];
      if (!map || !(field in object)) {
        throw invalid(`This property cannot be expanded (${field}).`, "expand");
      }
      const id = object[field];
      if (typeof id === "string") copy[field] = map.get(id) ?? id;
    }
    return copy;
  }

  // ---- the hosted page -------------------------------------------------------------

  private async handlePage(method: string, url: URL, body: string, response: ServerResponse) {
    const [, , , sessionId = "", step] = url.pathname.split("/");
    const session = this.sessions.get(sessionId) ? this.session(sessionId) : undefined;
    if (!session) return this.html(response, 404, renderClosedPage("expired", null));
    if (session.status !== "open") {
      const back =
        session.status === "complete"
          ? this.successUrl(session)
          : (session.cancel_url as string | null);
      return this.html(
        response,
        session.status === "complete" ? 200 : 410,
        renderClosedPage(session.status as "complete" | "expired", back),
      );
    }
    const extras = this.sessionExtras.get(sessionId);
    const model: CheckoutPageModel = {
      sessionId,
      mode: session.mode as "payment" | "setup",
      description: extras?.description ?? "",
      amount: session.amount_total as number | null,
      cancelUrl: session.cancel_url as string | null,
    };
    const form = new URLSearchParams(body);
    if (step === "authenticate") {
      if (method === "GET")
        return this.html(response, 200, renderAuthenticationPage(sessionId, model.amount));
      return this.authenticate(session, form.get("result") === "approve", model, response);
    }
    if (method === "GET") {
      const error = url.searchParams.get("error");
      return this.html(
        response,
        200,
        renderCheckoutPage({
          ...model,
          ...(error === "authentication_failed"
            ? {
                errors: [
                  { field: "form", message: DECLINE_MESSAGES_JA.authentication_failed ?? "" },
                ],
              }
            : {}),
        }),
      );
    }
    return this.pay(session, model, form, response);
  }

  private pay(
    session: StripeObject,
    model: CheckoutPageModel,
    form: URLSearchParams,
    response: ServerResponse,
  ) {
    const values = {
      number: form.get("number") ?? "",
      expiry: form.get("expiry") ?? "",
      cvc: form.get("cvc") ?? "",
    };
    const digits = values.number.replace(/[\s-]/g, "");
    const errors: CheckoutPageModel["errors"] = [];
    const card = CARDS[digits];
    if (!card) {
      errors.push({
        field: "number",
        message: /^\d{16}$/.test(digits)
          ? "このカード番号はテスト決済では使えません。下の「テスト用のカード番号」からお選びください。"
          : "カード番号を16桁の数字で入力してください。",
      });
    }
    const expiry = values.expiry.match(/^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/);
    const month = Number(expiry?.[1]);
    const year =
      expiry?.[2] && expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
    const now = this.options.now();
    const expired =
      !expiry ||
      month < 1 ||
      month > 12 ||
      year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
    if (expired) {
      errors.push({
        field: "expiry",
        message: expiry
          ? "有効期限が過ぎています。"
          : "有効期限を「月/年」（例: 12/30）で入力してください。",
      });
    }
    if (!/^\d{3,4}$/.test(values.cvc.trim())) {
      errors.push({
        field: "cvc",
        message: "セキュリティコードを3桁か4桁の数字で入力してください。",
      });
    }
    if (errors.length > 0 || !card) {
      return this.html(response, 422, renderCheckoutPage({ ...model, values, errors }));
    }
    const paymentMethod = this.remember(
      this.paymentMethods,
      paymentMethodObject({
        id: stripeId("pm"),
        created: this.now(),
        brand: card.brand,
        last4: digits.slice(-4),
        expMonth: month,
        expYear: year,
      }),
    );
    this.behaviours.set(paymentMethod.id, card.behaviour);
    const requestInfo = { id: null, idempotency_key: null };
    const attempt = this.attemptTarget(session);
    attempt.payment_method = paymentMethod.id;
    if (card.behaviour.kind === "declined") {
      const error = {
        code: "card_declined",
        decline_code: card.behaviour.declineCode,
        message: card.behaviour.message,
      };
      if (attempt.object === "payment_intent")
        this.fail(attempt, paymentMethod.id, error, requestInfo);
      else {
        Object.assign(attempt, {
          payment_method: null,
          last_setup_error: { type: "card_error", ...error, payment_method: paymentMethod },
        });
        this.emit("setup_intent.setup_failed", attempt, requestInfo);
      }
      const message =
        DECLINE_MESSAGES_JA[card.behaviour.declineCode] ??
        DECLINE_MESSAGES_JA.generic_decline ??
        "";
      return this.html(
        response,
        422,
        renderCheckoutPage({ ...model, values, errors: [{ field: "number", message }] }),
      );
    }
    if (card.behaviour.kind === "authenticate") {
      attempt.status = "requires_action";
      attempt.next_action = { type: "use_stripe_sdk", use_stripe_sdk: {} };
      return this.redirect(response, `/c/pay/${session.id}/authenticate`);
    }
    return this.complete(session, attempt, paymentMethod.id, response);
  }

  /** The PaymentIntent (created on the first attempt, as Checkout does) or the SetupIntent. */
  private attemptTarget(session: StripeObject): StripeObject {
    if (session.mode === "setup")
      return this.get(this.setupIntents, "setup_intent", String(session.setup_intent));
    const existing = this.paymentIntents.get(String(session.payment_intent));
    if (existing) return existing;
    const data = this.sessionExtras.get(session.id)?.paymentIntentData ?? {};
    const intent = this.remember(
      this.paymentIntents,
      paymentIntentObject({
        id: stripeId("pi"),
        created: this.now(),
        amount: session.amount_total as number,
        currency: session.currency as string,
        customer: session.customer as string | null,
        description: str(data.description),
        metadata: metadataOf(data.metadata),
        paymentMethod: null,
        setupFutureUsage: str(data.setup_future_usage),
      }),
    );
    session.payment_intent = intent.id;
    return intent;
  }

  private authenticate(
    session: StripeObject,
    approved: boolean,
    model: CheckoutPageModel,
    response: ServerResponse,
  ) {
    const attempt = this.attemptTarget(session);
    const paymentMethodId = attempt.payment_method as string | null;
    if (attempt.status !== "requires_action" || !paymentMethodId) {
      return this.html(response, 409, renderCheckoutPage(model));
    }
    const requestInfo = { id: null, idempotency_key: null };
    if (approved) return this.complete(session, attempt, paymentMethodId, response);
    const error = {
      code: "payment_intent_authentication_failure",
      decline_code: "authentication_failed",
      message:
        "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
    };
    if (attempt.object === "payment_intent")
      this.fail(attempt, paymentMethodId, error, requestInfo);
    else {
      Object.assign(attempt, {
        status: "requires_payment_method",
        payment_method: null,
        next_action: null,
        last_setup_error: { type: "invalid_request_error", ...error },
      });
      this.emit("setup_intent.setup_failed", attempt, requestInfo);
    }
    return this.redirect(response, `/c/pay/${session.id}?error=authentication_failed`);
  }

  private complete(
    session: StripeObject,
    attempt: StripeObject,
    paymentMethodId: string,
    response: ServerResponse,
  ) {
    const requestInfo = { id: null, idempotency_key: null };
    const paymentMethod = this.paymentMethods.get(paymentMethodId);
    // Kept for later: setup mode, or payment with setup_future_usage.
    if (
      paymentMethod &&
      session.customer &&
      (attempt.object === "setup_intent" || attempt.setup_future_usage)
    ) {
      paymentMethod.customer = session.customer;
    }
    if (attempt.object === "payment_intent") {
      this.succeed(attempt, paymentMethodId, requestInfo);
      session.payment_status = "paid";
    } else {
      Object.assign(attempt, {
        status: "succeeded",
        payment_method: paymentMethodId,
        next_action: null,
        last_setup_error: null,
      });
      this.emit("setup_intent.succeeded", attempt, requestInfo);
    }
    const customer = this.customers.get(String(session.customer));
    Object.assign(session, {
      status: "complete",
      url: null,
      customer_details: {
        address: null,
        business_name: null,
        email: customer?.email ?? null,
        individual_name: null,
        name: customer?.name ?? null,
        phone: null,
        tax_exempt: "none",
        tax_ids: [],
      },
    });
    this.emit("checkout.session.completed", session, requestInfo);
    return this.redirect(response, this.successUrl(session));
  }

  private successUrl(session: StripeObject): string {
    return String(session.success_url).replaceAll("{CHECKOUT_SESSION_ID}", session.id);
  }

  private html(response: ServerResponse, status: number, html: string) {
    response.writeHead(status, {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action *",
    });
    response.end(html);
  }

  private redirect(response: ServerResponse, location: string) {
    response.writeHead(303, { Location: location, "Cache-Control": "no-store" });
    response.end();
  }

  // ---- control endpoint (for a test in another process) ------------------------------

  private handleControl(request: IncomingMessage, body: string, response: ServerResponse) {
    if (!this.authorized(request)) return this.json(response, 401, { error: "unauthorized" });
    const command = JSON.parse(body || "{}") as {
      action: string;
      fault?: ApiFault;
      order?: "as_created" | "reverse";
      on?: boolean;
      ms?: number;
      paymentMethod?: string;
      card?: string;
    };
    switch (command.action) {
      case "injectFault":
        if (command.fault) this.injectFault(command.fault);
        break;
      case "clearFaults":
        this.clearFaults();
        break;
      case "holdWebhooks":
        this.holdWebhooks();
        break;
      case "releaseWebhooks":
        this.releaseWebhooks(command.order);
        break;
      case "duplicateWebhooks":
        this.setDuplicateWebhooks(command.on ?? true);
        break;
      case "webhookDelay":
        this.setWebhookDelay(command.ms ?? 0);
        break;
      case "paymentMethodBehaviour":
        if (command.paymentMethod && command.card) {
          this.setPaymentMethodBehaviour(command.paymentMethod, command.card);
        }
        break;
      default:
        return this.json(response, 400, { error: `unknown action ${command.action}` });
    }
    return this.json(response, 200, { ok: true });
  }

  // ---- events and webhooks ---------------------------------------------------------

  private emit(
    type: string,
    object: StripeObject,
    requestInfo: { id: string | null; idempotency_key: string | null },
  ) {
    const event = eventObject({
      id: stripeId("evt"),
      created: this.now(),
      apiVersion: Stripe.API_VERSION,
      type,
      // A snapshot: later changes to the object do not rewrite a sent event.
      object: structuredClone(object),
      pendingWebhooks: this.options.webhookUrl ? 1 : 0,
      request: requestInfo,
    });
    this.events.push(event);
    if (!this.options.webhookUrl) return;
    if (this.held) this.held.push(event);
    else this.deliver(event);
  }

  private deliver(event: StripeObject) {
    const copies = this.duplicateWebhooks ? 2 : 1;
    for (let i = 0; i < copies; i++) this.schedule(() => this.send(event, 1), this.webhookDelayMs);
  }

  private schedule(task: () => Promise<void>, ms: number) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void task();
    }, ms);
    this.timers.add(timer);
  }

  private async send(event: StripeObject, attempt: number): Promise<void> {
    const url = this.options.webhookUrl;
    if (!url || !this.server) return;
    const payload = JSON.stringify(event, null, 2);
    let status: number | null = null;
    try {
      const answer = await fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "Stripe-Signature": signWebhook(payload, this.options.webhookSecret, this.now()),
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      status = answer.status;
      await answer.arrayBuffer();
    } catch {
      status = null;
    }
    const delivery: WebhookDelivery = {
      eventId: event.id,
      type: String(event.type),
      attempt,
      status,
      ok: status !== null && status >= 200 && status < 300,
    };
    this.deliveries.push(delivery);
    for (const waiter of this.waiters) {
      if (waiter.test(delivery)) {
        this.waiters.delete(waiter);
        waiter.resolve(delivery);
      }
    }
    const delay = this.options.webhookRetryDelaysMs[attempt - 1];
    if (!delivery.ok && delay !== undefined && this.server) {
      this.schedule(() => this.send(event, attempt + 1), delay);
    }
  }
}

/** `Stripe-Signature: t=…,v1=…`: HMAC-SHA256 of "t.payload" keyed with the whole whsec_ secret. */
export function signWebhook(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac("sha256", secret)
    .update(`${timestamp}.${payload}`, "utf8")
    .digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

function templateOf(method: string, segments: string[]): string | null {
  if (segments[0] !== "v1") return null;
  const [, a, b, c, d] = segments;
  if (a === "checkout" && b === "sessions") {
    if (c === undefined) return `${method} /v1/checkout/sessions`;
    if (d === undefined) return `${method} /v1/checkout/sessions/{id}`;
    if (d === "expire" && segments.length === 5)
      return `${method} /v1/checkout/sessions/{id}/expire`;
    return null;
  }
  if (!a || segments.length > 3) return null;
  return b === undefined ? `${method} /v1/${a}` : `${method} /v1/${a}/{id}`;
}

function headerValue(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function str(value: FormValue | undefined): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function int(value: FormValue | undefined): number | null {
  return typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : null;
}

function metadataOf(value: FormValue | undefined): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

function expandList(value: FormValue | undefined): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function lineDescription(params: FormObject): string {
  const items = Array.isArray(params.line_items) ? params.line_items : [];
  const names = items
    .map((item) => ((item as FormObject).price_data as FormObject | undefined)?.product_data)
    .map((product) => str((product as FormObject | undefined)?.name))
    .filter((name): name is string => Boolean(name));
  if (names.length > 0) return names.join("、");
  return str(((params.setup_intent_data ?? {}) as FormObject).description) ?? "";
}

/** Parameters as a canonical string, so a reused key with other parameters is noticed. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
