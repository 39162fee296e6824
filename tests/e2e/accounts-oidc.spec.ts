import { randomBytes } from "node:crypto";
import { Events, OAuth2Server } from "oauth2-mock-server";
import { OIDC_PORT } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { followOfficialAccount } from "./line-helpers";

// A real OpenID Connect provider on localhost, configured as "Google" and as "LINE" for the e2e server.
let provider: OAuth2Server;
const profile: Record<string, unknown> = {
  email: "oidc-e2e@example.jp",
  email_verified: true,
  name: "外部 花子",
};

test.beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate("RS256");
  await provider.start(OIDC_PORT, "localhost");
  provider.service.on(Events.BeforeTokenSigning, (token) => Object.assign(token.payload, profile));
  provider.service.on(Events.BeforeUserinfo, (response) => Object.assign(response.body, profile));
});

test.afterAll(async () => {
  await provider?.stop();
});

test("signs in with the external provider and asks a new user for the profile", async ({
  page,
  axe,
}) => {
  await page.goto("/signin");
  await axe.check();
  await page.getByRole("button", { name: "Googleでログイン" }).click();
  await expect(page).toHaveURL(/\/account\/edit$/);
  await expect(page.getByText("メールアドレス：oidc-e2e@example.jp")).toBeVisible();
  await axe.check();
});

test("a visitor who signed up by mail links LINE and chooses LINE for reminders", async ({
  page,
  login,
  axe,
}) => {
  // A LINE user of its own (LINE's ids start with U); LINE's address is not the account's.
  profile.sub = `U${randomBytes(16).toString("hex")}`;
  await login();
  await page.goto("/account/edit");
  await page.getByRole("button", { name: "LINEと連携する" }).click();
  await expect(page).toHaveURL(/\/account\/edit\?line=linked/);
  await expect(page.getByRole("status").filter({ hasText: "LINEと連携しました。" })).toBeFocused();
  await expect(page.getByText("LINE連携済み")).toBeVisible();
  await axe.check();

  // Until the official account is a friend, LINE cannot be chosen, and the page says why.
  await page.getByRole("link", { name: "通知設定（メール・LINE）" }).click();
  const reminder = page.getByRole("group", { name: "前日のリマインダー" });
  await expect(reminder.getByRole("radio", { name: "LINE" })).toBeDisabled();
  await expect(page.getByText("公式アカウントを友だち追加すると選べます")).toBeVisible();
  await expect(
    page.getByText("領収書・規約に関するお知らせは常にメールでお送りします。"),
  ).toBeVisible();

  // LINE's follow event, signed, to the inbound webhook.
  await followOfficialAccount(page.request, String(profile.sub));
  await page.reload();
  // Linked and following: LINE is the default of every kind until chosen otherwise.
  await expect(reminder.getByRole("radio", { name: "LINE" })).toBeChecked();
  // LINE for the reminder only, mail for the rest.
  await reminder.getByRole("radio", { name: "LINE" }).check();
  for (const kind of ["予約の確定・変更・キャンセル", "キャンセル待ちのご案内", "口コミのお願い"]) {
    await page.getByRole("group", { name: kind }).getByRole("radio", { name: "メール" }).check();
  }
  await page.getByRole("button", { name: "保存する" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "通知設定を保存しました。" }),
  ).toBeFocused();
  await axe.check();
  await page.reload();
  await expect(reminder.getByRole("radio", { name: "LINE" })).toBeChecked();
  await expect(
    page
      .getByRole("group", { name: "予約の確定・変更・キャンセル" })
      .getByRole("radio", { name: "メール" }),
  ).toBeChecked();
  await expect(page.getByText("未設定のため")).toHaveCount(0);
});
