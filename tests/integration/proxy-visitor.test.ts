import { beforeAll, describe, expect, it } from "vitest";
import { lastMailLink, nextIp, uniqueEmail } from "../support/accounts";
import { createFullApp } from "../support/full-app";
import { withTestDatabase } from "../support/test-database";

// Issue 39 §1: behind a TLS proxy the browser posts from https://…, and the
// app, which Node serves over plain http, must see the request as the
// visitor made it — only when the proxy is trusted (decision 0069). The
// whole app (Hono and every route) is asked at the address the proxy
// connects to, as the proxy does.

const database = withTestDatabase();
const PUBLIC = "https://salon.example.jp";
const INTERNAL = "http://10.0.0.5:3000";
const PROXY_PEER = "10.0.0.2";
const PASSWORD = "secret1-Proxy";
const production = {
  NODE_ENV: "production",
  BETTER_AUTH_SECRET: "a-production-secret-that-is-long-enough-0069",
  PUBLIC_URL: PUBLIC,
  RATE_LIMIT_PER_ACCOUNT: "1000",
};

type App = Awaited<ReturnType<typeof createFullApp>>["app"];
let byHops: App;
let byAddress: App;
let untrusted: App;
let member: string;

/** A request as the proxy passes it on: from `peer`, to the app's own address. */
function viaProxy(
  app: App,
  path: string,
  headers: Record<string, string>,
  init: RequestInit = {},
  peer = PROXY_PEER,
) {
  return app.request(
    `${INTERNAL}${path}`,
    { redirect: "manual", ...init, headers: { ...headers, ...(init.headers as object) } },
    { incoming: { socket: { remoteAddress: peer } } },
  );
}

/** What nginx or Caddy in front of the app adds for a visitor at `ip` on https. */
const xForwarded = (ip = nextIp()) => ({
  "x-forwarded-for": ip,
  "x-forwarded-proto": "https",
  "x-forwarded-host": "salon.example.jp",
});

/** A browser's form post on the https site. */
const signInForm = (email: string, password = PASSWORD): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: PUBLIC },
  body: new URLSearchParams({ intent: "password", email, password }),
});

beforeAll(async () => {
  byHops = (await createFullApp(database, { ...production, TRUST_PROXY: "1" })).app;
  byAddress = (
    await createFullApp(database, {
      ...production,
      TRUST_PROXY: "10.0.0.0/8",
      PROXY_HEADERS: "forwarded",
    })
  ).app;
  // Production refuses an https PUBLIC_URL without TRUST_PROXY; outside it, the same site untrusted.
  untrusted = (
    await createFullApp(database, {
      PUBLIC_URL: PUBLIC,
      RATE_LIMIT_PER_IP: "2",
      RATE_LIMIT_PER_ACCOUNT: "1000",
    })
  ).app;
  member = uniqueEmail("proxy");
  const signUp = await viaProxy(byHops, "/api/auth/sign-up/email", xForwarded(), {
    method: "POST",
    headers: { "content-type": "application/json", origin: PUBLIC },
    body: JSON.stringify({ email: member, password: PASSWORD, name: "proxy" }),
  });
  expect(signUp.status).toBe(200);
  const verified = await viaProxy(byHops, await lastMailLink(database.db, member), xForwarded());
  expect(verified.status).toBeLessThan(400);
});

describe("behind a trusted TLS proxy", () => {
  it("accepts the sign-in page's form posted from https (X-Forwarded-*), with a Secure session cookie", async () => {
    const response = await viaProxy(byHops, "/signin", xForwarded(), signInForm(member));
    expect(response.status).toBe(302);
    const location = response.headers.get("location") ?? "";
    expect(location.startsWith("http://")).toBe(false);
    const session = response.headers.getSetCookie().find((line) => line.includes("session_token"));
    expect(session).toMatch(/^__Secure-/);
    expect(session).toMatch(/;\s*Secure/i);
  });

  it("accepts it from a listed proxy address saying so in RFC 7239 Forwarded", async () => {
    const forwarded = {
      forwarded: `for=${nextIp()};proto=https;host=salon.example.jp`,
    };
    const response = await viaProxy(byAddress, "/signin", forwarded, signInForm(member));
    expect(response.status).toBe(302);
    expect(response.headers.get("set-cookie")).toMatch(/__Secure-.*session_token/);
  });

  it("gives canonical links and redirects on the https site", async () => {
    const page = await viaProxy(byHops, "/signin", xForwarded());
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<link rel="canonical" href="${PUBLIC}/signin"`);
    // A guest sent to sign in stays on the site they asked at.
    const guarded = await viaProxy(byHops, "/account/favorite", xForwarded());
    expect(guarded.status).toBe(302);
    const location = guarded.headers.get("location") ?? "";
    expect(new URL(location, PUBLIC).origin).toBe(PUBLIC);
  });

  it("lets the cross-site check see the host the visitor asked at", async () => {
    // A second name the proxy serves: the origin the visitor was at is the request's.
    const other = { ...xForwarded(), "x-forwarded-host": "www.salon.example.jp" };
    const response = await viaProxy(byHops, "/signin", other, {
      ...signInForm(member),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://www.salon.example.jp",
      },
    });
    expect(response.status).toBe(302);
  });
});

describe("without trust, forwarded headers change nothing", () => {
  it("leaves the request on http: a forged X-Forwarded-Proto does not pass React Router's origin check", async () => {
    const response = await viaProxy(untrusted, "/signin", xForwarded(), signInForm(member));
    expect(response.status).toBe(400);
  });

  it("ignores Forwarded from a peer that is not a listed proxy", async () => {
    const forged = { forwarded: `for=${nextIp()};proto=https;host=salon.example.jp` };
    const response = await viaProxy(
      byAddress,
      "/signin",
      forged,
      signInForm(member),
      "203.0.113.200",
    );
    expect(response.status).toBe(400);
  });

  it("counts attempts under the socket's address whatever X-Forwarded-For says", async () => {
    // RATE_LIMIT_PER_IP is 2: a new forged address each time must not reset it.
    const attempt = () =>
      viaProxy(
        untrusted,
        "/signin",
        { "x-forwarded-for": nextIp() },
        {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: INTERNAL,
          },
          body: new URLSearchParams({ email: uniqueEmail("forged"), password: "wrong-1" }),
        },
        "198.51.100.250",
      );
    const answers = [await attempt(), await attempt(), await attempt()];
    // Refused sign-ins (the form again), then the limit.
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 429]);
  });
});
