import { Events, OAuth2Server } from "oauth2-mock-server";
import { OIDC_PORT } from "../../playwright.config";
import { expect, test } from "./fixtures";

// A real OpenID Connect provider on localhost, configured as "Google" for the e2e server.
let provider: OAuth2Server;

test.beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate("RS256");
  await provider.start(OIDC_PORT, "localhost");
  const profile = { email: "oidc-e2e@example.jp", email_verified: true, name: "外部 花子" };
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
