/**
 * Seeds the end-to-end data directory ahead of `playwright test` (scripts/test.sh
 * runs it beside Vitest, at a lower priority, and then starts Playwright with
 * E2E_PRESEEDED set to the directory, so that the app server starts at once).
 * The same command and environment as playwright.config.ts's web server.
 */
import { spawn } from "node:child_process";
import { e2eDataDir, e2eSeedCommand, e2eServerEnv } from "../../playwright.config";

const child = spawn("sh", ["-c", e2eSeedCommand], {
  env: { ...process.env, ...e2eServerEnv },
  stdio: ["ignore", "ignore", "inherit"],
});
child.on("exit", (code) => {
  if (code === 0) console.log(e2eDataDir);
  process.exit(code ?? 1);
});
