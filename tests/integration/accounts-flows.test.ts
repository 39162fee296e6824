import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { authErrorMessages } from "../../common/auth-errors";
import { AuthError } from "../../server/accounts/auth-error";
import { getCurrentUser } from "../../server/accounts/current-user";
import {
  changePassword,
  requestEmailChange,
  requestPasswordReset,
  resendVerificationMail,
  resetPassword,
  sendSignInLink,
  signInWithPassword,
  signOut,
  signUpWithPassword,
} from "../../server/accounts/identity";
import { users } from "../../server/db/schema";
import {
  browser,
  createAccountsApp,
  lastMailLink,
  outboxFor,
  uniqueEmail,
} from "../support/accounts";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createAccountsApp>;

beforeAll(async () => {
  env = createAccountsApp(database, { PASSWORD_REQUIRE_NUMERIC: "true" });
});

const current = (request: Request) =>
  getCurrentUser(request, { db: database.db, accounts: env.accounts });

async function failure(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (error instanceof AuthError) return error.code;
    throw error;
  }
  throw new Error("expected an AuthError");
}

/** A signed-up user and a browser signed in as them (sign-up itself signs nobody in). */
async function signedUp(password = "secret1") {
  const email = uniqueEmail();
  const b = browser(env.app);
  expect(
    (
      await signUpWithPassword(env.accounts, { email, password }, b.toRequest("/signup"))
    ).getSetCookie(),
  ).toEqual([]);
  b.keep(await signInWithPassword(env.accounts, { email, password }, b.toRequest("/signin")));
  return { email, password, b };
}

describe("sign-up", () => {
  it("answers a registered address as a new one, and keeps its password", async () => {
    const { email, password } = await signedUp();
    const again = await signUpWithPassword(
      env.accounts,
      { email, password: "other12" },
      browser(env.app).toRequest("/signup"),
    );
    expect(again.getSetCookie()).toEqual([]);
    const b = browser(env.app);
    expect(
      await failure(
        signInWithPassword(env.accounts, { email, password: "other12" }, b.toRequest("/signin")),
      ),
    ).toBe("invalid-credential");
    b.keep(await signInWithPassword(env.accounts, { email, password }, b.toRequest("/signin")));
  });

  it("enforces the server's password policy, also on the raw /api/auth endpoint", async () => {
    const code = await failure(
      signUpWithPassword(
        env.accounts,
        { email: uniqueEmail(), password: "lettersonly" },
        browser(env.app).toRequest("/signup"),
      ),
    );
    expect(code).toBe("password-does-not-meet-requirements");
    const response = await browser(env.app).request("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: uniqueEmail(), password: "lettersonly", name: "" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" });
  });

  it("resends the verification mail", async () => {
    const { email, b } = await signedUp();
    await resendVerificationMail(env.accounts, { email }, b.toRequest("/mail_not_confirm"));
    expect(await outboxFor(database.db, email)).toHaveLength(2);
  });

  it("answers an expired verification link with expired-action-code, a forged one with invalid-action-code", async () => {
    const { email, b } = await signedUp();
    const secret = new TextEncoder().encode(env.config.BETTER_AUTH_SECRET);
    const expired = await new SignJWT({ email })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(secret);
    const callback = encodeURIComponent("/finish_sign_up?verified=1");
    const late = await b.request(`/api/auth/verify-email?token=${expired}&callbackURL=${callback}`);
    expect(late.headers.get("location")).toContain("error=TOKEN_EXPIRED");
    const forged = await b.request(
      `/api/auth/verify-email?token=abc.def.ghi&callbackURL=${callback}`,
    );
    expect(forged.headers.get("location")).toContain("error=INVALID_TOKEN");
  });
});

describe("sign-in", () => {
  it("gives one message for a wrong password and for an unknown address", async () => {
    const { email } = await signedUp();
    const wrong = await failure(
      signInWithPassword(
        env.accounts,
        { email, password: "wrong99" },
        browser(env.app).toRequest("/signin"),
      ),
    );
    const unknown = await failure(
      signInWithPassword(
        env.accounts,
        { email: uniqueEmail(), password: "wrong99" },
        browser(env.app).toRequest("/signin"),
      ),
    );
    expect(wrong).toBe("invalid-credential");
    expect(unknown).toBe("invalid-credential");
    expect(authErrorMessages[wrong]).toBe(authErrorMessages["user-not-found"]);
  });

  it("signs a disabled user out on the next request and refuses a new sign-in with user-disabled", async () => {
    const { email, password, b } = await signedUp();
    expect(await current(b.toRequest("/"))).not.toBeNull();
    await database.db.update(users).set({ banned: true }).where(eq(users.email, email));
    expect(await current(b.toRequest("/"))).toBeNull();
    const code = await failure(
      signInWithPassword(env.accounts, { email, password }, browser(env.app).toRequest("/signin")),
    );
    expect(code).toBe("user-disabled");
  });

  it("signs out this browser, or every browser", async () => {
    const { email, password, b } = await signedUp();
    const other = browser(env.app);
    other.keep(
      await signInWithPassword(env.accounts, { email, password }, other.toRequest("/signin")),
    );
    const third = browser(env.app);
    third.keep(
      await signInWithPassword(env.accounts, { email, password }, third.toRequest("/signin")),
    );

    b.keep(await signOut(env.accounts, b.toRequest("/signout", { method: "POST" })));
    expect(await current(b.toRequest("/"))).toBeNull();
    expect(await current(other.toRequest("/"))).not.toBeNull();

    other.keep(await signOut(env.accounts, other.toRequest("/signout", { method: "POST" }), true));
    expect(await current(third.toRequest("/"))).toBeNull();
  });

  it("signs in by email link, and sends a new user to the profile form", async () => {
    const { email } = await signedUp();
    const b = browser(env.app);
    await sendSignInLink(
      env.accounts,
      { email, redirectTo: "/account/edit" },
      b.toRequest("/signin"),
    );
    const [mail] = (await outboxFor(database.db, email)).filter((m) =>
      m.subject.includes("ログイン用リンク"),
    );
    expect(mail?.html).toContain("magic-link/verify");
    const response = await b.request(await lastMailLink(database.db, email));
    expect(response.headers.get("location")).toMatch(/^(http:\/\/localhost:3000)?\/account\/edit$/);
    expect((await current(b.toRequest("/")))?.email).toBe(email);

    const stranger = uniqueEmail("new");
    const nb = browser(env.app);
    await sendSignInLink(env.accounts, { email: stranger }, nb.toRequest("/signin"));
    const first = await nb.request(await lastMailLink(database.db, stranger));
    expect(first.headers.get("location")).toMatch(/^(http:\/\/localhost:3000)?\/account\/edit$/);
    expect(await current(nb.toRequest("/"))).toMatchObject({
      email: stranger,
      emailVerified: true,
    });
    // The link works once.
    const again = await browser(env.app).request(await lastMailLink(database.db, stranger));
    expect(again.headers.get("location")).toContain("/signin?error=");
  });
});

