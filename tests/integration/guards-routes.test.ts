import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browser, signUpThroughApi, uniqueEmail } from "../support/accounts";
import { createRouterApp } from "../support/router-app";
import { withTestDatabase } from "../support/test-database";

// Guards through the real routes, as a browser meets them.
const database = withTestDatabase();
let site: Awaited<ReturnType<typeof createRouterApp>>;

beforeAll(async () => {
  site = await createRouterApp(database, { RATE_LIMIT_PER_IP: "3" });
});
afterAll(async () => {
  await site?.close();
});

describe("guards on real routes", () => {
  it("sends a guest on a guarded page to sign-in, coming back to that page", async () => {
    const response = await browser(site.app).request("/account/edit/change-password?x=1");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      "/signin?redirect=%2Faccount%2Fedit%2Fchange-password%3Fx%3D1",
    );
  });

  it("brings a guest sent to sign-in during a client navigation back to the page, not the .data URL", async () => {
    const response = await browser(site.app).request(
      "/account/edit/change-password.data?x=1&_routes=routes%2Faccount.edit.change-password",
    );
    const body = await response.text();
    const target = response.headers.get("x-remix-redirect") ?? body;
    expect(target).toContain("/signin?redirect=%2Faccount%2Fedit%2Fchange-password%3Fx%3D1");
    expect(target).not.toContain(".data");
    expect(target).not.toContain("_routes");
  });

  it("shows a signed-in user the 404 screen on an admin page", async () => {
    const b = browser(site.app);
    const signIn = await signUpThroughApi(b, uniqueEmail("guard"), "secret12");
    expect(signIn.status).toBe(200);
    const response = await b.request("/admin");
    expect(response.status).toBe(404);
  });
});

describe("contact form through its route", () => {
  it("is limited per client address, keeping what was typed", async () => {
    const b = browser(site.app);
    const post = () =>
      b.request("/contact", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          name: "山田 花子",
          email: "hanako@example.jp",
          category: "other",
          body: "営業時間について教えてください。",
        }).toString(),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([302, 302, 302]);
    const limited = await post();
    expect(limited.status).toBe(429);
    const page = await limited.text();
    expect(page).toContain("一時的に受け付けを停止しています");
    expect(page).toContain("営業時間について教えてください。");
    // Another address is not affected.
    const other = await browser(site.app).request("/contact", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        name: "山田 花子",
        email: "hanako@example.jp",
        category: "other",
        body: "営業時間について教えてください。",
      }).toString(),
    });
    expect(other.status).toBe(302);
  });
});
