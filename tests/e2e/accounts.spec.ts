import { openMailLink } from "../support/mail-capture";
import { completeProfile, exactLabel, newEmail, signIn, signUp } from "./account-helpers";
import { expect, test } from "./fixtures";

test("sign up, verify from the mailbox, complete the profile, sign out and in again", async ({
  page,
  axe,
}) => {
  test.setTimeout(90_000);
  const email = newEmail("journey");

  // Sign up; the form explains the policy and refuses a short password first.
  await page.goto("/signup");
  await expect(page.getByText("6文字以上で入力してください。")).toBeVisible();
  await axe.check();
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel(exactLabel("パスワード")).fill("abc");
  await page.getByLabel("パスワード（確認用）").fill("abc");
  await page.getByRole("button", { name: "登録する" }).click();
  await expect(page.getByText("パスワードは6文字以上で入力してください。").first()).toBeVisible();
  await expect(page.getByLabel("メールアドレス")).toHaveValue(email);
  await signUp(page, email, "secret1");
  await axe.check();

  // Verify from the mailbox, then the profile form is required.
  await openMailLink(page, email, "メールアドレスの確認");
  await expect(page.getByRole("heading", { name: "メールアドレスを確認しました" })).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(/\/account\/edit$/);
  await axe.check();
  await page.getByRole("button", { name: "保存する" }).click();
  await expect(page.getByText("お名前を入力してください。").first()).toBeVisible();
  await completeProfile(page);
  await expect(page.getByRole("heading", { name: "登録ありがとうございます" })).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(/\/$/);

  // Sign out from the header menu, then sign in again.
  await page.getByText("山田 花子 様").click();
  await page.getByRole("button", { name: "ログアウト" }).click();
  await expect(page.getByRole("link", { name: "ログイン", exact: true })).toBeVisible();
  await signIn(page, email, "wrong-password");
  await expect(
    page.getByText("メールアドレスまたはパスワードが正しくありません").first(),
  ).toBeVisible();
  await expect(page.getByLabel(exactLabel("メールアドレス"))).toHaveValue(email);
  await axe.check();
  await signIn(page, email, "secret1");
  await expect(page.getByText("山田 花子 様")).toBeVisible();
});

test("a member changes password and email, resets the password and signs in by email link", async ({
  page,
  axe,
  login,
}) => {
  const { password } = await login();

  // Change password.
  await page.goto("/account/edit/change-password");
  await page.getByLabel("現在のパスワード").fill(password);
  await page.getByLabel(exactLabel("新しいパスワード")).fill("secret2");
  await page.getByLabel("新しいパスワード（確認用）").fill("secret2");
  await page.getByRole("button", { name: "パスワードを変更する" }).click();
  await expect(page.getByRole("heading", { name: "パスワードを変更しました" })).toBeVisible();

  // Change email: confirmation to the new address.
  const moved = newEmail("moved");
  await page.goto("/account/edit/change-email");
  await axe.check();
  await page.getByLabel("新しいメールアドレス").fill(moved);
  await page.getByLabel("現在のパスワード").fill("secret2");
  await page.getByRole("button", { name: "確認メールを送る" }).click();
  await expect(page.getByRole("heading", { name: "確認メールを送信しました" })).toBeVisible();
  await openMailLink(page, moved, "新しいメールアドレスの確認");
  await expect(page.getByRole("heading", { name: "メールアドレスを変更しました" })).toBeVisible();

  // Reset the password while signed out.
  await page.context().clearCookies();
  await page.goto("/password-reset");
  await axe.check();
  await page.getByLabel("メールアドレス").fill(moved);
  await page.getByRole("button", { name: "再設定メールを送る" }).click();
  await expect(page.getByRole("heading", { name: "再設定メールを送信しました" })).toBeVisible();
  await openMailLink(page, moved, "パスワード再設定");
  await page.getByLabel(exactLabel("新しいパスワード")).fill("secret3");
  await page.getByLabel("新しいパスワード（確認用）").fill("secret3");
  await page.getByRole("button", { name: "パスワードを変更する" }).click();
  await expect(page.getByRole("heading", { name: "パスワードを変更しました" })).toBeVisible();
  await signIn(page, moved, "secret3");
  await expect(page.getByText("山田 花子 様")).toBeVisible();

  // Sign in by email link.
  await page.context().clearCookies();
  await page.goto("/signin");
  await page.getByLabel("ログイン用リンクの送信先メールアドレス").fill(moved);
  await page.getByRole("button", { name: "ログイン用リンクを送る" }).click();
  await expect(page.getByText("ログイン用のリンクをメールでお送りしました")).toBeVisible();
  await openMailLink(page, moved, "ログイン用リンク");
  await expect(page.getByText("山田 花子 様")).toBeVisible();
});

test("without JavaScript, a failed sign-up answers 400 and keeps the email but not the password", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/signup");
  await page.getByLabel("メールアドレス").fill("nojs@example.jp");
  await page.getByLabel(exactLabel("パスワード")).fill("secret1");
  await page.getByLabel("パスワード（確認用）").fill("secret9");
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "登録する" }).click(),
  ]);
  expect(response.status()).toBe(400);
  await expect(page.getByText("確認用のパスワードが一致しません").first()).toBeVisible();
  await expect(page.getByLabel("メールアドレス")).toHaveValue("nojs@example.jp");
  await expect(page.getByLabel(exactLabel("パスワード"))).toHaveValue("");
  await context.close();
});
