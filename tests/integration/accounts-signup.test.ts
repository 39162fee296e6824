import { beforeAll, describe, expect, it } from "vitest";
import * as finishSignUpRoute from "../../app/routes/finish_sign_up";
import * as signUpRoute from "../../app/routes/signup";
import { getCurrentUser } from "../../server/accounts/current-user";
import { signInWithPassword, signUpWithPassword } from "../../server/accounts/identity";
import { browser, lastMailLink, outboxFor, uniqueEmail } from "../support/accounts";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(async () => {
  env = createRouteApp(database, [
    { path: "/signup", module: signUpRoute },
    { path: "/finish_sign_up", module: finishSignUpRoute },
  ]);
});

const current = (request: Request) =>
  getCurrentUser(request, { db: database.db, accounts: env.accounts });

/** A registered address, with the password its owner chose (confirmed unless told otherwise). */
async function registered({ confirmed = true } = {}) {
  const email = uniqueEmail("known");
  await signUpWithPassword(
    env.accounts,
    { email, password: "secret1" },
    browser(env.app).toRequest("/signup", { method: "POST" }),
  );
  if (confirmed) await browser(env.app).request(await lastMailLink(database.db, email));
  return email;
}

/** What a sign-up answer shows: status, cookies, headers and the shape of its body. */
async function answerOf(response: Response, typed = "") {
  const body = await response.text();
  const json = response.headers.get("content-type")?.includes("json")
    ? (JSON.parse(body) as Record<string, unknown>)
    : null;
  const user = (json?.user ?? null) as Record<string, unknown> | null;
  return {
    status: response.status,
    location: response.headers.get("location"),
    cookies: response.headers
      .getSetCookie()
      .map((cookie) => cookie.replace(encodeURIComponent(typed), "<typed>")),
    token: response.headers.get("set-auth-token"),
    headers: [...response.headers.keys()].filter((name) => name !== "x-request-id").sort(),
    keys: json ? Object.keys(json) : null,
    userKeys: user ? Object.keys(user) : null,
    // Every value that is not unique to the request (ids, times, the address typed).
    userValues: user
      ? { ...user, id: typeof user.id, createdAt: "time", updatedAt: "time", email: "typed" }
      : null,
    sessionToken: json?.token ?? null,
  };
}

