import { parseArgs } from "node:util";
import { SITE_TIME_ZONE } from "../common/format";
import { calendarDay } from "../common/local-time";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/client";
import { createLogger } from "../server/logger";
import { startPayments } from "../server/payments/payments.server";
import { reconcilePayments } from "../server/payments/reconciliation.server";

/**
 * `npm run payments:reconcile -- [--day 2026-11-28]`: the daily
 * reconciliation of payments (decision 0081) for a day (default: today in
 * Japan), as the nightly job and /admin/payments run it. Needs the Stripe
 * settings: the fake started without them knows nothing of earlier runs.
 */
const { values } = parseArgs({ options: { day: { type: "string" } } });
const now = new Date();
const day = values.day ?? calendarDay(now, SITE_TIME_ZONE);
if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
  console.error("usage: npm run payments:reconcile -- [--day YYYY-MM-DD]");
  process.exit(1);
}
const config = loadConfig();
if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) {
  console.error("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are needed to reconcile payments");
  process.exit(1);
}
const log = createLogger(config.LOG_LEVEL);
const handle = await openDatabase(config.DATABASE_URL);
const payments = await startPayments(config, { webhookUrl: "", log });
try {
  await handle.migrate();
  if (!payments) throw new Error("no payment provider");
  const result = await reconcilePayments(handle.db, payments.provider, { day, now, log });
  console.log(JSON.stringify(result));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await payments?.close();
  await handle.close();
  process.exit();
}
