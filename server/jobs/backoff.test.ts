import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff";

describe("backoffDelay", () => {
  it("doubles the base per doubling", () => {
    expect(backoffDelay(30_000, 0)).toBe(30_000);
    expect(backoffDelay(30_000, 3)).toBe(240_000);
  });

  it("never waits more than an hour", () => {
    expect(backoffDelay(30_000, 20)).toBe(3_600_000);
  });
});
