import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startFakePayments } from "../../server/payments/payments.server";
import type { PaymentEvent, PaymentProvider } from "../../server/payments/provider.server";

/**
 * A webhook endpoint for tests: verifies each delivery with the provider's
 * parseWebhook (as the app's route will) and keeps what arrived, in order.
 * `failNext(n)` answers 500 to the next n deliveries, to see the retries.
 */
export async function startWebhookReceiver(provider: PaymentProvider) {
  const received: PaymentEvent[] = [];
  const rejected: string[] = [];
  const waiters = new Set<{ test: (e: PaymentEvent[]) => boolean; resolve: () => void }>();
  let failures = 0;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (failures > 0) {
      failures -= 1;
      response.writeHead(500).end();
      return;
    }
    try {
      const event = await provider.parseWebhook(
        Buffer.concat(chunks),
        request.headers["stripe-signature"] as string | undefined,
      );
      received.push(event);
      response.writeHead(200, { "Content-Type": "application/json" }).end('{"received":true}');
      for (const waiter of waiters) {
        if (waiter.test(received)) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
    } catch (error) {
      rejected.push(String(error));
      response.writeHead(400).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    rejected,
    failNext(count: number) {
      failures = count;
    },
    /** Resolves once the events received so far satisfy `test` (no sleeping). */
    waitFor(test: (events: PaymentEvent[]) => boolean, timeoutMs = 5_000): Promise<void> {
      if (test(received)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const waiter = {
          test,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `webhooks did not arrive; got ${received.map((e) => e.type).join(", ") || "none"}`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    types: () => received.map((event) => event.type),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fake Stripe, a provider on it and a webhook receiver wired together. */
export async function startPaymentsHarness(
  options: { timeoutMs?: number; maxNetworkRetries?: number; now?: () => Date } = {},
) {
  const payments = await startFakePayments(options);
  const receiver = await startWebhookReceiver(payments.provider);
  payments.fake.setWebhookUrl(receiver.url);
  return {
    ...payments,
    receiver,
    async close() {
      await payments.fake.close();
      await receiver.close();
    },
  };
}

/** What a visitor does on the hosted page: open it, type a card, submit (no redirects followed). */
export async function payOnHostedPage(
  pageUrl: string,
  card: string,
  { expiry = "12/30", cvc = "123" }: { expiry?: string; cvc?: string } = {},
) {
  const page = await fetch(pageUrl);
  const html = await page.text();
  if (page.status !== 200 || !html.includes("テスト決済")) {
    throw new Error(`the hosted page did not open (${page.status})`);
  }
  return fetch(pageUrl, {
    method: "POST",
    body: new URLSearchParams({ number: card, expiry, cvc }),
    redirect: "manual",
  });
}
