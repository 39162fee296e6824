import type { Page } from "@playwright/test";
import { completeProfile, newEmail, signIn, signUp, verifiedUser } from "./account-helpers";
import { expect, test } from "./fixtures";

/** Every guarded account route of SPEC.md §2, and where each visitor ends up. */
const routes = [
  "/mail_not_confirm",
  "/account/edit",
  "/account/edit/change-email",
  "/account/edit/change-password",
];

async function landing(page: Page, path: string) {
  const response = await page.goto(path);
  const url = new URL(page.url());
  return { path: `${url.pathname}${url.search}`, status: response?.status() };
}

test("a guest is sent to sign-in, coming back afterwards", async ({ page }) => {
  for (const path of routes) {
    expect(await landing(page, path)).toEqual({
      path: `/signin?redirect=${encodeURIComponent(path)}`,
      status: 200,
    });
  }
});

test("an unverified user may see only the is-login pages", async ({ page, axe }) => {
  const email = newEmail("unverified");
  await signUp(page, email);
  // Sign-up signs nobody in (decision 0026); an unverified address may sign in.
  await signIn(page, email, "secret1");
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  expect(await landing(page, "/mail_not_confirm")).toEqual({
    path: "/mail_not_confirm",
    status: 200,
  });
  await axe.check();
  expect(await landing(page, "/account/edit")).toEqual({ path: "/mail_not_confirm", status: 200 });
  expect((await landing(page, "/account/edit/change-email")).path).toBe(
    "/account/edit/change-email",
  );
  expect((await landing(page, "/account/edit/change-password")).path).toBe(
    "/account/edit/change-password",
  );
  await page.goto("/mail_not_confirm");
  await page.getByRole("button", { name: "確認メールを再送する" }).click();
  await expect(page).toHaveURL(/\/finish_resend_email$/);
});

test("a verified user must complete the profile first, then reaches every page", async ({
  page,
}) => {
  await verifiedUser(page, "guarded");
  expect((await landing(page, "/")).path).toBe("/account/edit");
  expect((await landing(page, "/finish_sign_up")).path).toBe("/finish_sign_up");
  await completeProfile(page);
  for (const path of routes) expect((await landing(page, path)).path).toBe(path);
});

test("an administrator reaches every account page", async ({ page, login }) => {
  await login({ role: "admin" });
  for (const path of routes) expect((await landing(page, path)).path).toBe(path);
});
