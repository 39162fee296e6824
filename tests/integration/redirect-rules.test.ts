import { describe, expect, it } from "vitest";
import { redirectRules } from "../../server/db/schema";
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
