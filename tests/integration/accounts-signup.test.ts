import { beforeAll, describe, expect, it } from "vitest";
import { getCurrentUser } from "../../server/accounts/current-user";
import { signInWithPassword, signUpWithPassword } from "../../server/accounts/identity";
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
  env = createAccountsApp(database);
});

describe("sign-up and verification", () => {
  it("signs up, mails a Japanese verification link with text and HTML, and verifies", async () => {
    const email = uniqueEmail();
    const b = browser(env.app);
    const headers = await signUpWithPassword(
      env.accounts,
      { email, password: "secret1" },
      b.toRequest("/signup", { method: "POST" }),
    );
    b.keep(headers);
    const user = await getCurrentUser(b.toRequest("/"), {
      db: database.db,
      accounts: env.accounts,
    });
    expect(user).toMatchObject({ email, emailVerified: false, role: "user", profile: null });

    const [mail] = await outboxFor(database.db, email);
    expect(mail?.subject).toContain("メールアドレスの確認");
    expect(mail?.text).toContain("/api/auth/verify-email?token=");
    expect(mail?.html).toContain("<a href=");

    const link = await lastMailLink(database.db, email);
    const response = await b.request(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/finish_sign_up?verified=1");
    const verified = await getCurrentUser(b.toRequest("/"), {
      db: database.db,
      accounts: env.accounts,
    });
    expect(verified?.emailVerified).toBe(true);
  });

  it("signs in with the password afterwards", async () => {
    const email = uniqueEmail();
    await signUpWithPassword(
      env.accounts,
      { email, password: "secret1" },
      browser(env.app).toRequest("/signup", { method: "POST" }),
    );
    const b = browser(env.app);
    b.keep(
      await signInWithPassword(
        env.accounts,
        { email, password: "secret1" },
        b.toRequest("/signin", { method: "POST" }),
      ),
    );
    const user = await getCurrentUser(b.toRequest("/"), {
      db: database.db,
      accounts: env.accounts,
    });
    expect(user?.email).toBe(email);
  });
});
