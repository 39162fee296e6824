import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as changeEmailRoute from "../../app/routes/account.edit.change-email";
import * as passwordResetRoute from "../../app/routes/password-reset";
import * as signInRoute from "../../app/routes/signin";
import * as signUpRoute from "../../app/routes/signup";
import { getCurrentUser } from "../../server/accounts/current-user";
import { contactSchema } from "../../server/bookings/contact.schema";
import { users } from "../../server/db/schema";
import { browser, lastMailLink, outboxFor, uniqueEmail } from "../support/accounts";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(() => {
  env = createRouteApp(database, [
    { path: "/signup", module: signUpRoute },
    { path: "/signin", module: signInRoute },
    { path: "/password-reset", module: passwordResetRoute },
    { path: "/account/edit/change-email", module: changeEmailRoute },
  ]);
});

/** "hanako@example.jp" as typed in full-width mode, with a full-width space around it. */
const fullWidth = (email: string) =>
  `　${[...email].map((c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0)).join("")}　`;

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const password = "secret1";

async function stored(email: string) {
  return database.db.select().from(users).where(eq(users.email, email));
}

describe("a full-width address is the same address on every path", () => {
  it("signs up on the page and through the API as the half-width address", async () => {
    const onPage = uniqueEmail("wide");
    const page = await browser(env.app).request(
      "/signup",
      form({ email: fullWidth(onPage), password, passwordConfirm: password }),
    );
    expect(page.headers.get("location")).toBe("/finish_sign_up");
    expect(await stored(onPage)).toHaveLength(1);
    expect(await outboxFor(database.db, onPage)).toHaveLength(1);

    const viaApi = uniqueEmail("wide");
    const api = await browser(env.app).request(
      "/api/auth/sign-up/email",
      json({ email: fullWidth(viaApi), password, name: "" }),
    );
    expect(api.status).toBe(200);
    expect(await stored(viaApi)).toHaveLength(1);
    // Typed again half-width, it is the registered (not yet confirmed) address: one account,
    // and a second confirmation mail to it.
    await browser(env.app).request(
      "/api/auth/sign-up/email",
      json({ email: viaApi, password, name: "" }),
    );
    expect(await stored(viaApi)).toHaveLength(1);
    const mails = await outboxFor(database.db, viaApi);
    expect(mails).toHaveLength(2);
    expect(mails.at(-1)?.subject).toContain("メールアドレスの確認");
  });

  it("signs in, resets and changes the email with it", async () => {
    const email = uniqueEmail("wide");
    const b = browser(env.app);
    await b.request("/signup", form({ email, password, passwordConfirm: password }));
    await b.request(await lastMailLink(database.db, email));

    const page = browser(env.app);
    const signedIn = await page.request(
      "/signin",
      form({ intent: "password", email: fullWidth(email), password }),
    );
    expect(signedIn.status).toBe(302);
    expect(
      (await getCurrentUser(page.toRequest("/"), { db: database.db, accounts: env.accounts }))
        ?.email,
    ).toBe(email);
    const api = await browser(env.app).request(
      "/api/auth/sign-in/email",
      json({ email: fullWidth(email), password }),
    );
    expect(api.status).toBe(200);

    const before = (await outboxFor(database.db, email)).length;
    // The browser that signed in asks twice (a stranger's browser gets one reset mail an hour
    // for an address, decision 0064).
    await page.request("/password-reset", form({ email: fullWidth(email) }));
    await page.request(
      "/api/auth/request-password-reset",
      json({ email: fullWidth(email), redirectTo: "/password-reset" }),
    );
    const resets = (await outboxFor(database.db, email)).slice(before);
    expect(resets.map((mail) => mail.subject)).toEqual([
      "【Salon Navi】パスワード再設定のご案内",
      "【Salon Navi】パスワード再設定のご案内",
    ]);

    const next = uniqueEmail("wide-next");
    const change = await b.request(
      "/account/edit/change-email",
      form({ email: fullWidth(next), currentPassword: password }),
    );
    expect(change.headers.get("location")).toBe("/account/edit/change-email/finish-request");
    expect(await outboxFor(database.db, next)).toHaveLength(1);
    const viaApi = uniqueEmail("wide-next");
    const apiChange = await b.request(
      "/api/auth/change-email",
      json({ newEmail: fullWidth(viaApi), password }),
    );
    expect(apiChange.status).toBe(200);
    expect(await outboxFor(database.db, viaApi)).toHaveLength(1);
  });

  it("counts attempts on one account whichever width they were typed in", async () => {
    const email = uniqueEmail("wide");
    await browser(env.app).request("/signup", form({ email, password, passwordConfirm: password }));
    for (let i = 0; i < 5; i++) {
      await browser(env.app).request(
        "/api/auth/sign-in/email",
        json({ email: fullWidth(email), password: "guess123" }),
      );
    }
    const right = await browser(env.app).request(
      "/api/auth/sign-in/email",
      json({ email, password }),
    );
    expect(right.status).toBe(429);
  });

  it("is normalised in a booking's contact details", () => {
    const parsed = contactSchema().parse({
      name: "山田 花子",
      nameKana: "ヤマダ ハナコ",
      phone: "090-1234-5678",
      email: fullWidth("hanako@example.jp"),
    });
    expect(parsed.email).toBe("hanako@example.jp");
  });
});
