import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
// Each checkout running e2e at once picks its own E2E_PORT; the data directory follows it.
const dataDir = `./data/e2e-${PORT}`;
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * End-to-end tests drive Debian's Chromium against the built server on a
 * freshly seeded PGlite directory (data/e2e), so a run never reuses state.
 */
export default defineConfig({
  testDir: "tests/e2e",
  timeout: 30_000,
  retries: 0,
  workers: 2,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "off",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--headless=new",
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
  webServer: {
    command: `rm -rf ${dataDir} && npm run --silent db:seed && node server.js`,
    url: `http://localhost:${PORT}/readyz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      DATABASE_URL: dataDir,
      PORT: String(PORT),
      PUBLIC_URL: `http://localhost:${PORT}`,
      LOG_LEVEL: "warn",
    },
  },
});
