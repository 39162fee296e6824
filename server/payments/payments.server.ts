import { randomBytes } from "node:crypto";
import type { Config } from "../config";
import type { Logger } from "../logger";
import { FakeStripe } from "./fake/fake-stripe.server";
import type { PaymentProvider } from "./provider.server";
import { createStripeProvider } from "./stripe-provider.server";

export type PaymentsHandle = {
  provider: PaymentProvider;
  /** The fake, when it is the one answering (development, tests). */
  fake: FakeStripe | null;
  close(): Promise<void>;
};

/**
 * The provider this server uses: Stripe with STRIPE_SECRET_KEY (at
 * STRIPE_API_URL when set); otherwise, outside production, a fake Stripe
 * started here on a loopback port, whose webhooks go to `webhookUrl`;
 * in production without a key, none (no online payment, never a fake).
 */
export async function startPayments(
  config: Pick<
    Config,
    "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_URL" | "isProduction"
  >,
  { webhookUrl, log }: { webhookUrl: string; log?: Logger },
): Promise<PaymentsHandle | null> {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    const provider = createStripeProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      apiUrl: config.STRIPE_API_URL,
      name: config.STRIPE_API_URL ? "fake" : "stripe",
    });
    return { provider, fake: null, close: async () => {} };
  }
  if (config.isProduction) return null;
  const { fake, provider } = await startFakePayments({ webhookUrl });
  log?.info("payments: no STRIPE_SECRET_KEY, using the local fake Stripe (テスト決済)", {
    apiUrl: fake.url,
  });
  return { provider, fake, close: () => fake.close() };
}

/** A fake Stripe on a free loopback port and a provider talking to it: one per test worker. */
export async function startFakePayments(
  options: {
    webhookUrl?: string;
    timeoutMs?: number;
    maxNetworkRetries?: number;
    /** The fake's clock (a session past its expires_at reads as expired). */
    now?: () => Date;
  } = {},
) {
  const secretKey = `sk_test_fake${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_fake${randomBytes(16).toString("hex")}`;
  const fake = new FakeStripe({
    secretKey,
    webhookSecret,
    webhookUrl: options.webhookUrl,
    ...(options.now ? { now: options.now } : {}),
  });
  const apiUrl = await fake.start();
  const provider = createStripeProvider({
    secretKey,
    webhookSecret,
    apiUrl,
    name: "fake",
    timeoutMs: options.timeoutMs,
    maxNetworkRetries: options.maxNetworkRetries,
  });
  return { fake, provider, apiUrl, secretKey, webhookSecret };
}
