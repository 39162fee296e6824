import { describe, expect, it } from "vitest";
import { memoize } from "./memo";

describe("memoize", () => {
  it("loads once within the TTL, again after it or after invalidate", async () => {
    let clock = 0;
    let loads = 0;
    const memo = memoize(async () => ++loads, { ttlMs: 1000, now: () => clock });
    expect(await Promise.all([memo.get(), memo.get()])).toEqual([1, 1]);
    clock = 1000;
    expect(await memo.get()).toBe(1);
    clock = 1001;
    expect(await memo.get()).toBe(2);
    memo.invalidate();
    expect(await memo.get()).toBe(3);
  });

  it("does not keep a failed load", async () => {
    let fail = true;
    const memo = memoize(
      async () => {
        if (fail) throw new Error("database unavailable");
        return "rules";
      },
      { ttlMs: 60_000 },
    );
    await expect(memo.get()).rejects.toThrow("database unavailable");
    fail = false;
    expect(await memo.get()).toBe("rules");
  });
});
