import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { redirectRules } from "../../server/db/schema";
import { createHttpApp } from "../../server/http/app";
import { createLogger } from "../../server/logger";
import {
  createRedirectRuleCache,
  deleteRedirectRule,
  normalizeRulePath,
  saveRedirectRule,
} from "../../server/routing/redirect-rules";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();

describe("normalizeRulePath", () => {
  it("ignores trailing slashes and React Router's data suffix", () => {
    expect(normalizeRulePath("/campaign/")).toBe("/campaign");
    expect(normalizeRulePath("/campaign.data")).toBe("/campaign");
    expect(normalizeRulePath("/")).toBe("/");
  });
});

describe("redirect rule cache", () => {
  it("finds a saved rule and forgets a deleted one", async () => {
    const cache = createRedirectRuleCache(database.db);
    expect(await cache.lookup("/old-campaign")).toBeNull();
    await saveRedirectRule(database.db, cache, {
      path: "/old-campaign",
      target: "/articles",
      statusCode: 301,
    });
    expect(await cache.lookup("/old-campaign/")).toEqual({ target: "/articles", statusCode: 301 });
    await saveRedirectRule(database.db, cache, {
      path: "/old-campaign",
      target: "/about",
      statusCode: 302,
    });
    expect(await cache.lookup("/old-campaign")).toEqual({ target: "/about", statusCode: 302 });
    await deleteRedirectRule(database.db, cache, "/old-campaign");
    expect(await cache.lookup("/old-campaign")).toBeNull();
  });

  it("serves lookups from memory until the TTL passes", async () => {
    let clock = 0;
    const cache = createRedirectRuleCache(database.db, { ttlMs: 1000, now: () => clock });
    expect(await cache.lookup("/spring")).toBeNull();
    // Written behind the cache's back, as another app server would.
    await database.db
      .insert(redirectRules)
      .values({ path: "/spring", target: "/summer", statusCode: 302 });
    expect(await cache.lookup("/spring")).toBeNull();
    clock = 1001;
    expect(await cache.lookup("/spring")).toEqual({ target: "/summer", statusCode: 302 });
  });

  it("leaves disabled rules out", async () => {
    const cache = createRedirectRuleCache(database.db);
    await saveRedirectRule(database.db, cache, {
      path: "/paused",
      target: "/",
      statusCode: 302,
      enabled: false,
    });
    expect(await cache.lookup("/paused")).toBeNull();
  });
});

describe("a rule that covers the paths under it (a salon's old slug)", () => {
  it("redirects document requests and answers client checks with the rest of the path and the query", async () => {
    const redirects = createRedirectRuleCache(database.db);
    await saveRedirectRule(database.db, redirects, {
      path: "/salons/sub-old",
      target: "/salons/sub-new",
      statusCode: 301,
      includeSubpaths: true,
    });
    const app = createHttpApp({
      config: loadConfig({ LOG_LEVEL: "silent", PAGE_CACHE_ENTRIES: "0" }),
      database,
      log: createLogger("silent"),
      redirects,
      handleRequest: async () => new Response("page"),
    });
    const page = await app.request("/salons/sub-old/confirm?menu=m1&staff=s1", {
      redirect: "manual",
    });
    expect(page.status).toBe(301);
    expect(page.headers.get("location")).toBe("/salons/sub-new/confirm?menu=m1&staff=s1");

    const ask = async (path: string) =>
      (await (await app.request(`/api/route-rules?path=${encodeURIComponent(path)}`)).json()) as {
        redirect: { target: string; statusCode: number } | null;
      };
    expect(await ask("/salons/sub-old/confirm/thanks?booking=b1")).toEqual({
      redirect: { target: "/salons/sub-new/confirm/thanks?booking=b1", statusCode: 301 },
    });
    expect(await ask("/salons/sub-old")).toEqual({
      redirect: { target: "/salons/sub-new", statusCode: 301 },
    });
    expect(await ask("/salons/sub-older/confirm")).toEqual({ redirect: null });
    expect(await ask("/salons/sub-new/confirm")).toEqual({ redirect: null });
    for (const hostile of ["?x", "//evil.example", "/salons/sub-old/\\evil", "/%00", ""]) {
      const answer = await app.request(`/api/route-rules?path=${encodeURIComponent(hostile)}`);
      expect(answer.status, hostile).toBeLessThan(500);
    }
  });
});