describe("password reset", () => {
  it("mails a reset link only to a registered address but looks the same either way", async () => {
    const stranger = uniqueEmail("nobody");
    await requestPasswordReset(
      env.accounts,
      { email: stranger },
      browser(env.app).toRequest("/password-reset"),
    );
    expect(await outboxFor(database.db, stranger)).toHaveLength(0);

    const { email } = await signedUp();
    const b = browser(env.app);
    await requestPasswordReset(env.accounts, { email }, b.toRequest("/password-reset"));
    const link = await lastMailLink(database.db, email);
    const landing = await b.request(link);
    const location = new URL(landing.headers.get("location") ?? "", "http://x");
    expect(location.pathname).toBe("/password-reset");
    const token = location.searchParams.get("token") ?? "";

    const weak = await failure(
      resetPassword(env.accounts, { token, password: "nodigits" }, b.toRequest("/password-reset")),
    );
    expect(weak).toBe("password-does-not-meet-requirements");
    await resetPassword(
      env.accounts,
      { token, password: "newpass2" },
      b.toRequest("/password-reset"),
    );
    await signInWithPassword(
      env.accounts,
      { email, password: "newpass2" },
      browser(env.app).toRequest("/signin"),
    );
    const reused = await failure(
      resetPassword(env.accounts, { token, password: "another3" }, b.toRequest("/password-reset")),
    );
    expect(reused).toBe("invalid-action-code");
  });
});

describe("change password and email", () => {
  it("refuses a wrong current password with wrong-password, then changes it and signs out other devices", async () => {
    const { email, password, b } = await signedUp();
    const other = browser(env.app);
    other.keep(
      await signInWithPassword(env.accounts, { email, password }, other.toRequest("/signin")),
    );
    const wrong = await failure(
      changePassword(
        env.accounts,
        { currentPassword: "nope123", newPassword: "fresh42" },
        b.toRequest("/x"),
      ),
    );
    expect(wrong).toBe("wrong-password");
    b.keep(
      await changePassword(
        env.accounts,
        { currentPassword: password, newPassword: "fresh42" },
        b.toRequest("/x"),
      ),
    );
    expect(await current(b.toRequest("/"))).not.toBeNull();
    expect(await current(other.toRequest("/"))).toBeNull();
  });

  it("sends the confirmation to the new address and changes the email when it is opened", async () => {
    const { email, password, b } = await signedUp();
    await b.request(await lastMailLink(database.db, email)); // verify first
    const next = uniqueEmail("moved");
    await requestEmailChange(
      env.accounts,
      { email: next, currentPassword: password },
      b.toRequest("/account/edit/change-email"),
    );
    const [mail] = await outboxFor(database.db, next);
    expect(mail?.subject).toContain("新しいメールアドレスの確認");
    expect(mail?.text).toContain("メールアドレスの変更を完了する");
    expect((await current(b.toRequest("/")))?.email).toBe(email);
    const response = await b.request(await lastMailLink(database.db, next));
    expect(response.headers.get("location")).toBe("/account/edit/change-email/thanks");
    expect(await current(b.toRequest("/"))).toMatchObject({ email: next, emailVerified: true });
    // The old address is told, in case the change was not its owner's.
    const notices = (await outboxFor(database.db, email)).filter((m) =>
      m.subject.includes("メールアドレス変更のお知らせ"),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain("ご登録のメールアドレスが変更されました");
  });

  it("does not tell the old address before the new one's link is opened", async () => {
    const { email, password, b } = await signedUp();
    await b.request(await lastMailLink(database.db, email));
    await requestEmailChange(
      env.accounts,
      { email: uniqueEmail("pending"), currentPassword: password },
      b.toRequest("/account/edit/change-email"),
    );
    const notices = (await outboxFor(database.db, email)).filter((m) =>
      m.subject.includes("メールアドレス変更のお知らせ"),
    );
    expect(notices).toHaveLength(0);
  });
});
