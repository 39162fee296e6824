import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as redirectsRoute from "../../app/routes/admin.redirects";
import { redirectRuleSchema } from "../../server/admin/redirects.schema";
import {
  createRedirectRule,
  listRedirectRules,
  RedirectRuleError,
  removeRedirectRule,
  updateRedirectRule,
} from "../../server/admin/redirects.server";
import { loadConfig } from "../../server/config";
import type { DatabaseHandle } from "../../server/db/client";
import { auditLog, redirectRules } from "../../server/db/schema";
import { createHttpApp } from "../../server/http/app";
import { createLogger } from "../../server/logger";
import {
  createRedirectRuleCache,
  type RedirectRuleCache,
} from "../../server/routing/redirect-rules";
import { ORIGIN, setRole } from "../support/accounts";
import { buildUser } from "../support/builders";
import { createRouteApp, postForm, signedInMember } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

// Route rules managed by administrators (issue 16, point 9): same-site
// targets only, no loops, an audit entry per change, and every app server
// following a change at once (LISTEN/NOTIFY rather than the 60 s TTL).
const database = withTestDatabase();
const NOW = new Date("2026-11-23T03:00:00Z");
const schema = redirectRuleSchema(ORIGIN);
let admin: { id: string };
let cache: RedirectRuleCache;

beforeAll(async () => {
  admin = await buildUser(database.db, { role: "admin" });
  cache = createRedirectRuleCache(database.db, { events: database });
  await cache.ready();
});
afterAll(async () => {
  await cache?.close();
});

const rule = (path: string, target: string, statusCode: "301" | "302" = "301") =>
  schema.parse({ path, target, statusCode });
const refusal = (error: unknown) =>
  error instanceof RedirectRuleError ? `${error.field}: ${error.message}` : String(error);

describe("what a rule may say", () => {
  it("refuses other hosts, non-paths and reserved sources with Japanese messages", () => {
    const cases: [string, string][] = [
      ["/a", "https://evil.example/"],
      ["/a", "//evil.example/x"],
      ["/a", "/\\evil.example"],
      ["/a", "\\\\evil.example"],
      ["/a", "javascript:alert(1)"],
      ["/a", "http://localhost:3000@evil.example/"],
      ["/a", "articles"],
      ["/a", "/ok path"],
      ["a", "/articles"],
      ["//a", "/articles"],
      ["/a?x=1", "/articles"],
      ["/a\\b", "/articles"],
      ["/admin/redirects", "/"],
      ["/api/route-rules", "/"],
      ["", ""],
    ];
    for (const [path, target] of cases) {
      const result = schema.safeParse({ path, target, statusCode: "301" });
      expect(result.success, `${path} → ${target}`).toBe(false);
      for (const issue of result.error?.issues ?? []) expect(issue.message).toMatch(/[ぁ-んァ-ン]/);
    }
    expect(schema.safeParse({ path: "/a", target: "/b", statusCode: "307" }).success).toBe(false);
  });

  it("keeps same-site targets, an absolute URL of this site as its path, and normalizes the source", () => {
    expect(rule("/old/", "/articles?tag=1#top")).toEqual({
      path: "/old",
      target: "/articles?tag=1#top",
      statusCode: 301,
    });
    expect(rule("/old", `${ORIGIN}/salons/search?genre=hair`, "302")).toEqual({
      path: "/old",
      target: "/salons/search?genre=hair",
      statusCode: 302,
    });
  });
});

describe("loops", () => {
  it("refuses A→A, A→B→A and longer chains, counting the rule being edited as changed", async () => {
    const attempt = (path: string, target: string) =>
      createRedirectRule(database.db, cache, rule(path, target), admin, NOW).then(
        () => "ok",
        refusal,
      );
    expect(await attempt("/loop-a", "/loop-a/")).toMatch(/^target: 転送先が転送元と同じ/);
    expect(await attempt("/loop-a", "/loop-b")).toBe("ok");
    expect(await attempt("/loop-b", "/loop-a?from=b")).toMatch(
      /^target: 転送がループになります（\/loop-b → \/loop-a → \/loop-b）/,
    );
    expect(await attempt("/loop-b", "/loop-c")).toBe("ok");
    expect(await attempt("/loop-c", `${ORIGIN}/loop-a`)).toMatch(/ループ/);
    expect(await attempt("/loop-c", "/articles")).toBe("ok");

    // Editing /loop-c to point back at /loop-a closes the circle: refused.
    const [c] = (await listRedirectRules(database.db)).filter((r) => r.path === "/loop-c");
    const edited = await updateRedirectRule(
      database.db,
      cache,
      c?.id ?? "",
      rule("/loop-c", "/loop-a"),
      admin,
      NOW,
    ).then(() => "ok", refusal);
    expect(edited).toMatch(/ループ/);
    expect(await attempt("/loop-a", "/elsewhere")).toMatch(
      /^path: この転送元のリダイレクトはすでに登録/,
    );
  });

  it("follows a salon's old-slug rule into the paths under it", async () => {
    // What a slug change saves: /salons/loop-old and every path under it → /salons/loop-new.
    await database.db.insert(redirectRules).values({
      path: "/salons/loop-old",
      target: "/salons/loop-new",
      statusCode: 301,
      includeSubpaths: true,
    });
    const attempt = (path: string, target: string) =>
      createRedirectRule(database.db, cache, rule(path, target), admin, NOW).then(
        () => "ok",
        refusal,
      );
    expect(await attempt("/salons/loop-new/confirm", "/salons/loop-old/confirm?menu=x")).toMatch(
      /^target: 転送がループになります（\/salons\/loop-new\/confirm → \/salons\/loop-old\/confirm → \/salons\/loop-new\/confirm）/,
    );
    expect(await attempt("/salons/loop-new/photos", "/salons/loop-old-2/photos")).toBe("ok");

    // Editing the slug rule (it keeps covering sub-paths) to land on that new rule's source: refused.
    const [slugRule] = (await listRedirectRules(database.db)).filter(
      (r) => r.path === "/salons/loop-old",
    );
    expect(slugRule?.includeSubpaths).toBe(true);
    await createRedirectRule(
      database.db,
      cache,
      rule("/salons/loop-x/photos", "/salons/loop-old/photos"),
      admin,
      NOW,
    );
    const edited = await updateRedirectRule(
      database.db,
      cache,
      slugRule?.id ?? "",
      rule("/salons/loop-old", "/salons/loop-x"),
      admin,
      NOW,
    ).then(() => "ok", refusal);
    expect(edited).toMatch(/ループ/);
  });
});

