import { describe, expect, it } from "vitest";
import { coalescedReloads } from "./use-ledger-live";

/** A reload the test finishes by hand, so no timing is involved. */
function manualReloads() {
  const pending: (() => void)[] = [];
  let started = 0;
  const reloads = coalescedReloads(
    () =>
      new Promise<void>((resolve) => {
        started += 1;
        pending.push(resolve);
      }),
  );
  const finishNext = async () => {
    pending.shift()?.();
    // Let the loop see the finished reload and start the next one, if any.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { reloads, finishNext, started: () => started, pending: () => pending.length };
}

describe("coalescedReloads (the ledger's and 今日's live updates)", () => {
  it("reloads at once on the first change", () => {
    const { reloads, started } = manualReloads();
    reloads.request();
    expect(started()).toBe(1);
  });

  it("reads changes that came during a reload with exactly one more reload", async () => {
    const { reloads, finishNext, started, pending } = manualReloads();
    reloads.request();
    reloads.request();
    reloads.request();
    expect(started()).toBe(1);
    await finishNext();
    expect(started()).toBe(2);
    await finishNext();
    expect(started()).toBe(2);
    expect(pending()).toBe(0);
    reloads.request();
    expect(started()).toBe(3);
  });

  it("keeps going after a reload that failed", async () => {
    let calls = 0;
    const reloads = coalescedReloads(async () => {
      calls += 1;
      if (calls === 1) throw new Error("network");
    });
    reloads.request();
    reloads.request();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(calls).toBe(2);
    reloads.request();
    expect(calls).toBe(3);
  });
});
