import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

/**
 * Runs axe-core on the page and fails with the rule ids and targets of any violation.
 * Legacy mode runs axe in the page itself; the default opens a second page per check to merge
 * the results of cross-origin frames, which we do not have (no iframe in app/), and took half of
 * each check's time (bench/README.md "Test suite time").
 */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(summary).toEqual([]);
}

export type LoggedIn = { email: string; password: string; role: "user" | "owner" | "admin" };

export const test = base.extend<{
  axe: { check: () => Promise<void> };
  /**
   * Signs the page's browser in as a new, verified user with a completed
   * profile (山田 花子), made by the server's test-only POST /api/test/login
   * (E2E_LOGIN, set in playwright.config.ts): no sign-up form, no mailbox.
   */
  login: (options?: { role?: LoggedIn["role"] }) => Promise<LoggedIn>;
}>({
  axe: async ({ page }, use) => {
    await use({ check: () => expectNoAxeViolations(page) });
  },
  login: async ({ page, baseURL }, use) => {
    await use(async ({ role = "user" } = {}) => {
      // page.request shares the browser context's cookies: the session cookie lands there.
      const response = await page.request.post("/api/test/login", {
        data: { role },
        headers: { origin: baseURL ?? "" },
      });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as LoggedIn;
    });
  },
});

export { expect };
