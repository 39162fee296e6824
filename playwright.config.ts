import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
// Each checkout running e2e at once picks its own E2E_PORT; the data directory follows it.
const dataDir = `./data/e2e-${PORT}`;
// The e2e OIDC provider (tests/e2e/accounts-oidc.spec.ts) listens next to the app.
export const OIDC_PORT = PORT + 98;
// The app sends every mail over SMTP to tests/e2e/mail-capture-server.ts, which
// tests read over HTTP (tests/support/mail-capture.ts).
export const MAIL_CAPTURE = { smtpPort: PORT + 1, httpPort: PORT + 2 };
// The search's map view draws tiles from a stub tile server that tests/e2e/search-map.spec.ts
// starts (127.0.0.1:3391 with the default port; each checkout its own).
export const MAP_TILE_PORT = PORT + 291;
export const E2E_ADMIN = { email: "admin@example.jp", password: "admin-pass-123" };
// Debian's headless shell (package chromium-headless-shell) is the browser without its own UI,
// which in the full browser took about a quarter of the suite's CPU on CI's 2-core machine
// (bench/README.md "Test suite time"). CHROMIUM_PATH picks another build.
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
const chromium =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

/** The app server's environment; the seed runs with it too. */
export const e2eServerEnv: Record<string, string> = {
  DATABASE_URL: dataDir,
  UPLOADS_DIR: `${dataDir}-uploads`,
  PORT: String(PORT),
  PUBLIC_URL: `http://localhost:${PORT}`,
  LOG_LEVEL: "warn",
  // Every test signs in from 127.0.0.1; the limits themselves are covered by integration tests.
  RATE_LIMIT_PER_IP: "10000",
  RATE_LIMIT_PER_ACCOUNT: "1000",
  BOOKING_RATE_LIMIT_PER_IP: "10000",
  BOOKING_RATE_LIMIT_PER_ACCOUNT: "1000",
  // Guest holds of every test come from 127.0.0.1 and live 10 minutes (decision 0034).
  LIVE_GUEST_HOLDS_PER_IP: "1000",
  // The `login` fixture (tests/e2e/fixtures.ts) makes signed-in users through POST /api/test/login.
  E2E_LOGIN: "true",
  // The waiting-list story must pass at any hour (quiet hours: integration tests, frozen clock).
  WAITLIST_QUIET_HOURS: "off",
  // A salon's webhook reaches the test's local receiver on 127.0.0.1 (decision 0086).
  WEBHOOK_ALLOW_LOOPBACK: "on",
  GOOGLE_CLIENT_ID: "salon-navi-e2e",
  GOOGLE_CLIENT_SECRET: "e2e-secret",
  GOOGLE_ISSUER: `http://localhost:${OIDC_PORT}`,
  // LINE sign-in and linking go to the same local provider (tests/e2e/accounts-oidc.spec.ts).
  LINE_CLIENT_ID: "salon-navi-e2e-line",
  LINE_CLIENT_SECRET: "e2e-line-secret",
  LINE_ISSUER: `http://localhost:${OIDC_PORT}`,
  // Mails leave through the real delivery loop (outbox → SMTP), not /dev/mailbox.
  SMTP_URL: `smtp://127.0.0.1:${MAIL_CAPTURE.smtpPort}`,
  // The map view is on (decision 0058); its tiles come from the spec's own stub server.
  MAP_TILE_URL: `http://127.0.0.1:${MAP_TILE_PORT}/tiles/{z}/{x}/{y}.png`,
};

/** A fresh data directory: the demo seed and the e2e administrator. */
export const e2eSeedCommand = `rm -rf ${dataDir} ${dataDir}-uploads && npm run --silent db:seed && npm run --silent admin:create -- --email ${E2E_ADMIN.email} --password ${E2E_ADMIN.password}`;
export const e2eDataDir = dataDir;

/**
 * End-to-end tests drive Debian's Chromium against the built server on a
 * freshly seeded PGlite directory (data/e2e), so a run never reuses state.
 */
export default defineConfig({
  testDir: "tests/e2e",
  // 60 s a test: axe runs and phone layouts took over 30 s on CI's 2-core machine (search-map,
  // search-phone, review-back-office timed out twice in a row there on 2026-11-29).
  timeout: 60_000,
  // One retry on CI absorbs a slow cold start on a loaded 2-core machine; a real failure fails twice.
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "off",
    launchOptions: {
      executablePath: chromium,
      args: [
        ...(chromium.endsWith("headless-shell") ? [] : ["--headless=new"]),
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: [
    {
      command: "npx tsx tests/e2e/mail-capture-server.ts",
      url: `http://127.0.0.1:${MAIL_CAPTURE.httpPort}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        MAIL_CAPTURE_SMTP_PORT: String(MAIL_CAPTURE.smtpPort),
        MAIL_CAPTURE_HTTP_PORT: String(MAIL_CAPTURE.httpPort),
      },
    },
    {
      // scripts/test.sh seeds this run's directory while Vitest runs (tests/e2e/prepare-data.ts)
      // and names it in E2E_PRESEEDED; a plain `playwright test` seeds it first.
      command:
        process.env.E2E_PRESEEDED === dataDir
          ? "node server.js"
          : `${e2eSeedCommand} && node server.js`,
      url: `http://localhost:${PORT}/readyz`,
      reuseExistingServer: false,
      // Seeding 300 salons takes about 40 s of CPU: a loaded machine needs far more than that.
      timeout: 600_000,
      stdout: "ignore",
      stderr: "pipe",
      env: e2eServerEnv,
    },
  ],
});
