import { beforeAll, describe, expect, it } from "vitest";
import type { AuthError } from "../../server/accounts/auth-error";
import { DEVICE_COOKIE, deviceCookieValue } from "../../server/accounts/device-cookie";
import { signInWithPassword, signUpWithPassword } from "../../server/accounts/identity";
import { browser, createAccountsApp, lastMailLink, uniqueEmail } from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;

beforeAll(() => {
  // The defaults: 5 attempts per account in the window, 20 per address.
  env = createAccountsApp(database);
});

type Browser = ReturnType<typeof browser>;
const password = "secret1";

async function account() {
  const email = uniqueEmail("lock");
  await signUpWithPassword(env.accounts, { email, password }, browser(env.app).toRequest("/s"));
  return email;
}

/** The page form's sign-in: "ok", or the error code. */
const formSignIn = (b: Browser, email: string, pass: string) =>
  signInWithPassword(env.accounts, { email, password: pass }, b.toRequest("/signin"))
    .then((headers) => {
      b.keep(headers);
      return "ok";
    })
    .catch((error: AuthError) => error.code);

/** POST /api/auth/sign-in/email: the status. */
const apiSignIn = async (b: Browser, email: string, pass: string) =>
  (
    await b.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: pass }),
    })
  ).status;

/** Wrong passwords from five strangers' addresses (one each). */
async function strangersGuess(email: string, times = 5) {
  for (let i = 0; i < times; i++) await apiSignIn(browser(env.app), email, "guess123");
}

describe("strangers cannot lock an owner out of a browser they signed in with (device cookie)", () => {
  it("sets a signed, httpOnly device cookie on a successful sign-in, form or API", async () => {
    const email = await account();
    const form = await signInWithPassword(
      env.accounts,
      { email, password },
      browser(env.app).toRequest("/signin"),
    );
    const api = await browser(env.app).request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    for (const headers of [form, api.headers]) {
      const cookie = headers.getSetCookie().find((line) => line.startsWith(`${DEVICE_COOKIE}=`));
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Max-Age=31536000/);
      // Signed, and holds no address.
      expect(cookie).not.toContain(email.split("@")[0]);
      expect(cookie?.split(";")[0]?.split(".")).toHaveLength(3);
    }
    const wrong = await browser(env.app).request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "guess123" }),
    });
    expect(wrong.headers.getSetCookie().join()).not.toContain(`${DEVICE_COOKIE}=`);
  });

  it("sets it when the verification link signs in", async () => {
    const email = uniqueEmail("lock");
    const b = browser(env.app);
    await signUpWithPassword(env.accounts, { email, password }, b.toRequest("/s"));
    await b.request(await lastMailLink(database.db, email));
    expect(b.jar.has(DEVICE_COOKIE)).toBe(true);
  });

  it("keeps the owner's known browsers open after five strangers' wrong passwords, repeatably", async () => {
    const email = await account();
    const phone = browser(env.app);
    const laptop = browser(env.app);
    expect(await formSignIn(phone, email, password)).toBe("ok");
    expect(await apiSignIn(laptop, email, password)).toBe(200);

    for (let round = 0; round < 2; round++) {
      await strangersGuess(email);
      // An unknown browser is held back with the right password…
      expect(await formSignIn(browser(env.app), email, password)).toBe("too-many-requests");
      expect(await apiSignIn(browser(env.app), email, password)).toBe(429);
      // …the owner's own browsers are not, on either path.
      expect(await formSignIn(phone, email, password)).toBe("ok");
      expect(await apiSignIn(laptop, email, password)).toBe(200);
    }
  });

  it("gives each known browser its own allowance of wrong passwords", async () => {
    const email = await account();
    const phone = browser(env.app);
    const laptop = browser(env.app);
    expect(await formSignIn(phone, email, password)).toBe("ok");
    expect(await formSignIn(laptop, email, password)).toBe("ok");
    const tries: string[] = [];
    for (let i = 0; i < 6; i++) tries.push(await formSignIn(phone, email, "typo999"));
    expect(tries.slice(0, 5)).toEqual(Array(5).fill("invalid-credential"));
    expect(tries[5]).toBe("too-many-requests");
    expect(await formSignIn(phone, email, password)).toBe("too-many-requests");
    // The other browser, and unknown ones, still have theirs.
    expect(await formSignIn(laptop, email, password)).toBe("ok");
    expect(await apiSignIn(browser(env.app), email, password)).toBe(200);
  });

  it("ignores a forged device cookie, and another account's", async () => {
    const email = await account();
    const other = await account();
    const mine = browser(env.app);
    expect(await formSignIn(mine, email, password)).toBe("ok");
    await strangersGuess(other);

    // A genuine cookie of `email` does nothing for `other`.
    expect(await formSignIn(mine, other, password)).toBe("too-many-requests");
    // A cookie signed with another secret, or an altered one, is a stranger's.
    const forged = browser(env.app);
    forged.keep(
      new Headers([
        ["set-cookie", `${DEVICE_COOKIE}=${deviceCookieValue("x".repeat(40), other)}; Path=/`],
      ]),
    );
    expect(await apiSignIn(forged, other, password)).toBe(429);
    const genuine = deviceCookieValue(env.config.BETTER_AUTH_SECRET, other);
    const altered = browser(env.app);
    // One character changed (the nonce is random: "A" may already be its first).
    const changed = `${genuine.startsWith("A") ? "B" : "A"}${genuine.slice(1)}`;
    altered.keep(new Headers([["set-cookie", `${DEVICE_COOKIE}=${changed}; Path=/`]]));
    expect(await formSignIn(altered, other, password)).toBe("too-many-requests");
    // The same cookie unaltered is a known device of `other` (as if issued to it before).
    const known = browser(env.app);
    known.keep(new Headers([["set-cookie", `${DEVICE_COOKIE}=${genuine}; Path=/`]]));
    expect(await formSignIn(known, other, password)).toBe("ok");
  });
});
