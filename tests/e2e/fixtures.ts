import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

/** Runs axe-core on the page and fails with the rule ids and targets of any violation. */
async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(summary).toEqual([]);
}

export const test = base.extend<{ axe: { check: () => Promise<void> } }>({
  axe: async ({ page }, use) => {
    await use({ check: () => expectNoAxeViolations(page) });
  },
});

export { expect };
