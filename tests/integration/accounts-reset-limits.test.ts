import { beforeAll, describe, expect, it } from "vitest";
import type { AuthError } from "../../server/accounts/auth-error";
import {
  requestPasswordReset,
  sendSignInLink,
  signInWithPassword,
  signUpWithPassword,
} from "../../server/accounts/identity";
import { RESET_LINK_SECONDS, resetMailAllowed } from "../../server/accounts/password-reset-mail";
import { databaseRateLimitStore } from "../../server/accounts/rate-limit";
import { renderMail } from "../../server/mail/templates";
import { browser, createAccountsApp, outboxFor, uniqueEmail } from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

// Issue 38 §4.4: strangers could block a person's password reset (five
// requests from five addresses refused the owner's own for the window) and
// flood their mailbox with five reset mails a minute.

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;

beforeAll(() => {
  // The defaults: 5 requests per address in the window, 30 per client address.
  env = createAccountsApp(database);
});

type Browser = ReturnType<typeof browser>;
const password = "secret1";
const resetSubject = renderMail("resetPassword", "x@example.jp", "https://x").subject;

async function account() {
  const email = uniqueEmail("reset");
  await signUpWithPassword(env.accounts, { email, password }, browser(env.app).toRequest("/s"));
  return email;
}

/** A browser where the account signed in (it holds the account's device cookie). */
async function knownBrowser(email: string) {
  const b = browser(env.app);
  b.keep(await signInWithPassword(env.accounts, { email, password }, b.toRequest("/signin")));
  return b;
}

/** The page form's request: "ok" (the form's usual answer), or the error code. */
const formReset = (b: Browser, email: string) =>
  requestPasswordReset(env.accounts, { email }, b.toRequest("/password-reset"))
    .then(() => "ok")
    .catch((error: AuthError) => error.code);

/** POST /api/auth/request-password-reset: the status and the body. */
async function apiReset(b: Browser, email: string) {
  const response = await b.request("/api/auth/request-password-reset", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, redirectTo: "/password-reset" }),
  });
  return { status: response.status, body: await response.text() };
}

const resetMails = async (email: string) =>
  (await outboxFor(database.db, email)).filter((mail) => mail.subject === resetSubject).length;

describe("strangers cannot block a person's password reset", () => {
  it("leaves the owner's known browsers their own requests and mails, on both paths", async () => {
    const email = await account();
    const phone = await knownBrowser(email);
    const laptop = await knownBrowser(email);

    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5; i++) await apiReset(browser(env.app), email);
      // An unknown browser waits for the window, as at sign-in…
      expect(await formReset(browser(env.app), email)).toBe("too-many-requests");
      expect((await apiReset(browser(env.app), email)).status).toBe(429);
      // …the owner's browsers ask, and their mails arrive.
      const before = await resetMails(email);
      expect(await formReset(phone, email)).toBe("ok");
      expect((await apiReset(laptop, email)).status).toBe(200);
      expect(await resetMails(email)).toBe(before + 2);
    }
  });

  it("sends a known browser's reset mail even when strangers spent the address's other mails", async () => {
    const email = await account();
    const phone = await knownBrowser(email);
    // Sign-in links asked by strangers: the sign-up mail and these use up the address's mails.
    for (let i = 0; i < 5; i++) {
      await sendSignInLink(env.accounts, { email }, browser(env.app).toRequest("/signin"));
    }
    expect(await formReset(phone, email)).toBe("ok");
    expect(await resetMails(email)).toBe(1);
  });

  it("mails unknown browsers one reset link an hour per address, answering each the same", async () => {
    const email = await account();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await apiReset(browser(env.app), email));
    const forms = [];
    for (let i = 0; i < 2; i++) forms.push(await formReset(browser(env.app), email));

    expect(await resetMails(email)).toBe(1);
    // The first answer (a mail sent) and the later ones (withheld) are identical,
    // and identical to an unregistered address's.
    const unregistered = await apiReset(browser(env.app), uniqueEmail("nobody"));
    expect(new Set([...answers, unregistered].map((a) => JSON.stringify(a))).size).toBe(1);
    expect(forms).toEqual(["ok", "ok"]);
  });
});

describe("resetMailAllowed", () => {
  it("allows one mail per address per hour from unknown browsers, any from a known device", async () => {
    let now = new Date("2026-11-29T03:00:00Z");
    const store = databaseRateLimitStore(database.db, () => now);
    const email = uniqueEmail("hour");

    expect(await resetMailAllowed(store, email, null)).toBe(true);
    now = new Date(now.getTime() + (RESET_LINK_SECONDS - 1) * 1000);
    // The same address typed otherwise is the same address.
    expect(await resetMailAllowed(store, email.toUpperCase(), null)).toBe(false);
    expect(await resetMailAllowed(store, email, "device-nonce")).toBe(true);
    now = new Date(now.getTime() + 1000);
    expect(await resetMailAllowed(store, email, null)).toBe(true);
  });
});
