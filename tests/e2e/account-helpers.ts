import { expect, type Page } from "@playwright/test";
import { openMailLink } from "../support/mail-capture";

/** A label matched whole, ignoring the 必須 badge inside it. */
export const exactLabel = (text: string) =>
  new RegExp(`^${text.replace(/[()（）]/g, "\\$&")}(\\s*必須)?$`);

let counter = 0;
export const newEmail = (name: string) =>
  `${name}-${Date.now().toString(36)}-${counter++}-${Math.floor(Math.random() * 1e6)}@example.jp`;

export async function signUp(page: Page, email: string, password = "secret1") {
  await page.goto("/signup");
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel(exactLabel("パスワード")).fill(password);
  await page.getByLabel("パスワード（確認用）").fill(password);
  await page.getByRole("button", { name: "登録する" }).click();
  await expect(page.getByRole("heading", { name: "確認メールを送信しました" })).toBeVisible();
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel(exactLabel("メールアドレス")).fill(email);
  await page.getByLabel(exactLabel("パスワード")).fill(password);
  await page.getByRole("button", { name: "ログイン", exact: true }).click();
}

export async function completeProfile(page: Page) {
  await page.goto("/account/edit");
  await page.getByLabel(exactLabel("お名前")).fill("山田 花子");
  await page.getByLabel("お名前（フリガナ）").fill("やまだ はなこ");
  await page.getByLabel("電話番号").fill("090-1234-5678");
  await page.getByLabel("性別").selectOption("female");
  await page.getByRole("button", { name: "保存する" }).click();
}

/** A verified user with a completed profile, signed in on `page`. */
export async function verifiedUser(page: Page, name: string, password = "secret1") {
  const email = newEmail(name);
  await signUp(page, email, password);
  await openMailLink(page, email, "メールアドレスの確認");
  await expect(page.getByRole("heading", { name: "メールアドレスを確認しました" })).toBeVisible();
  return email;
}
