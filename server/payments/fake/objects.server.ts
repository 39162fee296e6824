import { randomBytes } from "node:crypto";

/**
 * Stripe-shaped objects, every field the API always returns (checked against
 * the `stripe` package's generated types by stripe-openapi.test.ts), with
 * null where the fake has nothing to say.
 */
export type StripeObject = Record<string, unknown> & { id: string; object: string };

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = "";
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

export const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function customerObject(input: {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
}): StripeObject {
  return {
    id: input.id,
    object: "customer",
    balance: 0,
    created: input.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: input.email,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: input.metadata,
    name: input.name,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
  };
}

export function checkoutSessionObject(input: {
  id: string;
  created: number;
  expiresAt: number;
  mode: "payment" | "setup";
  amount: number | null;
  currency: string | null;
  customer: string | null;
  clientReferenceId: string | null;
  successUrl: string;
  cancelUrl: string | null;
  locale: string | null;
  metadata: Record<string, string>;
  setupIntent: string | null;
  url: string;
}): StripeObject {
  return {
    id: input.id,
    object: "checkout.session",
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: input.amount,
    amount_total: input.amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: input.created,
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: input.customer,
    customer_account: null,
    customer_creation: input.customer ? null : "if_required",
    customer_details: null,
    customer_email: null,
    discounts: [],
    expires_at: input.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: input.locale,
    managed_payments: null,
    metadata: input.metadata,
    mode: input.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: input.mode === "setup" ? "always" : null,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ["card"],
    payment_status: input.mode === "setup" ? "no_payment_required" : "unpaid",
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: input.setupIntent,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details:
      input.mode === "payment" ? { amount_discount: 0, amount_shipping: 0, amount_tax: 0 } : null,
    ui_mode: "hosted_page",
    url: input.url,
    wallet_options: null,
  };
}

export function paymentIntentObject(input: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  paymentMethod: string | null;
  setupFutureUsage: string | null;
}): StripeObject {
  return {
    id: input.id,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: input.amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${input.id}_secret_${stripeId("x").slice(2)}`,
    confirmation_method: "automatic",
    created: input.created,
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: input.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ["card"],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: input.setupFutureUsage,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: input.paymentMethod ? "requires_confirmation" : "requires_payment_method",
    transfer_group: null,
  };
}

export function setupIntentObject(input: {
  id: string;
  created: number;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
}): StripeObject {
  return {
    id: input.id,
    object: "setup_intent",
    allowed_payment_method_types: null,
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: `${input.id}_secret_${stripeId("x").slice(2)}`,
    created: input.created,
    customer: input.customer,
    description: input.description,
    excluded_payment_method_types: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ["card"],
    single_use_mandate: null,
    status: "requires_payment_method",
    usage: "off_session",
  };
}

export function paymentMethodObject(input: {
  id: string;
  created: number;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}): StripeObject {
  return {
    id: input.id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: input.brand,
      checks: null,
      country: "JP",
      display_brand: input.brand,
      exp_month: input.expMonth,
      exp_year: input.expYear,
      fingerprint: stripeId("fp", 16).slice(3),
      funding: "credit",
      generated_from: null,
      last4: input.last4,
      networks: { available: [input.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: input.created,
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

export function chargeObject(input: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  paymentIntent: string;
  paymentMethod: string;
}): StripeObject {
  return {
    id: input.id,
    object: "charge",
    amount: input.amount,
    amount_captured: input.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: "SALON NAVI TEST",
    captured: true,
    created: input.created,
    currency: input.currency,
    customer: input.customer,
    description: input.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: input.metadata,
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: "approved_by_network",
      reason: null,
      risk_level: "normal",
      seller_message: "Payment complete.",
      type: "authorized",
    },
    paid: true,
    payment_intent: input.paymentIntent,
    payment_method: input.paymentMethod,
    payment_method_details: { type: "card" },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "succeeded",
    transfer_data: null,
    transfer_group: null,
  };
}

export function refundObject(input: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  charge: string;
  customer: string | null;
  paymentIntent: string;
  reason: string | null;
  metadata: Record<string, string>;
}): StripeObject {
  return {
    id: input.id,
    object: "refund",
    amount: input.amount,
    balance_transaction: null,
    charge: input.charge,
    created: input.created,
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    metadata: input.metadata,
    payment_intent: input.paymentIntent,
    payment_method: null,
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: null,
  };
}

export function eventObject(input: {
  id: string;
  created: number;
  apiVersion: string;
  type: string;
  object: StripeObject;
  pendingWebhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}): StripeObject {
  return {
    id: input.id,
    object: "event",
    api_version: input.apiVersion,
    created: input.created,
    data: { object: input.object },
    livemode: false,
    pending_webhooks: input.pendingWebhooks,
    request: input.request,
    type: input.type,
  };
}
