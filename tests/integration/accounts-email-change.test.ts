import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as changeEmailRoute from "../../app/routes/account.edit.change-email";
import { getCurrentUser } from "../../server/accounts/current-user";
import { requestPasswordReset, resetPassword } from "../../server/accounts/identity";
import { authAccounts, sessions, users } from "../../server/db/schema";
import {
  browser,
  lastMailLink,
  outboxFor,
  signUpThroughApi,
  uniqueEmail,
} from "../support/accounts";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(() => {
  env = createRouteApp(database, [
    { path: "/account/edit/change-email", module: changeEmailRoute },
  ]);
});

const password = "secret1";
const current = (b: ReturnType<typeof browser>) =>
  getCurrentUser(b.toRequest("/"), { db: database.db, accounts: env.accounts });

/** A verified member signed in on a new browser. */
async function member() {
  const email = uniqueEmail("mover");
  const b = browser(env.app);
  expect((await signUpThroughApi(b, email, password)).status).toBe(200);
  await b.request(await lastMailLink(database.db, email));
  return { email, b };
}

const formPost = (b: ReturnType<typeof browser>, fields: Record<string, string>) =>
  b.request("/account/edit/change-email", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

const apiPost = (b: ReturnType<typeof browser>, body: Record<string, string | undefined>) =>
  b.request("/api/auth/change-email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const requestedNotices = async (email: string) =>
  (await outboxFor(database.db, email)).filter((mail) =>
    mail.subject.includes("メールアドレス変更のお申し込み"),
  );

describe("changing the email asks for the password and tells the old address", () => {
  it("refuses the page form without the password or with a wrong one, sending nothing", async () => {
    const { email, b } = await member();
    const next = uniqueEmail("next");
    const page = (await (await b.request("/account/edit/change-email")).json()) as {
      loaderData: { hasPassword: boolean };
    };
    expect(page.loaderData.hasPassword).toBe(true);

    const empty = await formPost(b, { email: next });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { actionData: { errors: object } }).actionData.errors).toEqual({
      currentPassword: "現在のパスワードを入力してください。",
    });
    const wrong = await formPost(b, { email: next, currentPassword: "wrong99" });
    expect(wrong.status).toBe(400);
    const answer = (await wrong.json()) as {
      actionData: { errors: object; values: Record<string, string> };
    };
    expect(answer.actionData.errors).toEqual({
      currentPassword: "現在のパスワードが正しくありません。",
    });
    // The typed address is kept, the password never comes back.
    expect(answer.actionData.values).toEqual({ email: next });
    expect(await outboxFor(database.db, next)).toHaveLength(0);
    expect(await requestedNotices(email)).toHaveLength(0);
  });

  it("refuses POST /api/auth/change-email without the right password", async () => {
    const { email, b } = await member();
    const next = uniqueEmail("next");
    for (const body of [{ newEmail: next }, { newEmail: next, password: "wrong99" }]) {
      const response = await apiPost(b, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: "INVALID_PASSWORD" });
    }
    expect(await outboxFor(database.db, next)).toHaveLength(0);
    const ok = await apiPost(b, { newEmail: next, password });
    expect(ok.status).toBe(200);
    expect(await outboxFor(database.db, next)).toHaveLength(1);
    expect(await requestedNotices(email)).toHaveLength(1);
  });

  it("mails the old address at once, with a password reset that voids the pending link", async () => {
    const { email, b } = await member();
    const next = uniqueEmail("next");
    const sent = await formPost(b, { email: next, currentPassword: password });
    expect(sent.headers.get("location")).toBe("/account/edit/change-email/finish-request");

    const [notice] = await requestedNotices(email);
    expect(notice?.subject).toBe("【Salon Navi】メールアドレス変更のお申し込みがありました");
    expect(notice?.text).toContain("お心当たりがない場合：パスワードを再設定する");
    expect(notice?.text).toContain("http://localhost:3000/password-reset");
    expect(notice?.text).not.toContain(next); // the old address learns nothing of the new one

    // "It was not me": the owner resets the password from the old address…
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a later second than the link
    const owner = browser(env.app);
    await requestPasswordReset(env.accounts, { email }, owner.toRequest("/password-reset"));
    const token = new URL(`http://x${await lastMailLink(database.db, email)}`).pathname
      .split("/")
      .at(-1);
    const resetPage = await owner.request(
      `/api/auth/reset-password/${token}?callbackURL=%2Fpassword-reset`,
    );
    const resetToken =
      new URL(resetPage.headers.get("location") ?? "", "http://x").searchParams.get("token") ?? "";
    await resetPassword(
      env.accounts,
      { token: resetToken, password: "another2" },
      owner.toRequest("/password-reset"),
    );

    // …and the link mailed to the new address no longer moves the account.
    const opened = await browser(env.app).request(await lastMailLink(database.db, next));
    expect(opened.headers.get("location")).toBe(
      "/account/edit/change-email/thanks?error=INVALID_TOKEN",
    );
    const [row] = await database.db.select().from(users).where(eq(users.email, email));
    expect(row?.email).toBe(email);
  });

  it("changes the email when the new address's link is opened and nothing voided it", async () => {
    const { b } = await member();
    const next = uniqueEmail("next");
    await formPost(b, { email: next, currentPassword: password });
    const opened = await b.request(await lastMailLink(database.db, next));
    expect(opened.headers.get("location")).toBe("/account/edit/change-email/thanks");
    expect((await current(b))?.email).toBe(next);
  });

  it("asks an account without a password for a sign-in in the last ten minutes", async () => {
    const { b } = await member();
    const user = await current(b);
    if (!user) throw new Error("not signed in");
    await database.db
      .delete(authAccounts)
      .where(and(eq(authAccounts.userId, user.id), eq(authAccounts.providerId, "credential")));
    const page = (await (await b.request("/account/edit/change-email")).json()) as {
      loaderData: { hasPassword: boolean };
    };
    expect(page.loaderData.hasPassword).toBe(false);

    const fresh = await formPost(b, { email: uniqueEmail("next") });
    expect(fresh.headers.get("location")).toBe("/account/edit/change-email/finish-request");

    await database.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 11 * 60 * 1000) })
      .where(eq(sessions.userId, user.id));
    const stale = await formPost(b, { email: uniqueEmail("next") });
    expect(stale.status).toBe(403);
    expect(((await stale.json()) as { actionData: { errors: object } }).actionData.errors).toEqual({
      form: "安全のため、もう一度ログインしてから操作してください。",
    });
  });
});
