import { beforeAll, expect } from "vitest";

/**
 * Setup file of the "unit:tz-*" projects (vitest.config.ts): checks that the
 * process really runs in the zone the project names, so a configuration in
 * which TZ does not take effect fails instead of testing one zone twice.
 */
const OFFSET_MINUTES: Record<string, number> = { UTC: 0, "Asia/Tokyo": -540 };

beforeAll(() => {
  const expected = process.env.EXPECTED_TZ ?? "";
  expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toEqual(
    expected === "UTC" ? expect.stringMatching(/^(UTC|Etc\/UTC)$/) : expected,
  );
  expect(new Date(2026, 0, 1).getTimezoneOffset()).toBe(OFFSET_MINUTES[expected]);
});
