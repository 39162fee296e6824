import Stripe from "stripe";
import {
  type ChargeOffSessionInput,
  type CheckoutSession,
  type CreateCheckoutInput,
  type CreateCustomerInput,
  type ListRange,
  type OffSessionResult,
  type Payment,
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderUnavailableError,
  PaymentRequestError,
  type PaymentStatus,
  type Refund,
  type RefundInput,
  WebhookSignatureError,
} from "./provider.server";

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  /** Unset: api.stripe.com. The fake's origin (http://127.0.0.1:PORT) in development and tests. */
  apiUrl?: string;
  /** Per request, ms. Short enough that a booking page never waits long on the provider. */
  timeoutMs?: number;
  /** The SDK's own retries (same idempotency key each time); 2 by default. */
  maxNetworkRetries?: number;
  /** "fake" when apiUrl is our fake, so pages can say テスト決済. */
  name?: "stripe" | "fake";
};

/** Stripe's default: a webhook signed more than five minutes before it arrived is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    // Pinned to the version the installed SDK's types describe, so an
    // account's default version cannot change the shapes under us.
    apiVersion: Stripe.API_VERSION,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    ...baseAddress(options.apiUrl),
  });

  async function call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw translateError(error);
    }
  }

  async function retrieveSession(id: string): Promise<CheckoutSession> {
    const session = await call(() =>
      stripe.checkout.sessions.retrieve(id, { expand: ["payment_intent", "setup_intent"] }),
    );
    return toCheckoutSession(session);
  }

  async function createCustomer(input: CreateCustomerInput) {
    const customer = await call(() =>
      stripe.customers.create(
        {
          ...(input.email ? { email: input.email } : {}),
          ...(input.name ? { name: input.name } : {}),
          ...(input.metadata ? { metadata: input.metadata } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return { id: customer.id };
  }

  return {
    name: options.name ?? "stripe",

    createCustomer,

    async createCheckoutSession(input: CreateCheckoutInput) {
      if (
        input.mode === "payment" &&
        !(Number.isInteger(input.amount) && (input.amount ?? 0) > 0)
      ) {
        throw new RangeError("a payment session needs a positive whole yen amount");
      }
      // A customer keeps the card for off-session fees in both modes; its key
      // is derived from the session's so a retry finds the same customer.
      const customerId =
        input.customerId ??
        (
          await createCustomer({
            email: input.customerEmail,
            name: input.customerName,
            metadata: { booking_id: input.bookingId },
            idempotencyKey: `${input.idempotencyKey}:customer`,
          })
        ).id;
      const metadata = { ...input.metadata, booking_id: input.bookingId };
      const common = {
        customer: customerId,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        client_reference_id: input.bookingId,
        locale: "ja" as const,
        metadata,
        ...(input.expiresAt ? { expires_at: Math.floor(input.expiresAt.getTime() / 1000) } : {}),
      };
      const params: Stripe.Checkout.SessionCreateParams =
        input.mode === "payment"
          ? {
              ...common,
              mode: "payment",
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency: "jpy",
                    unit_amount: input.amount,
                    product_data: { name: input.description },
                  },
                },
              ],
              payment_intent_data: {
                setup_future_usage: "off_session",
                description: input.description,
                metadata,
              },
            }
          : {
              ...common,
              mode: "setup",
              currency: "jpy",
              setup_intent_data: { description: input.description, metadata },
            };
      const session = await call(() =>
        stripe.checkout.sessions.create(params, { idempotencyKey: input.idempotencyKey }),
      );
      return toCheckoutSession(session);
    },

    retrieveCheckoutSession: retrieveSession,

    async expireCheckoutSession(id: string) {
      await call(() => stripe.checkout.sessions.expire(id));
      return retrieveSession(id);
    },

    async retrievePayment(id: string) {
      return toPayment(await call(() => stripe.paymentIntents.retrieve(id)));
    },

    async chargeOffSession(input: ChargeOffSessionInput): Promise<OffSessionResult> {
      if (!(Number.isInteger(input.amount) && input.amount > 0)) {
        throw new RangeError("a fee must be a positive whole yen amount");
      }
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: "jpy",
            customer: input.customerId,
            payment_method: input.paymentMethodId,
            off_session: true,
            confirm: true,
            description: input.description,
            metadata: { ...input.metadata, booking_id: input.bookingId },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return { outcome: "succeeded", payment: toPayment(intent) };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const paymentIntentId = error.payment_intent?.id ?? null;
          if (error.code === "authentication_required") {
            return { outcome: "authentication_required", paymentIntentId };
          }
          return {
            outcome: "declined",
            paymentIntentId,
            code: error.code ?? "card_declined",
            declineCode: error.decline_code ?? null,
            message: error.message,
          };
        }
        throw translateError(error);
      }
    },

    async refund(input: RefundInput) {
      if (input.amount !== undefined && !(Number.isInteger(input.amount) && input.amount > 0)) {
        throw new RangeError("a refund must be a positive whole yen amount");
      }
      const refund = await call(() =>
        stripe.refunds.create(
          {
            payment_intent: input.paymentIntentId,
            ...(input.amount !== undefined ? { amount: input.amount } : {}),
            ...(input.reason ? { reason: input.reason } : {}),
            ...(input.metadata ? { metadata: input.metadata } : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return toRefund(refund);
    },

    async *listPayments(range: ListRange) {
      const created = createdRange(range);
      let startingAfter: string | undefined;
      // Stripe lists newest first; collect the range, then hand it out oldest first.
      const all: Payment[] = [];
      for (;;) {
        const page = await call(() =>
          stripe.paymentIntents.list({
            created,
            limit: 100,
            ...(startingAfter ? { starting_after: startingAfter } : {}),
          }),
        );
        all.push(...page.data.map(toPayment));
        if (!page.has_more || page.data.length === 0) break;
        startingAfter = page.data[page.data.length - 1]?.id;
      }
      yield* all.reverse();
    },

    async *listRefunds(range: ListRange & { paymentIntentId?: string }) {
      const created = createdRange(range);
      let startingAfter: string | undefined;
      const all: Refund[] = [];
      for (;;) {
        const page = await call(() =>
          stripe.refunds.list({
            created,
            limit: 100,
            ...(range.paymentIntentId ? { payment_intent: range.paymentIntentId } : {}),
            ...(startingAfter ? { starting_after: startingAfter } : {}),
          }),
        );
        all.push(...page.data.map(toRefund));
        if (!page.has_more || page.data.length === 0) break;
        startingAfter = page.data[page.data.length - 1]?.id;
      }
      yield* all.reverse();
    },

    async parseWebhook(rawBody, signatureHeader, parseOptions = {}) {
      if (!signatureHeader) throw new WebhookSignatureError("Stripe-Signature がありません");
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(
          rawBody,
          signatureHeader,
          options.webhookSecret,
          parseOptions.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          parseOptions.now?.getTime(),
        );
      } catch (error) {
        throw new WebhookSignatureError(
          error instanceof Error ? error.message : "署名を確認できませんでした",
        );
      }
      return toPaymentEvent(event);
    },
  };
}

function baseAddress(apiUrl: string | undefined) {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname,
    protocol: protocol as "http" | "https",
    port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443,
  };
}

function createdRange(range: ListRange) {
  return {
    gte: Math.floor(range.createdFrom.getTime() / 1000),
    lt: Math.floor(range.createdBefore.getTime() / 1000),
  };
}

function translateError(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new PaymentProviderUnavailableError(
      `決済サービスに接続できませんでした（${error.message}）`,
      { cause: error },
    );
  }
  if (error instanceof Stripe.errors.StripeError) {
    // A 5xx from Stripe leaves the outcome as unknown as a dropped connection.
    if ((error.statusCode ?? 0) >= 500 || error.type === "StripeAPIError") {
      return new PaymentProviderUnavailableError(error.message, { cause: error });
    }
    return new PaymentRequestError(
      error.message,
      error.code ?? null,
      error.rawType ?? error.type,
      error.statusCode ?? null,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

function metadataOf(value: Stripe.Metadata | null | undefined): Record<string, string> {
  return { ...(value ?? {}) };
}

export function toCheckoutSession(session: Stripe.Checkout.Session): CheckoutSession {
  const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
  const setup = typeof session.setup_intent === "object" ? session.setup_intent : null;
  return {
    id: session.id,
    url: session.url ?? null,
    mode: session.mode === "setup" ? "setup" : "payment",
    status: (session.status ?? "open") as CheckoutSession["status"],
    paymentStatus: session.payment_status as CheckoutSession["paymentStatus"],
    bookingId: session.metadata?.booking_id ?? session.client_reference_id ?? null,
    amountTotal: session.amount_total ?? null,
    customerId: idOf(session.customer),
    paymentIntentId: idOf(session.payment_intent),
    setupIntentId: idOf(session.setup_intent),
    paymentMethodId: idOf(intent?.payment_method) ?? idOf(setup?.payment_method) ?? null,
    expiresAt: new Date(session.expires_at * 1000),
    metadata: metadataOf(session.metadata),
  };
}

export function toPayment(intent: Stripe.PaymentIntent): Payment {
  const error = intent.last_payment_error;
  return {
    id: intent.id,
    status: intent.status as PaymentStatus,
    amount: intent.amount,
    amountReceived: intent.amount_received,
    currency: intent.currency,
    customerId: idOf(intent.customer),
    paymentMethodId: idOf(intent.payment_method),
    latestChargeId: idOf(intent.latest_charge),
    bookingId: intent.metadata?.booking_id ?? null,
    description: intent.description ?? null,
    metadata: metadataOf(intent.metadata),
    created: new Date(intent.created * 1000),
    lastError: error
      ? {
          code: error.code ?? null,
          declineCode: error.decline_code ?? null,
          message: error.message ?? null,
        }
      : null,
  };
}

export function toRefund(refund: Stripe.Refund): Refund {
  return {
    id: refund.id,
    paymentIntentId: idOf(refund.payment_intent),
    amount: refund.amount,
    status: (refund.status ?? "pending") as Refund["status"],
    reason: refund.reason ?? null,
    metadata: metadataOf(refund.metadata),
    created: new Date(refund.created * 1000),
  };
}

function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const base = {
    id: event.id,
    type: event.type,
    created: new Date(event.created * 1000),
    raw: event,
  };
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return { ...base, kind: "checkout_completed", session: toCheckoutSession(event.data.object) };
    case "checkout.session.expired":
      return { ...base, kind: "checkout_expired", session: toCheckoutSession(event.data.object) };
    case "payment_intent.succeeded":
      return { ...base, kind: "payment_succeeded", payment: toPayment(event.data.object) };
    case "payment_intent.payment_failed":
      return { ...base, kind: "payment_failed", payment: toPayment(event.data.object) };
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
      return { ...base, kind: "refund", refund: toRefund(event.data.object) };
    case "charge.refunded":
      return {
        ...base,
        kind: "charge_refunded",
        paymentIntentId: idOf(event.data.object.payment_intent),
        amountRefunded: event.data.object.amount_refunded,
      };
    default:
      return { ...base, kind: "other" };
  }
}
