import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { createServer } from "vite";
import { startFreeDaysRefresh } from "../server/bookings/free-days.server";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db/client";
import { startBackgroundJobs } from "../server/jobs/background.server";
import { startLine } from "../server/line/line-channel.server";
import { createLogger } from "../server/logger";
import { startMailDelivery } from "../server/mail/mailer";
import { startPayments } from "../server/payments/payments.server";
import { prepareDatabase } from "../server/prepare-database.server";
import { startWebhookDelivery, webhookDeliveryOptions } from "../server/webhooks/delivery.server";

// Development server: Vite serves client modules with HMR; every other
// request goes to the same Hono app as production, loaded through Vite so
// route and server edits apply without a restart.
const config = loadConfig();
const log = createLogger(config.LOG_LEVEL);
const database = await openDatabase(config.DATABASE_URL);
// Migrations, and search tokens that follow the dictionary being edited, as in production.
await prepareDatabase(database, log);
// Requests only queue mail (decision 0008); with SMTP_URL this sends it, as in production.
if (config.SMTP_URL) startMailDelivery({ database, smtpUrl: config.SMTP_URL, log });
// The search's free-time summary follows the clock (decision 0014), as in production.
startFreeDaysRefresh({ db: database.db, log });
// The fake Stripe without a key (テスト決済), its webhooks to this server, as `npm start` does.
const payments = await startPayments(config, {
  webhookUrl: `http://127.0.0.1:${config.PORT}/api/payments/webhook`,
  log,
});
// LINE, or the local fake without a channel (decision 0089): /dev/line shows what it received.
const line = await startLine(config, log);
// Booking mails and reminders (decision 0010) run here too, so /dev/mailbox shows them; the
// payments' daily reconciliation only with a provider that keeps its state (decision 0081).
startBackgroundJobs(database.db, config, log, {
  payments: payments && !payments.fake ? payments.provider : null,
  sender: payments?.provider ?? null,
  line,
});
// Salons' webhooks (decision 0086), as in production.
startWebhookDelivery(webhookDeliveryOptions(database.db, config, log));
const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });

const listener = getRequestListener(async (request) => {
  const { createServerApp } = (await vite.ssrLoadModule(
    "/server/app.ts",
  )) as typeof import("../server/app");
  const app = createServerApp(
    { config, database, log, payments: payments?.provider ?? null, line },
    () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  );
  return app.fetch(request);
});

http
  .createServer((req, res) => vite.middlewares(req, res, () => listener(req, res)))
  .listen(config.PORT, () =>
    log.info("dev server listening", { url: `http://localhost:${config.PORT}` }),
  );
