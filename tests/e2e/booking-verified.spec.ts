import { expectMailCount, openMailLink } from "../support/mail-capture";
import { exactLabel, newEmail, signIn, signUp } from "./account-helpers";
import { pickDay } from "./booking-helpers";
import { expect, test } from "./fixtures";

// Decision 0027: an unverified member may hold a time but not book it; the
// resend link leads, through the mail, back to the same held time.
test("an unverified member holds, is asked to confirm the address, resends, verifies and books the same hold", async ({
  page,
  axe,
}) => {
  test.setTimeout(120_000);
  const email = newEmail("unverified");
  await signUp(page, email);
  await signIn(page, email, "secret1");
  await expect(page.locator("header summary")).toBeVisible();

  await page.goto("/salons/search?genre=hair");
  await page.locator('main article h3 a[href^="/salons/"]').first().click();
  await page
    .getByRole("link", { name: /を予約する$/ })
    .first()
    .click();
  await pickDay(page, 4);
  await page
    .getByRole("button", { name: /から予約する$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/hold=/);
  const holdUrl = page.url();
  await expect(page.getByText("予約の確定には、メールアドレスの確認が必要です。")).toBeVisible();
  await axe.check();

  // Confirming anyway is refused with the reason; the hold and what was typed stay.
  await page.getByLabel(exactLabel("お名前")).fill("山田 花子");
  await page.getByLabel("お名前（フリガナ）").fill("やまだ はなこ");
  await page.getByLabel(exactLabel("電話番号")).fill("090-1234-5678");
  await page.getByRole("button", { name: "予約を確定する" }).click();
  await expect(page.getByText(/予約を確定するには、メールアドレスの確認が必要です/)).toBeVisible();
  expect(page.url()).toBe(holdUrl);
  await expect(page.getByLabel(exactLabel("お名前"))).toHaveValue("山田 花子");

  await page.getByRole("link", { name: "確認メールを再送する" }).click();
  await page.getByRole("button", { name: "確認メールを再送する" }).click();
  await expect(page.getByRole("heading", { name: "確認メールを再送しました" })).toBeVisible();
  // The resent mail, not the one sent at sign-up (delivery is a background loop).
  await expectMailCount(email, "メールアドレスの確認", 2);
  await openMailLink(page, email, "メールアドレスの確認");
  await expect(page.getByRole("heading", { name: "メールアドレスを確認しました" })).toBeVisible();
  // The profile first (as after sign-up), then back to the held time.
  await page.getByRole("link", { name: "お客様情報を登録する" }).click();
  await page.getByLabel(exactLabel("お名前")).fill("山田 花子");
  await page.getByLabel("お名前（フリガナ）").fill("やまだ はなこ");
  await page.getByLabel("電話番号").fill("090-1234-5678");
  await page.getByLabel("性別").selectOption("female");
  await page.getByRole("button", { name: "保存する" }).click();
  await expect(page).toHaveURL(holdUrl);
  await expect(page.getByText("予約の確定には、メールアドレスの確認が必要です。")).toHaveCount(0);
  await page.getByRole("button", { name: "予約を確定する" }).click();
  await expect(page.getByRole("heading", { name: "ご予約が確定しました" })).toBeVisible();
});
