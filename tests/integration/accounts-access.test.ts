import { beforeAll, describe, expect, it } from "vitest";
import { createAdmin } from "../../server/accounts/admin-create";
import type { AuthError } from "../../server/accounts/auth-error";
import {
  accountSetupRedirect,
  requireAccountSetup,
  requireAdmin,
  requireAuthFull,
  requireLogin,
} from "../../server/accounts/guards";
import { signInWithPassword, signUpWithPassword } from "../../server/accounts/identity";
import { saveProfile } from "../../server/accounts/profile";
import { databaseRateLimitStore, redisRateLimitStore } from "../../server/accounts/rate-limit";
import {
  browser,
  createAccountsApp,
  lastMailLink,
  setRole,
  signUpThroughApi,
  uniqueEmail,
} from "../support/accounts";
import { startRedisServer } from "../support/redis-server";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;

beforeAll(async () => {
  env = createAccountsApp(database);
});

const ctx = () => ({ db: database.db, accounts: env.accounts });

/** What a guard did: the user's email, a redirect target, or a status. */
async function outcome(guard: Promise<{ email: string }>) {
  try {
    return (await guard).email;
  } catch (thrown) {
    if (thrown instanceof Response) return `redirect ${thrown.headers.get("location")}`;
    const status = (thrown as { init?: { status?: number } }).init?.status;
    if (status) return `status ${status}`;
    throw thrown;
  }
}

async function person(kind: "guest" | "unverified" | "user" | "complete" | "admin") {
  const b = browser(env.app);
  if (kind === "guest") return b;
  const email = uniqueEmail(kind);
  await signUpWithPassword(env.accounts, { email, password: "secret1" }, b.toRequest("/signup"));
  b.keep(
    await signInWithPassword(env.accounts, { email, password: "secret1" }, b.toRequest("/signin")),
  );
  if (kind === "unverified") return b;
  await b.request(await lastMailLink(database.db, email));
  const user = await requireLogin(b.toRequest("/"), ctx());
  if (kind === "complete" || kind === "admin") {
    await saveProfile(database.db, user.id, {
      name: "山田 花子",
      nameKana: "ヤマダ ハナコ",
      phone: "09012345678",
      gender: "female",
      birthDate: null,
    });
  }
  if (kind === "admin") await setRole(database.db, email, "admin");
  return b;
}

describe("guards (SPEC.md §6)", () => {
  it("send each kind of visitor where SPEC.md says", async () => {
    const table: Record<string, Record<string, string>> = {};
    for (const kind of ["guest", "unverified", "user", "complete", "admin"] as const) {
      const b = await person(kind);
      const request = () => b.toRequest("/account/favorite?x=1");
      const row = {
        login: await outcome(requireLogin(request(), ctx())),
        authFull: await outcome(requireAuthFull(request(), ctx())),
        admin: await outcome(requireAdmin(request(), ctx())),
        setup: await outcome(requireAccountSetup(request(), ctx())),
      };
      table[kind] = Object.fromEntries(
        Object.entries(row).map(([k, v]) => [k, v.includes("@") ? "pass" : v]),
      );
    }
    const toSignIn = "redirect /signin?redirect=%2Faccount%2Ffavorite%3Fx%3D1";
    // Completing the profile comes back to the page afterwards.
    const toSetup = "redirect /account/edit?redirect=%2Faccount%2Ffavorite%3Fx%3D1";
    expect(table).toEqual({
      guest: { login: toSignIn, authFull: toSignIn, admin: toSignIn, setup: toSignIn },
      unverified: {
        login: "pass",
        authFull: "redirect /mail_not_confirm",
        admin: "status 404",
        setup: toSetup,
      },
      user: {
        login: "pass",
        authFull: "pass",
        admin: "status 404",
        setup: toSetup,
      },
      complete: { login: "pass", authFull: "pass", admin: "status 404", setup: "pass" },
      admin: { login: "pass", authFull: "pass", admin: "pass", setup: "pass" },
    });
  });

  it("sends a verified user without an account record to /account/edit, except on the exempt pages", async () => {
    const user = await person("user");
    const redirectOf = async (path: string, b = user) => {
      try {
        await accountSetupRedirect(b.toRequest(path), ctx());
        return null;
      } catch (thrown) {
        return (thrown as Response).headers.get("location");
      }
    };
    expect(await redirectOf("/")).toBe("/account/edit");
    expect(await redirectOf("/salons/search.data")).toBe(
      "/account/edit?redirect=%2Fsalons%2Fsearch",
    );
    expect(await redirectOf("/account/edit")).toBeNull();
    expect(await redirectOf("/finish_sign_up")).toBeNull();
    expect(await redirectOf("/", await person("complete"))).toBeNull();
    expect(await redirectOf("/", await person("guest"))).toBeNull();
  });

  it("creates the first admin with admin:create, or promotes an existing user", async () => {
    const email = uniqueEmail("boss");
    const created = await createAdmin(database.db, env.accounts, { email });
    expect(created).toMatchObject({ created: true });
    const b = browser(env.app);
    b.keep(
      await signInWithPassword(
        env.accounts,
        { email, password: created.generatedPassword ?? "" },
        b.toRequest("/signin"),
      ),
    );
    expect(await outcome(requireAdmin(b.toRequest("/admin"), ctx()))).toBe(email);
    expect(await createAdmin(database.db, env.accounts, { email })).toMatchObject({
      created: false,
      generatedPassword: null,
    });
  });
});

