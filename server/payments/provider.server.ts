/**
 * The payment provider as the booking flow sees it (issue 40 §2, §5;
 * decision 0076). One implementation talks to Stripe through the official
 * SDK (stripe-provider.server.ts); pointed at server/payments/fake/ it runs
 * offline in development and tests. Amounts are yen, integers.
 *
 * Every call that moves money takes the caller's deterministic idempotency
 * key, which the caller saves in its own transaction before the call (see
 * `idempotencyKeys`): a retry after a timeout, a crash or a second click
 * sends the same key, and the provider answers with the first result
 * instead of charging again.
 */

/** The keys the issue fixes, in one place so every caller spells them the same way. */
export const idempotencyKeys = {
  /** The visitor's payment at booking (全額事前決済 or 予約金) or カード登録のみ. */
  checkout: (bookingId: string) => `deposit:${bookingId}`,
  /** An off-session fee: `no_show`, `late_cancel` and so on. */
  fee: (bookingId: string, kind: string) => `fee:${bookingId}:${kind}`,
  /** The payment link mailed when a fee needs the customer's authentication. */
  feeLink: (bookingId: string, kind: string) => `fee-link:${bookingId}:${kind}`,
  /** The n-th refund of one payment (1, 2, …), so a part refund can follow another. */
  refund: (paymentId: string, sequence: number) => `refund:${paymentId}:${sequence}`,
} as const;

export type CheckoutMode =
  /** Charge `amount` now and keep the card for later fees (setup_future_usage: off_session). */
  | "payment"
  /** カード登録のみ: keep the card, charge nothing. */
  | "setup";

export type CreateCheckoutInput = {
  bookingId: string;
  mode: CheckoutMode;
  /** Yen; required for "payment", ignored for "setup". */
  amount?: number;
  /** The line the visitor sees on the hosted page, e.g. 「予約金（カット＋カラー）」. */
  description: string;
  /** A provider customer to keep the card on; created (idempotently, from the key) when absent. */
  customerId?: string;
  customerEmail?: string;
  customerName?: string;
  /** Where the hosted page sends the browser; `{CHECKOUT_SESSION_ID}` is replaced with the id. */
  successUrl: string;
  cancelUrl: string;
  /** When the page stops taking payment; Stripe accepts 30 minutes to 24 hours from now. */
  expiresAt?: Date;
  /** Extra metadata on the session and its PaymentIntent/SetupIntent (booking_id is always set). */
  metadata?: Record<string, string>;
  idempotencyKey: string;
};

export type CheckoutSession = {
  id: string;
  /** The hosted page to send the browser to (null once complete or expired). */
  url: string | null;
  mode: CheckoutMode;
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  bookingId: string | null;
  amountTotal: number | null;
  customerId: string | null;
  paymentIntentId: string | null;
  setupIntentId: string | null;
  /** The card kept for off-session fees, once the page completed. */
  paymentMethodId: string | null;
  expiresAt: Date;
  metadata: Record<string, string>;
};

export type PaymentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "requires_capture"
  | "canceled"
  | "succeeded";

export type Payment = {
  /** The PaymentIntent id (pi_…): the payment's identity at the provider. */
  id: string;
  status: PaymentStatus;
  amount: number;
  amountReceived: number;
  currency: string;
  customerId: string | null;
  paymentMethodId: string | null;
  latestChargeId: string | null;
  bookingId: string | null;
  description: string | null;
  metadata: Record<string, string>;
  created: Date;
  /** Why the last attempt failed, when it did. */
  lastError: { code: string | null; declineCode: string | null; message: string | null } | null;
};

export type ChargeOffSessionInput = {
  bookingId: string;
  customerId: string;
  paymentMethodId: string;
  /** Yen, as the booking's policy snapshot computed it; never more than declared. */
  amount: number;
  description: string;
  metadata?: Record<string, string>;
  idempotencyKey: string;
};

