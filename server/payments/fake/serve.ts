import { parseArgs } from "node:util";
import { FakeStripe } from "./fake-stripe.server";

/**
 * The fake Stripe as a process of its own (decision 0084): one fake shared
 * by several app processes (a cluster without a Stripe key, each pointed at
 * it with STRIPE_API_URL), or a test that kills an app process while the
 * fake keeps what was charged. Its keys are the ones the app processes are
 * given (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, test keys only); faults
 * are injected through POST /__fake/control with that key.
 *
 *   STRIPE_SECRET_KEY=sk_test_… STRIPE_WEBHOOK_SECRET=whsec_… \
 *     npm run payments:fake -- --port 12111 [--host 127.0.0.1] [--webhook-url URL] [--public-origin URL]
 *
 * Prints one line of JSON, {"apiUrl": …}, once it listens; stops on SIGTERM or SIGINT.
 */
const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
    "webhook-url": { type: "string" },
    "public-origin": { type: "string" },
  },
});

const secretKey = process.env.STRIPE_SECRET_KEY ?? "";
const webhookSecret = process.env.STRIPE_WEBHOOK_SECRET ?? "";
if (!/^sk_test_\w+$/.test(secretKey) || !/^whsec_\w+$/.test(webhookSecret)) {
  console.error(
    "payments:fake wants STRIPE_SECRET_KEY=sk_test_… and STRIPE_WEBHOOK_SECRET=whsec_… (test keys only)",
  );
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error("payments:fake: --port wants a port number (0: any free one)");
  process.exit(2);
}

const fake = new FakeStripe({
  secretKey,
  webhookSecret,
  port,
  host: values.host,
  ...(values["webhook-url"] ? { webhookUrl: values["webhook-url"] } : {}),
  ...(values["public-origin"] ? { publicOrigin: values["public-origin"] } : {}),
});
const apiUrl = await fake.start();
console.log(JSON.stringify({ apiUrl }));

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    fake.close().then(() => process.exit(0));
  });
}
