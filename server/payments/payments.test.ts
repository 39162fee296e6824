import { describe, expect, it } from "vitest";
import { startPayments } from "./payments.server";

describe("startPayments", () => {
  const webhookUrl = "http://127.0.0.1:1/api/payments/webhook";

  it("uses Stripe when a key is set, at STRIPE_API_URL when given", async () => {
    const stripe = await startPayments(
      {
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_WEBHOOK_SECRET: "whsec_abc",
        STRIPE_API_URL: undefined,
        isProduction: true,
      },
      { webhookUrl },
    );
    expect(stripe?.provider.name).toBe("stripe");
    expect(stripe?.fake).toBeNull();
  });

  it("starts the fake outside production without a key, and offers no payment in production", async () => {
    const none = {
      STRIPE_SECRET_KEY: undefined,
      STRIPE_WEBHOOK_SECRET: undefined,
      STRIPE_API_URL: undefined,
    };
    expect(await startPayments({ ...none, isProduction: true }, { webhookUrl })).toBeNull();
    const local = await startPayments({ ...none, isProduction: false }, { webhookUrl });
    try {
      expect(local?.provider.name).toBe("fake");
      expect(local?.fake?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const page = await local?.provider.createCheckoutSession({
        bookingId: "b1",
        mode: "setup",
        description: "カード登録",
        successUrl: "http://localhost/ok",
        cancelUrl: "http://localhost/back",
        idempotencyKey: "deposit:b1",
      });
      expect(await (await fetch(page?.url ?? "")).text()).toContain("テスト決済");
    } finally {
      await local?.close();
    }
  });
});
