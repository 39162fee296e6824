import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { openDatabase } from "../../server/db/client";
import { seedDatabase } from "../../server/db/seed/seed";
import { createRedirectRuleCache, saveRedirectRule } from "../../server/routing/redirect-rules";
import { expect, test } from "./fixtures";

// A server of its own, on a database prepared with route rules, beside the
// shared e2e server.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 97;
const base = `http://localhost:${PORT}`;
const dataDir = `./data/e2e-rules-${PORT}`;
let server: ChildProcess | undefined;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  rmSync(dataDir, { recursive: true, force: true });
  const database = await openDatabase(dataDir);
  await database.migrate();
  await seedDatabase(database.db, { salonCount: 3 });
  const cache = createRedirectRuleCache(database.db);
  await saveRedirectRule(database.db, cache, {
    path: "/old-company",
    target: "/company",
    statusCode: 301,
  });
  await saveRedirectRule(database.db, cache, {
    path: "/about",
    target: `${base}/user-policy`,
    statusCode: 302,
  });
  await database.close();
  server = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      DATABASE_URL: dataDir,
      PORT: String(PORT),
      PUBLIC_URL: base,
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("route-rules server did not start");
});

test.afterAll(() => {
  server?.kill("SIGTERM");
});

test("a stored rule redirects a fresh load with its status code", async ({ request, page }) => {
  const response = await request.get(`${base}/old-company`, { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe("/company");
  await page.goto(`${base}/old-company`);
  await expect(page).toHaveURL(`${base}/company`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("運営会社");
});

test("a stored rule redirects a client-side navigation with a full page load", async ({ page }) => {
  await page.goto(`${base}/company`);
  await page.waitForFunction(() =>
    (window.dataLayer ?? []).some((event) => event.event === "page_view"),
  );
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
  await page.getByRole("contentinfo").getByRole("link", { name: "Salon Naviについて" }).click();
  await expect(page).toHaveURL(`${base}/user-policy`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("利用規約");
  expect(
    await page.evaluate(() => (window as unknown as { marker?: boolean }).marker),
  ).toBeUndefined();
});

test("a client-side navigation to a path with no route still meets its rule", async ({ page }) => {
  await page.goto(`${base}/company`);
  await page.waitForFunction(() =>
    (window.dataLayer ?? []).some((event) => event.event === "page_view"),
  );
  await page.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
    // The router handles a history change itself, as it does a link: no page load.
    window.history.pushState(null, "", "/old-company");
    window.dispatchEvent(new PopStateEvent("popstate"));
  });
  // /old-company has no route, only a rule: the rule wins, with a full page load.
  await expect(page).toHaveURL(`${base}/company`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("運営会社");
  expect(
    await page.evaluate(() => (window as unknown as { marker?: boolean }).marker),
  ).toBeUndefined();
});