describe("sign-up and verification", () => {
  it("signs up without signing in, mails a Japanese verification link, and the link signs in", async () => {
    const email = uniqueEmail();
    const b = browser(env.app);
    const headers = await signUpWithPassword(
      env.accounts,
      { email, password: "secret1" },
      b.toRequest("/signup", { method: "POST" }),
    );
    expect(headers.getSetCookie()).toEqual([]);
    expect(await current(b.toRequest("/"))).toBeNull();

    const [mail] = await outboxFor(database.db, email);
    expect(mail?.subject).toContain("メールアドレスの確認");
    expect(mail?.text).toContain("/api/auth/verify-email?token=");
    expect(mail?.html).toContain("<a href=");

    const link = await lastMailLink(database.db, email);
    const response = await b.request(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/finish_sign_up?verified=1");
    expect(await current(b.toRequest("/"))).toMatchObject({
      email,
      emailVerified: true,
      role: "user",
      profile: null,
    });
  });

  it("signs in with the password afterwards", async () => {
    const email = await registered();
    const b = browser(env.app);
    b.keep(
      await signInWithPassword(
        env.accounts,
        { email, password: "secret1" },
        b.toRequest("/signin", { method: "POST" }),
      ),
    );
    expect((await current(b.toRequest("/")))?.email).toBe(email);
  });
});

describe("sign-up does not tell whether an address is registered", () => {
  const apiSignUp = (email: string, password: string) =>
    browser(env.app).request("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email,
        password,
        name: "",
        callbackURL: "/finish_sign_up?verified=1",
      }),
    });

  it("answers POST /api/auth/sign-up/email the same for a registered and a new address", async () => {
    const known = await registered();
    const existing = await answerOf(await apiSignUp(known, "other12"));
    const fresh = await answerOf(await apiSignUp(uniqueEmail("new"), "other12"));
    expect(existing).toEqual(fresh);
    expect(fresh).toMatchObject({ status: 200, cookies: [], token: null, sessionToken: null });
    expect(fresh.userValues).toMatchObject({ emailVerified: false, role: "user", banned: false });
  });

  it("answers the page form the same: the 'check your mail' page, nobody signed in", async () => {
    const known = await registered();
    const post = (email: string) =>
      browser(env.app).request("/signup", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          email,
          password: "other12",
          passwordConfirm: "other12",
        }).toString(),
      });
    const existing = await answerOf(await post(known), known);
    const other = uniqueEmail("new");
    const fresh = await answerOf(await post(other), other);
    expect(existing).toEqual(fresh);
    // No session; only the typed address, for the next page's resend form.
    expect(fresh).toMatchObject({
      status: 302,
      location: "/finish_sign_up",
      cookies: ["signup_email=<typed>; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax"],
    });
  });

  it("resends the link from the 'check your mail' page signed out, in one click", async () => {
    const b = browser(env.app);
    const email = uniqueEmail("resend");
    await b.request("/signup", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: "secret1", passwordConfirm: "secret1" }),
    });
    const page = (await (await b.request("/finish_sign_up")).json()) as {
      loaderData: { email: string };
    };
    expect(page.loaderData.email).toBe(email);
    const resend = await b.request("/finish_sign_up", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: page.loaderData.email }),
    });
    expect(resend.headers.get("location")).toBe("/finish_resend_email");
    const mails = await outboxFor(database.db, email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      "【Salon Navi】メールアドレスの確認をお願いします",
      "【Salon Navi】メールアドレスの確認をお願いします",
    ]);
    // A registered, verified address gets nothing and the same answer.
    const known = await registered();
    await browser(env.app).request(await lastMailLink(database.db, known));
    const count = (await outboxFor(database.db, known)).length;
    const again = await browser(env.app).request("/finish_sign_up", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: known }),
    });
    expect(again.headers.get("location")).toBe("/finish_resend_email");
    expect(await outboxFor(database.db, known)).toHaveLength(count);
  });

  it("mails the owner of a registered address sign-in and reset links, and changes nothing", async () => {
    const known = await registered();
    const before = await outboxFor(database.db, known);
    expect((await apiSignUp(known, "other12")).status).toBe(200);
    const mails = await outboxFor(database.db, known);
    expect(mails).toHaveLength(before.length + 1);
    const mail = mails.at(-1);
    expect(mail?.subject).toBe("【Salon Navi】会員登録のお申し込みについて");
    expect(mail?.text).toContain("すでにSalon Naviに登録されています");
    expect(mail?.text).toContain("http://localhost:3000/signin");
    expect(mail?.text).toContain("http://localhost:3000/password-reset");
    expect(mail?.html).toContain('<a href="http://localhost:3000/password-reset">');
    expect(mail?.text).not.toContain("verify-email");

    // The attempt's password does not work; the owner's still does.
    const b = browser(env.app);
    await expect(
      signInWithPassword(env.accounts, { email: known, password: "other12" }, b.toRequest("/s")),
    ).rejects.toMatchObject({ code: "invalid-credential" });
    b.keep(
      await signInWithPassword(
        env.accounts,
        { email: known, password: "secret1" },
        b.toRequest("/s"),
      ),
    );
    expect((await current(b.toRequest("/")))?.email).toBe(known);
  });

  it("sends a new confirmation link, not a warning, to an address registered but never confirmed", async () => {
    const unconfirmed = await registered({ confirmed: false });
    const before = await outboxFor(database.db, unconfirmed);
    const existing = await answerOf(await apiSignUp(unconfirmed, "other12"));
    const fresh = await answerOf(await apiSignUp(uniqueEmail("new"), "other12"));
    expect(existing).toEqual(fresh);
    const mails = await outboxFor(database.db, unconfirmed);
    expect(mails).toHaveLength(before.length + 1);
    expect(mails.at(-1)?.text).toContain("verify-email");
    expect(mails.at(-1)?.subject).not.toBe("【Salon Navi】会員登録のお申し込みについて");
    // The new link confirms the address, and the owner's own password still signs in.
    const b = browser(env.app);
    b.keep((await b.request(await lastMailLink(database.db, unconfirmed))).headers);
    expect((await current(b.toRequest("/")))?.emailVerified).toBe(true);
    await expect(
      signInWithPassword(
        env.accounts,
        { email: unconfirmed, password: "other12" },
        b.toRequest("/s"),
      ),
    ).rejects.toMatchObject({ code: "invalid-credential" });
  });
});
