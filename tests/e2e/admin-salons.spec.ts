import { exactLabel } from "./account-helpers";
import { expect, test } from "./fixtures";

// The admin salon pages (issue 16, points 4 and 7): the list, adding a
// salon by keyboard with the postal-code lookup, publishing refused with
// what is missing, and a seeded salon published, renamed (its old address
// redirects) and suspended (gone from search and its page).

test("non-admins get the 404 screen on the salon pages", async ({ page, login }) => {
  await login({ role: "owner" });
  for (const path of ["/admin/salons", "/admin/salons/add"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
  }
});

test("an admin adds a salon by keyboard; publishing lists what is missing", async ({
  page,
  login,
  axe,
}) => {
  test.setTimeout(60_000);
  await login({ role: "admin" });
  await page.goto("/admin/salons");
  await expect(page.getByRole("heading", { name: "サロン一覧", level: 1 })).toBeVisible();
  await axe.check();
  await page
    .getByRole("navigation", { name: "管理メニュー" })
    .getByRole("link", { name: "サロンを追加" })
    .click();
  await expect(page.getByRole("heading", { name: "サロンの追加", level: 1 })).toBeVisible();
  await axe.check();

  // An empty submit: every problem listed, focus on the list.
  await page.getByRole("button", { name: "下書きとして登録する" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "入力内容を確認してください" });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText("サロン名を入力してください。");
  await axe.check();

  const slug = `e2e-salon-${Date.now().toString(36)}`;
  // Keyboard only: type and move on with Tab.
  await page.getByLabel(exactLabel("サロン名")).focus();
  await page.keyboard.type("Hair E2E テスト");
  await page.keyboard.press("Tab");
  await page.keyboard.type("へあ いーつーいー");
  await page.keyboard.press("Tab");
  await page.keyboard.type(slug);
  await page.getByLabel("郵便番号").focus();
  await page.keyboard.type("1500001");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "住所を検索" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("東京都渋谷区神宮前を入力しました")).toBeVisible();
  await expect(page.getByLabel(exactLabel("都道府県"))).toHaveValue("13");
  const address = page.getByLabel("市区町村・番地・建物名");
  await expect(address).toHaveValue("渋谷区神宮前");
  await address.focus();
  await page.keyboard.press("End");
  await page.keyboard.type("1-2-3 E2Eビル3F");
  await page.getByLabel(exactLabel("エリア")).selectOption({ index: 1 });
  await page.getByLabel(exactLabel("緯度")).fill("35.6702");
  await page.getByLabel(exactLabel("経度")).fill("139.7027");
  await page.getByLabel("月曜日 時間帯1の開店").fill("10:00");
  await page.getByLabel("月曜日 時間帯1の閉店").fill("20:00");
  // Enter in a text field saves (not 住所を検索).
  await page.getByLabel(exactLabel("電話番号")).focus();
  await page.keyboard.type("03-1234-5678");
  await page.keyboard.press("Enter");

  await expect(page.getByText("サロンを下書きとして登録しました")).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Hair E2E テストの編集", level: 1 }),
  ).toBeVisible();
  await expect(page.getByLabel("市区町村・番地・建物名")).toHaveValue(
    "渋谷区神宮前1-2-3 E2Eビル3F",
  );
  await expect(page.getByText("公開中のメニュー（1件以上）")).toBeVisible();
  await axe.check();

  await page.getByRole("button", { name: "公開する" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "公開に必要な情報が足りません" });
  await expect(refused).toContainText("在籍中のスタッフ（1名以上）");
  await expect(page.getByText("公開状態：下書き")).toBeVisible();
  await axe.check();

  // Found in the admin list by its kana.
  await page.goto("/admin/salons?q=いーつーいー");
  await expect(
    page.getByRole("link", { name: "Hair E2E テスト", exact: true }).first(),
  ).toBeVisible();
});