export type OffSessionResult =
  | { outcome: "succeeded"; payment: Payment }
  /**
   * The bank wants the cardholder (3-D Secure): nothing was charged. Mail the
   * customer a payment link (createCheckoutSession in "payment" mode with
   * `idempotencyKeys.feeLink`).
   */
  | { outcome: "authentication_required"; paymentIntentId: string | null }
  /** Refused by the card (card_declined, insufficient_funds, expired_card, …): nothing was charged. */
  | {
      outcome: "declined";
      paymentIntentId: string | null;
      code: string;
      declineCode: string | null;
      message: string;
    };

export type RefundInput = {
  paymentIntentId: string;
  /** Yen; absent: whatever is left of the payment. */
  amount?: number;
  reason?: "requested_by_customer" | "duplicate" | "fraudulent";
  metadata?: Record<string, string>;
  idempotencyKey: string;
};

export type Refund = {
  id: string;
  paymentIntentId: string | null;
  amount: number;
  status: "pending" | "requires_action" | "succeeded" | "failed" | "canceled";
  reason: string | null;
  metadata: Record<string, string>;
  created: Date;
};

export type ListRange = { createdFrom: Date; createdBefore: Date };

export type CreateCustomerInput = {
  email?: string;
  name?: string;
  metadata?: Record<string, string>;
  idempotencyKey: string;
};

/** A verified webhook, reduced to what the booking flow acts on. `raw` is the provider's event. */
export type PaymentEvent = {
  /** evt_…: store it once (a unique constraint) in the transaction of its effect. */
  id: string;
  type: string;
  created: Date;
  raw: unknown;
} & (
  | {
      kind: "checkout_completed" | "checkout_expired";
      session: CheckoutSession;
    }
  | { kind: "payment_succeeded" | "payment_failed"; payment: Payment }
  | { kind: "refund"; refund: Refund }
  | { kind: "charge_refunded"; paymentIntentId: string | null; amountRefunded: number }
  | { kind: "other" }
);

export interface PaymentProvider {
  /** "stripe" or "fake" (the fake's pages say テスト決済). */
  readonly name: "stripe" | "fake";
  createCustomer(input: CreateCustomerInput): Promise<{ id: string }>;
  createCheckoutSession(input: CreateCheckoutInput): Promise<CheckoutSession>;
  /** The provider's word on a session (never the browser's redirect). */
  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSession>;
  /** Stops an open page taking payment (the hold lapsed). */
  expireCheckoutSession(sessionId: string): Promise<CheckoutSession>;
  retrievePayment(paymentIntentId: string): Promise<Payment>;
  chargeOffSession(input: ChargeOffSessionInput): Promise<OffSessionResult>;
  refund(input: RefundInput): Promise<Refund>;
  /** Every payment created in the range, oldest first, for the daily reconciliation. */
  listPayments(range: ListRange): AsyncIterable<Payment>;
  listRefunds(range: ListRange & { paymentIntentId?: string }): AsyncIterable<Refund>;
  /**
   * Verifies the raw body against the `Stripe-Signature` header (HMAC with
   * the webhook secret, timestamp within `toleranceSeconds` of `now`) and
   * parses it; throws WebhookSignatureError otherwise.
   */
  parseWebhook(
    rawBody: string | Uint8Array,
    signatureHeader: string | null | undefined,
    options?: { now?: Date; toleranceSeconds?: number },
  ): Promise<PaymentEvent>;
}

/** A webhook that is not from the provider, or was replayed too late: answer 400, act on nothing. */
export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
}

/**
 * The provider could not be reached, or did not answer in time: whether the
 * call took effect is unknown. Keep the idempotency key and retry with it
 * (the same key returns the first result), or let reconciliation find it.
 */
export class PaymentProviderUnavailableError extends Error {
  override name = "PaymentProviderUnavailableError";
  readonly outcomeUnknown = true;
}

/** The provider refused the request (bad parameters, a key reused with other ones, …). */
export class PaymentRequestError extends Error {
  override name = "PaymentRequestError";
  constructor(
    message: string,
    readonly code: string | null,
    readonly type: string,
    readonly statusCode: number | null,
  ) {
    super(message);
  }
}
