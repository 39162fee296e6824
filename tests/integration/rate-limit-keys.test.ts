import { afterAll, describe, expect, it } from "vitest";
import { rateLimits } from "../../server/db/schema";
import { withinAddressLimit } from "../../server/invitations/invitations.server";
import { browser, createAccountsApp, uniqueEmail } from "../support/accounts";
import { startRedisServer } from "../support/redis-server";
import { withTestDatabase } from "../support/test-database";

// Issue 38 §4.5: the rate-limit stores held raw e-mail addresses in their
// keys (`sign-in:account:<address>`, `mail:to:<address>`, …). Every key is
// now an HMAC under a server secret (decision 0067).

const database = withTestDatabase();
const redisServer = startRedisServer();

afterAll(async () => (await redisServer).stop());

const json = { "content-type": "application/json" };

/**
 * Drives every kind of counter that names an address: sign-up, wrong
 * passwords until refused, a reset request, a sign-in link, an invitation;
 * answers the statuses of the wrong passwords.
 */
async function countOnEveryKey(env: ReturnType<typeof createAccountsApp>, email: string) {
  const b = browser(env.app);
  const post = (path: string, body: object) =>
    b.request(`/api/auth${path}`, { method: "POST", headers: json, body: JSON.stringify(body) });
  await post("/sign-up/email", { email, password: "secret1", name: "" });
  const guesses = [];
  for (let i = 0; i < 6; i++)
    guesses.push((await post("/sign-in/email", { email, password: "guess123" })).status);
  await post("/request-password-reset", { email, redirectTo: "/password-reset" });
  await post("/sign-in/magic-link", { email, callbackURL: "/" });
  await withinAddressLimit(env.accounts.limits, "salon-1", email);
  return { guesses, ip: b.ip };
}

function expectNoneNames(keys: string[], email: string, ip: string) {
  expect(keys.length).toBeGreaterThan(5);
  const [local = ""] = email.split("@");
  for (const key of keys) {
    expect(key).not.toContain(local);
    expect(key).not.toContain(ip);
  }
}

describe("rate-limit keys hold no address", () => {
  it("in the database store, and the limits still hold", async () => {
    const env = createAccountsApp(database);
    const email = uniqueEmail("keys");
    const { guesses, ip } = await countOnEveryKey(env, email);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);

    const keys = (await database.db.select({ key: rateLimits.key }).from(rateLimits)).map(
      (row) => row.key,
    );
    expectNoneNames(keys, email, ip);
  });

  it("in Redis, and the limits still hold", async () => {
    const server = await redisServer;
    const env = createAccountsApp(database, { REDIS_URL: server.url });
    try {
      const email = uniqueEmail("keys");
      const { guesses, ip } = await countOnEveryKey(env, email);
      expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);

      const keys = await (await server.client()).keys("*");
      expectNoneNames(keys, email, ip);
    } finally {
      await env.accounts.close();
    }
  });
});
