import { parseArgs } from "node:util";
import { sendBookingMoney } from "../../server/bookings/booking-fees.server";
import { openDatabase } from "../../server/db/client";
import { createStripeProvider } from "../../server/payments/stripe-provider.server";

/**
 * An app process's last moments, for tests/integration/payment-kill9.test.ts:
 * our real fee code (sendBookingMoney) sends a booking's pending fee to a
 * fake Stripe running in another process, and this process is killed with
 * SIGKILL by the test while it waits for the answer. Prints "sending" before
 * the call and "sent" after it (never reached when the test kills it).
 */
const { values } = parseArgs({
  options: {
    db: { type: "string" },
    "api-url": { type: "string" },
    "secret-key": { type: "string" },
    "webhook-secret": { type: "string" },
    booking: { type: "string" },
    now: { type: "string" },
  },
});

const database = await openDatabase(values.db ?? "");
const provider = createStripeProvider({
  secretKey: values["secret-key"] ?? "",
  webhookSecret: values["webhook-secret"] ?? "",
  apiUrl: values["api-url"],
  name: "fake",
  // Waits for the answer as long as the test needs to kill it there.
  timeoutMs: 60_000,
  maxNetworkRetries: 0,
});
console.log("sending");
await sendBookingMoney(database.db, provider, values.booking ?? "", {
  now: new Date(values.now ?? Date.now()),
  publicUrl: "http://127.0.0.1:3000",
});
console.log("sent");
await database.close();
