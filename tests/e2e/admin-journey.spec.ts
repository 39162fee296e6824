import { exactLabel } from "./account-helpers";
import { notice, phonePhoto, typeInto } from "./admin-helpers";
import { expect, test } from "./fixtures";

// Issue 16, point 10, the whole way with a NEW salon: an admin adds a
// salon, gives it a photo, a menu and a stylist, publishes it, and an
// anonymous visitor finds it in search at once (derived search text and the
// page micro-cache are kept true by the edits themselves) and on its page.

test("an admin adds a salon with a photo, a menu and a stylist, publishes it, and a visitor finds it in search and on its page", async ({
  page,
  browser,
  login,
  axe,
}) => {
  // Some twenty page loads and an image upload on a shared 2-core machine.
  test.setTimeout(120_000);
  await login({ role: "admin" });

  // One word no seeded salon has, so the search answer is this salon alone.
  const word = `jny${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const name = `Hair ${word} 表参道`;
  const slug = `e2e-${word}`;
  const searchPage = `/salons/search?${new URLSearchParams({ q: word })}`;
  const card = (on: typeof page) =>
    on.locator("article").filter({ has: on.locator(`a[href="/salons/${slug}"]`) });

  // An anonymous visitor searches before the salon exists: nothing, and the
  // empty answer may now sit in the page micro-cache (decision 0007).
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(searchPage);
  await expect(visitorPage.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(card(visitorPage)).toHaveCount(0);

  // ── 1. サロンを追加: every field publishing needs ──
  await page.goto("/admin/salons/add");
  await expect(page.getByRole("heading", { name: "サロンの追加", level: 1 })).toBeVisible();
  await axe.check();
  await typeInto(page, "サロン名", name);
  await typeInto(page, "サロン名（フリガナ）", "へあ じゃーにー おもてさんどう");
  await typeInto(page, "URL名（スラッグ）", slug);
  await page.getByLabel(exactLabel("ジャンル")).selectOption({ label: "ヘアサロン" });
  await typeInto(page, "キャッチコピー", "E2Eの旅で生まれたサロン");
  await typeInto(page, "郵便番号", "1500001");
  await page.getByRole("button", { name: "住所を検索" }).click();
  await expect(page.getByText("東京都渋谷区神宮前を入力しました")).toBeVisible();
  await expect(page.getByLabel(exactLabel("都道府県"))).toHaveValue("13");
  const address = page.getByLabel("市区町村・番地・建物名");
  await expect(address).toHaveValue("渋谷区神宮前");
  await address.focus();
  await page.keyboard.press("End");
  await page.keyboard.type("4-5-6 ジャーニービル2F");
  await typeInto(page, "アクセス", "JR山手線 原宿駅 竹下口より徒歩3分");
  await page.getByLabel(exactLabel("エリア")).selectOption({ label: "渋谷・原宿" });
  await page.getByLabel("最寄り駅").selectOption({ label: "原宿" });
  await typeInto(page, "緯度", "35.6702");
  await typeInto(page, "経度", "139.7027");
  await typeInto(page, "電話番号", "03-9876-5432");
  for (const day of ["月曜日", "火曜日", "水曜日", "金曜日", "土曜日"]) {
    await page.getByLabel(`${day} 時間帯1の開店`).fill("10:00");
    await page.getByLabel(`${day} 時間帯1の閉店`).fill("20:00");
  }
  await page.getByRole("button", { name: "下書きとして登録する" }).click();

  await expect(page.getByText("サロンを下書きとして登録しました")).toBeVisible();
  await expect(page.getByRole("heading", { name: `${name}の編集`, level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/salons\/edit\/[0-9a-f-]{36}\?done=created$/);
  const editor = new URL(page.url()).pathname;
  // Only the menu and the stylist are missing now.
  const missing = page.getByRole("region", { name: "公開状態：下書き" });
  await expect(missing.getByRole("listitem")).toHaveText([
    "公開中のメニュー（1件以上）",
    "在籍中のスタッフ（1名以上）",
  ]);
  await axe.check();

  // ── 2. 写真: one photo by the file picker, the cover ──
  await page.goto(`${editor}/photos`);
  await expect(page.getByRole("heading", { level: 2, name: "写真を追加" })).toBeVisible();
  await expect(page.getByRole("listitem", { name: /枚目/ })).toHaveCount(0);
  await axe.check();
  await page.getByLabel("写真のファイル").setInputFiles(await phonePhoto());
  await typeInto(page, "写真の説明（代替テキスト）", `${word}の店内`);
  await page.getByRole("button", { name: "アップロードする" }).click();
  await expect(page.getByRole("status").filter({ hasText: "写真を追加しました。" })).toBeVisible();
  await expect(
    page.getByRole("listitem", { name: "1枚目（カバー写真）" }).getByRole("img"),
  ).toHaveAttribute("alt", `${word}の店内`);
  await axe.check();

  // ── 3. メニュー and スタッフ ──
  await page.goto(`${editor}/menus`);
  await expect(page.getByRole("link", { name: "メニュー", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await axe.check();
  await typeInto(page, /^カテゴリ/, "カット");
  await typeInto(page, /^メニュー名/, "ジャーニーカット");
  await typeInto(page, /^料金/, "5500");
  await page.getByRole("button", { name: "メニューを追加" }).click();
  await expect(notice(page)).toContainText("メニューを追加しました。");
  await expect(page.getByRole("row", { name: /ジャーニーカット/ })).toContainText("￥5,500");
  await axe.check();

  await page.getByRole("link", { name: "スタッフ", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${editor}/staff$`));
  await axe.check();
  await typeInto(page, /^名前/, "旅野 未来");
  await typeInto(page, /^フリガナ/, "たびの みらい");
  await typeInto(page, /^役職/, "スタイリスト");
  await page.getByRole("button", { name: "スタッフを追加" }).click();
  await expect(notice(page)).toContainText("スタッフを追加しました。");
  await expect(page.getByRole("heading", { name: "旅野 未来さんのプロフィール" })).toBeVisible();
  await axe.check();

  // ── 4. 公開する on the 基本情報 tab ──
  await page.getByRole("link", { name: "基本情報", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${editor}$`));
  await expect(page.getByText("公開に必要な情報が足りません")).toHaveCount(0);
  await page.getByRole("button", { name: "公開する" }).click();
  await expect(
    page.getByText("サロンを公開しました。検索とサロンページに表示されます。"),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "公開状態：公開中", level: 2 })).toBeVisible();
  await axe.check();

  // ── 5. The anonymous visitor: found at once in search, then its page ──
  await visitorPage.goto(searchPage);
  const found = card(visitorPage);
  await expect(found).toHaveCount(1);
  await expect(found.getByRole("heading", { name })).toBeVisible();
  const cardPhoto = found.getByRole("img", { name: `${word}の店内` });
  await expect(cardPhoto).toHaveAttribute("srcset", /\/uploads\/\S+\.webp 400w, .+ 800w/);
  await expect(found).toContainText("￥5,500〜");
  await found.getByRole("link", { name, exact: true }).click();

  await expect(visitorPage).toHaveURL(new RegExp(`/salons/${slug}$`));
  await expect(visitorPage.getByRole("heading", { level: 1 })).toContainText(name);
  const cover = visitorPage.getByRole("list", { name: "サロンの写真" }).getByRole("img").first();
  await expect(cover).toHaveAttribute("alt", `${word}の店内`);
  await expect(cover).toHaveAttribute("srcset", /\/uploads\/\S+\.webp 400w, .+ 800w, .+ 1600w$/);
  // The browser picked one of the sizes and loaded it.
  await expect
    .poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await expect(visitorPage.getByText("ジャーニーカット").first()).toBeVisible();
  await expect(visitorPage.getByText("旅野 未来").first()).toBeVisible();
  // A full load answers 200, not only the client-side navigation.
  expect((await visitorPage.request.get(`/salons/${slug}`)).status()).toBe(200);
  await visitor.close();
});
