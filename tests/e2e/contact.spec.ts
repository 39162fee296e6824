import { expect, test } from "./fixtures";

test("an empty submit is rejected with messages and typed values are kept", async ({
  page,
  axe,
}) => {
  await page.goto("/contact");
  await page.getByRole("button", { name: "送信する" }).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("入力内容を確認してください。");
  await expect(page.getByText("お名前を入力してください。").first()).toBeVisible();
  await expect(page.getByLabel("お名前")).toHaveAttribute("aria-invalid", "true");
  await axe.check();

  await page.getByLabel("お名前").fill("佐藤 花子");
  await page.getByLabel("お問い合わせ内容").fill("短い");
  await page.getByRole("button", { name: "送信する" }).click();
  await expect(page.getByText("メールアドレスを入力してください。").first()).toBeVisible();
  await expect(
    page.getByText("お問い合わせ内容は10文字以上で入力してください。").first(),
  ).toBeVisible();
  await expect(page.getByLabel("お名前")).toHaveValue("佐藤 花子");
  await expect(page.getByLabel("お問い合わせ内容")).toHaveValue("短い");
});

test("without JavaScript a failed submit answers 400 and keeps the values", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/contact");
  await page.getByLabel("お名前").fill("田中 一郎");
  await page.getByLabel("メールアドレス").fill("not-an-email");
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "送信する" }).click(),
  ]);
  expect(response.status()).toBe(400);
  await expect(page.getByLabel("お名前")).toHaveValue("田中 一郎");
  await expect(page.getByLabel("メールアドレス")).toHaveValue("not-an-email");
  await expect(page.getByText("メールアドレスの形式が正しくありません").first()).toBeVisible();
  await context.close();
});

test("a valid message is stored and the thanks state is shown", async ({ page, axe }) => {
  await page.goto("/contact");
  await page.getByLabel("お名前").fill("鈴木 美咲");
  await page.getByLabel("メールアドレス").fill("misaki@example.jp");
  await page.getByLabel("お問い合わせの種類").selectOption("booking");
  await page.getByLabel("お問い合わせ内容").fill("予約の変更方法について教えてください。");
  await page.getByRole("button", { name: "送信する" }).click();
  await expect(
    page.getByRole("heading", { name: "お問い合わせありがとうございました" }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/contact\?sent=1$/);
  await axe.check();
});