describe("/api/accounts/ and /api/auth", () => {
  it("answers 401 JSON without a valid bearer token", async () => {
    const b = browser(env.app);
    const none = await b.request("/api/accounts/");
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: "unauthorized" } });
    const bad = await b.request("/api/accounts/", { headers: { authorization: "Bearer nope" } });
    expect(bad.status).toBe(401);
  });

  it("answers { data: account } for the bearer token of a sign-in, 404 before the profile exists", async () => {
    const email = uniqueEmail();
    const api = browser(env.app);
    const signIn = await signUpThroughApi(api, email, "secret1");
    expect(signIn.status).toBe(200);
    const token = signIn.headers.get("set-auth-token");
    expect(token).toBeTruthy();
    const client = browser(env.app); // no cookies: the token alone
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    expect((await client.request("/api/accounts/", { headers })).status).toBe(404);
    const { id } = await requireLogin(api.toRequest("/"), ctx());
    await saveProfile(database.db, id, {
      name: "佐藤 一郎",
      nameKana: "サトウ イチロウ",
      phone: "0312345678",
      gender: "male",
      birthDate: "1990-04-01",
    });
    const response = await client.request("/api/accounts/", { headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      data: { email, name: "佐藤 一郎", phone: "0312345678", completed: true, role: "user" },
    });
  });

  it("serves the password policy as JSON", async () => {
    const response = await browser(env.app).request("/api/auth/password-policy");
    expect(await response.json()).toEqual({
      minLength: 6,
      maxLength: 128,
      requireLowercase: false,
      requireUppercase: false,
      requireNumeric: false,
      requireNonAlphanumeric: false,
    });
  });

  it("sets httpOnly, SameSite=Lax session cookies, Secure in production", async () => {
    const signUp = (app: typeof env.app) =>
      signUpThroughApi(browser(app), uniqueEmail(), "secret1");
    const dev = (await signUp(env.app)).headers.get("set-cookie") ?? "";
    expect(dev).toMatch(/HttpOnly/i);
    expect(dev).toMatch(/SameSite=Lax/i);
    expect(dev).not.toMatch(/Secure/i);
    const production = createAccountsApp(database, {
      NODE_ENV: "production",
      BETTER_AUTH_SECRET: "p".repeat(40),
    });
    const cookie = (await signUp(production.app)).headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it("rejects form posts from another site, for /api/auth and for pages", async () => {
    for (const path of ["/api/auth/sign-in/email", "/signin"]) {
      const response = await env.app.request(`http://localhost:3000${path}`, {
        method: "POST",
        headers: {
          origin: "https://evil.example",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "email=a%40example.jp&password=secret1",
      });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("別のサイトから送信されたため");
    }
  });
});

describe("rate limiting (too-many-requests)", () => {
  it("limits attempts per account across addresses and per address across accounts", async () => {
    const limited = createAccountsApp(database, {
      RATE_LIMIT_PER_ACCOUNT: "2",
      RATE_LIMIT_PER_IP: "3",
    });
    const email = uniqueEmail("target");
    const attempt = async (address: string, ip: string) => {
      try {
        await signInWithPassword(
          limited.accounts,
          { email: address, password: "wrong99" },
          browser(limited.app, ip).toRequest("/signin"),
        );
      } catch (error) {
        return (error as AuthError).code;
      }
    };
    expect(await attempt(email, "198.51.100.1")).toBe("invalid-credential");
    expect(await attempt(email, "198.51.100.2")).toBe("invalid-credential");
    expect(await attempt(email, "198.51.100.3")).toBe("too-many-requests");

    const ip = "198.51.100.9";
    for (let i = 0; i < 3; i++) expect(await attempt(uniqueEmail(), ip)).toBe("invalid-credential");
    expect(await attempt(uniqueEmail(), ip)).toBe("too-many-requests");
  });

  it("answers 429 on the /api/auth endpoints, counted in the database shared by app servers", async () => {
    const settings = { RATE_LIMIT_PER_IP: "2" };
    const first = createAccountsApp(database, settings);
    const second = createAccountsApp(database, settings);
    const ip = "198.51.100.77";
    const post = (app: typeof first.app) =>
      browser(app, ip).request("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: uniqueEmail(), password: "wrong99" }),
      });
    expect((await post(first.app)).status).toBe(401);
    expect((await post(second.app)).status).toBe(401);
    expect((await post(first.app)).status).toBe(429);
  });

  it("restarts the window once it has passed (database store)", async () => {
    // The store's clock, moved by hand (it starts at the real time so that
    // the store's cleanup of expired rows keeps to the other tests' rows).
    const start = Date.now();
    let now = new Date(start);
    const store = databaseRateLimitStore(database.db, () => now);
    const rule = { window: 1, max: 1 };
    expect((await store.consume("window-test", rule)).allowed).toBe(true);
    now = new Date(start + 999);
    expect(await store.consume("window-test", rule)).toMatchObject({
      allowed: false,
      retryAfter: 1,
    });
    now = new Date(start + 1000);
    expect((await store.consume("window-test", rule)).allowed).toBe(true);
    expect((await store.consume("window-test", rule)).allowed).toBe(false);
  });

  it("counts in Redis when REDIS_URL is set", async () => {
    const server = await startRedisServer();
    try {
      const redis = await server.client();
      const store = redisRateLimitStore(redis);
      const rule = { window: 60, max: 2 };
      expect((await store.consume("k", rule)).allowed).toBe(true);
      expect((await store.consume("k", rule)).allowed).toBe(true);
      const third = await store.consume("k", rule);
      expect(third.allowed).toBe(false);
      expect(third.retryAfter).toBeGreaterThan(0);
      // A second client (another app server) sees the same counter.
      const other = redisRateLimitStore(await server.client());
      expect((await other.consume("k", rule)).allowed).toBe(false);
      // The server closes the store on shutdown, which ends its connection.
      await store.close();
      expect(redis.status).toBe("end");
    } finally {
      server.stop();
    }
  });
});
