import { describe, expect, it } from "vitest";
import {
  initialReplicaState,
  nextReplicaState,
  parseLsn,
  type ReplicaObservation,
  type ReplicaState,
  recentSamples,
  replayLagSeconds,
} from "./replica-health";

const rules = { maxLagSeconds: 5, recoverChecks: 3 };
const healthy = (lagSeconds: number | null = 0): ReplicaObservation => ({
  reachable: true,
  lagSeconds,
});
const down: ReplicaObservation = { reachable: false, error: "connect ECONNREFUSED" };

/** The states after each of these checks, from the start. */
function run(checks: ReplicaObservation[], from: ReplicaState = initialReplicaState) {
  const states: ReplicaState[] = [];
  let state = from;
  for (const seen of checks) {
    state = nextReplicaState(state, seen, rules);
    states.push(state);
  }
  return states;
}
const inUse = (states: ReplicaState[]) => states.map((state) => state.inUse);

describe("nextReplicaState", () => {
  it("starts on the primary and takes a healthy replica at the first check", () => {
    expect(initialReplicaState.inUse).toBe(false);
    expect(run([healthy()])[0]).toMatchObject({ inUse: true, status: "healthy" });
  });

  it("a replica down at start is not used until it has been healthy a few checks in a row", () => {
    expect(inUse(run([down, healthy(), healthy(), healthy()]))).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it("leaves the replica at the first failed check, with its error", () => {
    const [, left] = run([healthy(), down]);
    expect(left).toMatchObject({ inUse: false, status: "down", error: "connect ECONNREFUSED" });
  });

  it("leaves it when it lags more than the maximum, not at the maximum", () => {
    expect(inUse(run([healthy(), healthy(5)]))).toEqual([true, true]);
    const [, left] = run([healthy(), healthy(5.5)]);
    expect(left).toMatchObject({ inUse: false, status: "lagging", lagSeconds: 5.5 });
  });

  it("comes back only after the lag is at most half the maximum for a few checks in a row", () => {
    const states = run([healthy(), healthy(9), healthy(4), healthy(4), healthy(2), healthy(2.5)]);
    // 4 s is within the maximum but not caught up: it does not count toward coming back.
    expect(inUse(states)).toEqual([true, false, false, false, false, false]);
    expect(inUse(run([healthy(2)], states.at(-1)))).toEqual([true]);
  });

  it("does not flap with a replica that answers one check in two", () => {
    const checks = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? down : healthy()));
    expect(inUse(run(checks)).some(Boolean)).toBe(false);
  });

  it("a failure between healthy checks starts the count again", () => {
    expect(inUse(run([down, healthy(), healthy(), down, healthy(), healthy(), healthy()]))).toEqual(
      [false, false, false, false, false, false, true],
    );
  });

  it("a replica with no lag to measure (not a standby) is healthy when it answers", () => {
    expect(run([healthy(null)])[0]).toMatchObject({ inUse: true, lagSeconds: null });
    expect(inUse(run([down, healthy(null), healthy(null), healthy(null)]))).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });
});

describe("replayLagSeconds", () => {
  const samples = [
    { at: 10_000, lsn: 100n },
    { at: 11_000, lsn: 200n },
    { at: 12_000, lsn: 300n },
  ];

  it("is the age of the oldest primary position not yet replayed", () => {
    expect(replayLagSeconds(samples, 150n, 12_500)).toBe(1.5);
    expect(replayLagSeconds(samples, 99n, 12_500)).toBe(2.5);
  });

  it("is 0 when everything seen on the primary is replayed (an idle primary too)", () => {
    expect(replayLagSeconds(samples, 300n, 12_500)).toBe(0);
    const idle = [
      { at: 10_000, lsn: 300n },
      { at: 11_000, lsn: 300n },
    ];
    expect(replayLagSeconds(idle, 300n, 60_000)).toBe(0);
  });
});

describe("parseLsn", () => {
  it("orders LSNs across the high word", () => {
    expect(parseLsn("0/16B3748")).toBe(0x16b3748n);
    expect(parseLsn("16/B374D848") > parseLsn("15/FFFFFFFF")).toBe(true);
    expect(() => parseLsn("nope")).toThrow();
  });
});

describe("recentSamples", () => {
  it("keeps those within the window, and always the newest", () => {
    const samples = [
      { at: 1_000, lsn: 1n },
      { at: 50_000, lsn: 2n },
    ];
    expect(recentSamples(samples, 60_000, 30_000)).toEqual([{ at: 50_000, lsn: 2n }]);
    expect(recentSamples(samples, 200_000, 30_000)).toEqual([{ at: 50_000, lsn: 2n }]);
  });
});
