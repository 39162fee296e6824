import { beforeAll, describe, expect, it } from "vitest";
import * as accountEditRoute from "../../app/routes/account.edit";
import * as finishSignUpRoute from "../../app/routes/finish_sign_up";
import * as signUpRoute from "../../app/routes/signup";
import { accountSetupRedirect } from "../../server/accounts/guards";
import { browser, lastMailLink, uniqueEmail } from "../support/accounts";
import { createRouteApp } from "../support/route-app";
import { withTestDatabase } from "../support/test-database";

const database = withTestDatabase();
let env: ReturnType<typeof createRouteApp>;

beforeAll(() => {
  env = createRouteApp(database, [
    { path: "/signup", module: signUpRoute },
    { path: "/finish_sign_up", module: finishSignUpRoute },
    { path: "/account/edit", module: accountEditRoute },
  ]);
});

const formHeaders = { "content-type": "application/x-www-form-urlencoded" };
// A held time a guest was about to confirm when asked to sign up.
const held = "/salons/some-salon/confirm?hold=3f0c2a4e-8d51-4c1b-9a55-2f1e0b7d9c11";

describe("a guest who signs up on the way to a booking comes back to it", () => {
  it("keeps the destination through sign-up, the verification link and the profile form", async () => {
    const b = browser(env.app);
    const email = uniqueEmail("return");
    const page = await b.request(`/signup?redirect=${encodeURIComponent(held)}`);
    expect(
      ((await page.json()) as { loaderData: { redirectTo: string } }).loaderData.redirectTo,
    ).toBe(held);

    const signUp = await b.request(`/signup?redirect=${encodeURIComponent(held)}`, {
      method: "POST",
      headers: formHeaders,
      body: new URLSearchParams({
        email,
        password: "secret1",
        passwordConfirm: "secret1",
        redirect: held,
      }).toString(),
    });
    expect(signUp.status).toBe(302);
    b.keep(signUp.headers);

    // The verification link lands on /finish_sign_up with the destination…
    const verify = await b.request(await lastMailLink(database.db, email));
    const landing = verify.headers.get("location") ?? "";
    expect(landing).toBe(`/finish_sign_up?verified=1&redirect=${encodeURIComponent(held)}`);
    b.keep(verify.headers);
    const finish = await b.request(landing);
    const next = ((await finish.json()) as { loaderData: { next: string } }).loaderData.next;
    expect(next).toBe(`/account/edit?redirect=${encodeURIComponent(held)}`);

    // …the held page itself sends the new member to complete the profile, coming back after…
    const setup = await accountSetupRedirect(b.toRequest(held), {
      db: database.db,
      accounts: env.accounts,
    }).catch((thrown: Response) => thrown.headers.get("location"));
    expect(setup).toBe(next);

    // …and saving the profile goes on to the held time.
    const saved = await b.request(next, {
      method: "POST",
      headers: formHeaders,
      body: new URLSearchParams({
        name: "山田 花子",
        nameKana: "ヤマダ ハナコ",
        phone: "09012345678",
        gender: "female",
        birthDate: "",
      }).toString(),
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(held);
  });

  it("refuses a destination on another site", async () => {
    const page = await browser(env.app).request("/signup?redirect=%2F%2Fevil.example%2Fx");
    expect(
      ((await page.json()) as { loaderData: { redirectTo: string } }).loaderData.redirectTo,
    ).toBe("");
  });
});
