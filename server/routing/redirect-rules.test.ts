import { describe, expect, it } from "vitest";
import { matchRule, ruleTable } from "./redirect-rules";

const table = ruleTable([
  { path: "/salons/old", target: "/salons/new", statusCode: 301, includeSubpaths: true },
  {
    path: "/salons/old/confirm/special",
    target: "/articles",
    statusCode: 302,
    includeSubpaths: false,
  },
  { path: "/campaign", target: "/salons/new?coupon=c", statusCode: 302, includeSubpaths: false },
  { path: "/moved", target: "/", statusCode: 301, includeSubpaths: true },
  { path: "/tagged", target: "/articles?tag=a", statusCode: 301, includeSubpaths: true },
]);

describe("matchRule", () => {
  it("carries the rest of the path and the query string over for a rule covering sub-paths", () => {
    expect(matchRule(table, "/salons/old/confirm", "?menu=x&menu=y")).toEqual({
      target: "/salons/new/confirm?menu=x&menu=y",
      statusCode: 301,
    });
    expect(matchRule(table, "/salons/old/confirm/thanks.ics", "?booking=b")?.target).toBe(
      "/salons/new/confirm/thanks.ics?booking=b",
    );
    expect(matchRule(table, "/salons/old/", "?")?.target).toBe("/salons/new");
    expect(matchRule(table, "/salons/old/confirm.data")?.target).toBe("/salons/new/confirm");
  });

  it("prefers a path's own rule, matches whole segments only, and leaves plain rules as stored", () => {
    expect(matchRule(table, "/salons/old/confirm/special", "?x=1")?.target).toBe("/articles");
    expect(matchRule(table, "/salons/older/confirm")).toBeNull();
    expect(matchRule(table, "/salons")).toBeNull();
    expect(matchRule(table, "/campaign/sub")).toBeNull();
    expect(matchRule(table, "/campaign", "?utm=1")?.target).toBe("/salons/new?coupon=c");
    // The target's own query string wins over the request's.
    expect(matchRule(table, "/tagged/x", "?tag=b")?.target).toBe("/articles/x?tag=a");
  });

  it("looks a deep path's parents up in the first segments only", () => {
    const deep = `/salons/old/${"a/".repeat(5000)}b`;
    expect(matchRule(table, deep)?.target).toBe(`/salons/new/${"a/".repeat(5000)}b`);
    expect(matchRule(table, `/x/${"a/".repeat(5000)}b`)).toBeNull();
  });

  it("never makes another host out of the rest of the path", () => {
    expect(matchRule(table, "/moved/x")?.target).toBe("/x");
    expect(matchRule(table, "/moved//evil.example")).toBeNull();
    expect(matchRule(table, "/moved/\\evil.example")).toBeNull();
    expect(matchRule(table, "/salons/old//evil.example")?.target).toBe("/salons/new//evil.example");
  });
});