test("an admin publishes a seeded salon, renames its slug (the old URL redirects) and suspends it", async ({
  page,
  login,
  axe,
  playwright,
}) => {
  test.setTimeout(90_000);
  await login({ role: "admin" });
  // Salon number 287 of the demo seed: no other spec uses it.
  await page.goto("/admin/salons?q=0287");
  const row = page.getByRole("row").nth(1);
  // The row's first link is the salon's editor (the second, its 予約台帳).
  const nameLink = row.getByRole("link").first();
  const name = (await nameLink.textContent()) ?? "";
  await nameLink.click();
  await expect(page.getByRole("heading", { name: `${name}の編集`, level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: `${name}の編集メニュー` })).toBeVisible();
  await axe.check();
  const slugField = page.getByLabel(exactLabel("URL名（スラッグ）"));
  const slug = await slugField.inputValue();

  // Back to draft, then published again: a complete salon may be.
  await page.getByRole("button", { name: "下書きに戻す" }).click();
  await expect(page.getByText("サロンを下書きに戻しました。")).toBeVisible();
  expect((await page.request.get(`/salons/${slug}`)).status()).toBe(404);
  await page.getByRole("button", { name: "公開する" }).click();
  await expect(page.getByText("サロンを公開しました。")).toBeVisible();
  expect((await page.request.get(`/salons/${slug}`)).status()).toBe(200);

  // A new slug: the old address answers with a permanent redirect.
  const renamed = `${slug}-renamed`;
  await page.getByLabel(exactLabel("URL名（スラッグ）")).fill(renamed);
  await page.getByRole("button", { name: "基本情報を保存する", exact: true }).click();
  await expect(page.getByText("基本情報を保存しました。")).toBeVisible();
  const old = await page.request.get(`/salons/${slug}`, { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers().location).toBe(`/salons/${renamed}`);
  await page.goto(`/salons/${slug}`);
  await expect(page).toHaveURL(new RegExp(`/salons/${renamed}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  // So do the pages under it (the booking flow), keeping their query string,
  const flow = await page.request.get(`/salons/${slug}/confirm?date=2030-01-07`, {
    maxRedirects: 0,
  });
  expect(flow.status()).toBe(301);
  expect(flow.headers().location).toBe(`/salons/${renamed}/confirm?date=2030-01-07`);
  // also when reached by a client-side navigation (the root's route-rules check).
  await page.evaluate(
    (to) =>
      (
        window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }
      ).__reactRouterDataRouter.navigate(to),
    `/salons/${slug}/confirm?date=2030-01-07`,
  );
  await expect(page).toHaveURL(new RegExp(`/salons/${renamed}/confirm\\?date=2030-01-07$`));

  // Suspended: gone from search and its page, the editor still there.
  const searchPage = `/salons/search?${new URLSearchParams({ q: name })}`;
  const card = page.locator(`a[href^="/salons/${renamed}"]`);
  await page.goto(searchPage);
  await expect(card.first()).toBeVisible();
  // An anonymous visitor's copies of the salon page and the search, micro-cached (decision 0007).
  const anonymous = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
  });
  for (const path of [`/salons/${renamed}`, searchPage]) {
    await anonymous.get(path);
    expect((await anonymous.get(path)).headers()["x-cache"], path).toBe("HIT");
  }
  await page.goto("/admin/salons?q=0287");
  await page.getByRole("link", { name, exact: true }).click();
  await page.getByRole("button", { name: "利用停止にする" }).click();
  await expect(page.getByText("サロンを利用停止にしました。")).toBeVisible();
  await expect(page.getByText("公開状態：利用停止中")).toBeVisible();
  await axe.check();
  const gone = await page.goto(`/salons/${renamed}`);
  expect(gone?.status()).toBe(404);
  await page.goto(searchPage);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(card).toHaveCount(0);
  // Gone for the anonymous visitor too, at once: the suspension dropped the cached pages.
  await expect
    .poll(async () => (await anonymous.get(`/salons/${renamed}`)).status(), { timeout: 1000 })
    .toBe(404);
  await expect
    .poll(async () => (await anonymous.get(searchPage)).text(), { timeout: 1000 })
    .not.toContain(`/salons/${renamed}`);
  await anonymous.dispose();
});
