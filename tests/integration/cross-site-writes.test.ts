import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  browser,
  createAccountsApp,
  ORIGIN,
  signUpThroughApi,
  uniqueEmail,
} from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

// Issue 38 §4.7: JSON writes authenticated by the session cookie took a
// foreign or missing Origin. They now need the rule page forms need
// (server/http/cross-site.ts); bearer-token calls and reads are unaffected.

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;
let cookie: string;
let token: string;

beforeAll(async () => {
  env = createAccountsApp(database);
  const b = browser(env.app);
  const signedIn = await signUpThroughApi(b, uniqueEmail("csrf"), "secret1");
  cookie = b.jar.header();
  token = signedIn.headers.get("set-auth-token") ?? "";
  expect(cookie).toContain("session_token");
  expect(token).not.toBe("");
});

/** A request as a browser (or a client) sends it, with exactly these headers. */
const send = (method: string, path: string, headers: Record<string, string>) =>
  env.app.request(`${ORIGIN}${path}`, {
    method,
    headers: { "x-forwarded-for": "203.0.113.77", ...headers },
    ...(method === "GET" || method === "HEAD" ? {} : { body: "{}" }),
  });

const json = { "content-type": "application/json" };
const favorite = () => `/api/favorites/${randomUUID()}`;

describe("JSON writes carried by the session cookie", () => {
  it("are refused from another site or without an Origin, with a Japanese API error", async () => {
    const cases: [string, string, Record<string, string>][] = [
      ["PUT", favorite(), { origin: "https://evil.example" }],
      ["PUT", favorite(), {}],
      ["DELETE", favorite(), { origin: "https://evil.example" }],
      ["DELETE", favorite(), { "sec-fetch-site": "cross-site" }],
      ["POST", "/api/auth/sign-out", {}],
      ["POST", "/api/auth/sign-out", { origin: "null" }],
    ];
    for (const [method, path, headers] of cases) {
      const response = await send(method, path, { ...json, cookie, ...headers });
      expect(response.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("cross_site");
      expect(body.error.message).toContain("別のサイトから送信されたため");
    }
  });

  it("pass when the Origin or Sec-Fetch-Site says the site sent them", async () => {
    const sameSite: Record<string, string>[] = [
      { origin: ORIGIN },
      { "sec-fetch-site": "same-origin" },
    ];
    for (const headers of sameSite) {
      // An unknown salon: past the check, answered by the route.
      const response = await send("PUT", favorite(), { ...json, cookie, ...headers });
      expect(response.status).toBe(404);
    }
  });

  it("leave bearer-token calls, reads and cookieless calls as they were", async () => {
    const bearer = await send("PUT", favorite(), { ...json, authorization: `Bearer ${token}` });
    expect(bearer.status).toBe(404);
    // A client that keeps the cookie too but authenticates by its token.
    const both = await send("PUT", favorite(), {
      ...json,
      cookie,
      authorization: `Bearer ${token}`,
    });
    expect(both.status).toBe(404);
    const read = await send("GET", "/api/favorites", { cookie, origin: "https://evil.example" });
    expect(read.status).toBe(200);
    // No cookie: nothing a browser adds on its own, so nothing to forge.
    const anonymous = await send("POST", "/api/auth/sign-in/email", json);
    expect(anonymous.status).toBe(400);
  });
});