describe("changes", () => {
  it("adds, edits and deletes with an audit entry holding only what changed", async () => {
    const created = await createRedirectRule(
      database.db,
      cache,
      rule("/spring", "/articles"),
      admin,
      NOW,
    );
    expect(await cache.lookup("/spring")).toEqual({ target: "/articles", statusCode: 301 });
    await updateRedirectRule(
      database.db,
      cache,
      created.id,
      rule("/spring", "/articles", "302"),
      admin,
      NOW,
    );
    expect(await cache.lookup("/spring")).toEqual({ target: "/articles", statusCode: 302 });
    await removeRedirectRule(database.db, cache, created.id, admin, NOW);
    expect(await cache.lookup("/spring")).toBeNull();

    const entries = await database.db
      .select({ action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "redirect_rule"), eq(auditLog.targetId, created.id)));
    expect(entries).toEqual(
      expect.arrayContaining([
        {
          action: "redirect_rule.create",
          before: null,
          after: { path: "/spring", target: "/articles", statusCode: 301 },
        },
        { action: "redirect_rule.update", before: { statusCode: 301 }, after: { statusCode: 302 } },
        {
          action: "redirect_rule.delete",
          before: { path: "/spring", target: "/articles", statusCode: 302 },
          after: null,
        },
      ]),
    );
    expect(entries).toHaveLength(3);
  });
});

describe("through the admin page, seen by a second app server", () => {
  let other: DatabaseHandle;
  let otherCache: RedirectRuleCache;
  beforeAll(async () => {
    other = await database.openAnother();
    otherCache = createRedirectRuleCache(other.db, { events: other });
    await otherCache.ready();
  });
  afterAll(async () => {
    await otherCache?.close();
    await other?.close();
  });

  it("takes effect on the other server within a second of the save, and refuses hostile input with 4xx", async () => {
    const site = createRouteApp(database, [{ path: "/admin/redirects", module: redirectsRoute }]);
    const member = await signedInMember(database, site, "redirect-admin");
    await setRole(database.db, member.email, "admin");
    // Another app server on its own connection pool, with its own rules cache (TTL 60 s).
    const second = createHttpApp({
      config: loadConfig({ PUBLIC_URL: ORIGIN, LOG_LEVEL: "silent" }),
      database: other,
      log: createLogger("silent"),
      redirects: otherCache,
      handleRequest: async () => new Response("page"),
    });
    const visit = () => second.request(`${ORIGIN}/campaign-2026`, { redirect: "manual" });
    expect((await visit()).status).toBe(200); // its cache now holds "no rule"

    const saved = await member.b.request(
      "/admin/redirects",
      postForm({
        intent: "create",
        path: "/campaign-2026",
        target: "/articles",
        statusCode: "301",
      }),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/redirects?done=created");
    await expect
      .poll(async () => (await visit()).status, { timeout: 1000, interval: 20 })
      .toBe(301);
    expect((await visit()).headers.get("location")).toBe("/articles");

    const hostile = await member.b.request(
      "/admin/redirects",
      postForm({ intent: "create", path: "/x", target: "//evil.example", statusCode: "301" }),
    );
    expect(hostile.status).toBe(422);
    const body = (await hostile.json()) as {
      actionData: { errors: { target: string }; values: { target: string } };
    };
    expect(body.actionData.errors.target).toContain("他のサイト");
    expect(body.actionData.values.target).toBe("//evil.example");
    const unknown = await member.b.request(
      "/admin/redirects",
      postForm({ intent: "delete", id: crypto.randomUUID() }),
    );
    expect(unknown.status).toBe(404);

    const [created] = (await listRedirectRules(database.db)).filter(
      (r) => r.path === "/campaign-2026",
    );
    const removed = await member.b.request(
      "/admin/redirects",
      postForm({ intent: "delete", id: created?.id ?? "" }),
    );
    expect(removed.status).toBe(302);
    await expect
      .poll(async () => (await visit()).status, { timeout: 1000, interval: 20 })
      .toBe(200);
  });
});
