import type { Context } from "hono";
import { applyPaymentEvent } from "../bookings/booking-payments.server";
import type { Database } from "../db/client";
import { DomainError } from "../errors/domain-error";
import { domainErrorResponse } from "../http/errors";
import type { Logger } from "../logger";
import { type PaymentProvider, WebhookSignatureError } from "./provider.server";

/** Stripe's events are a few kilobytes; anything far larger is not one. */
const MAX_EVENT_BYTES = 256 * 1024;

/**
 * POST /api/payments/webhook (decision 0078): the raw body verified
 * against its Stripe-Signature by the provider; a bad or missing signature
 * is 400 and nothing is read from it. A verified event is applied once
 * (its id stored in the transaction of its effect) and answered 200; a
 * failure while applying answers 500, so the provider sends it again.
 */
export function paymentsWebhook({
  db,
  payments,
  log,
  now,
}: {
  db: Database;
  payments: PaymentProvider | null;
  log: Logger;
  now: () => Date;
}) {
  return async (c: Context) => {
    if (!payments) {
      return domainErrorResponse(
        c,
        new DomainError("payments_disabled", "オンライン決済は利用できません。", 404),
      );
    }
    const body = new Uint8Array(await c.req.arrayBuffer());
    if (body.byteLength > MAX_EVENT_BYTES) {
      return domainErrorResponse(
        c,
        new DomainError("payload_too_large", "送信内容が大きすぎます。", 413),
      );
    }
    let event: Awaited<ReturnType<PaymentProvider["parseWebhook"]>>;
    try {
      event = await payments.parseWebhook(body, c.req.header("stripe-signature"), { now: now() });
    } catch (error) {
      if (!(error instanceof WebhookSignatureError)) throw error;
      log.warn("payments: webhook refused (signature)", { reason: error.message });
      return domainErrorResponse(
        c,
        new DomainError("bad_signature", "署名を確認できませんでした。", 400),
      );
    }
    await applyPaymentEvent(db, payments, event, { now: now(), log });
    return c.json({ received: true });
  };
}
