import type { Page } from "@playwright/test";
import { expectMailCount } from "../support/mail-capture";
import {
  completeProfile,
  exactLabel,
  newEmail,
  signIn,
  signUp,
  verifiedUser,
} from "./account-helpers";
import { expect, test } from "./fixtures";

/** Issue 14 point 8: what a newcomer met on the running site. */

/** Records, from now on, whether the start overlay is ever added to the page again. */
async function watchOverlay(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { overlaySeen: boolean };
    w.overlaySeen = false;
    new MutationObserver(() => {
      if (document.getElementById("loading-overlay")) w.overlaySeen = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { overlaySeen: boolean }).overlaySeen);
}

test("the start overlay shows once per page load, not again between the 404 screen and pages", async ({
  page,
}) => {
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "ページが見つかりません" })).toBeVisible();
  const overlay = page.locator("#loading-overlay");
  await expect(overlay).toHaveCount(0, { timeout: 5000 });
  const overlaySeen = await watchOverlay(page);
  await page.getByRole("link", { name: "トップへ" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Back to the 404 screen, again a client navigation that swaps the layout.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "ページが見つかりません" })).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(/\/$/);
  expect(await overlaySeen()).toBe(false);
  // A full load shows it again.
  await page.reload();
  await expect(overlay).toBeVisible();
});

test("a wrong current password is named on its field and the error summary takes focus", async ({
  page,
  axe,
}) => {
  await verifiedUser(page, "wrongcurrent");
  await completeProfile(page);
  await page.goto("/account/edit/change-password");
  await expect(page.locator("#loading-overlay")).toHaveCount(0, { timeout: 5000 });
  await page.getByLabel("現在のパスワード").fill("not-my-password");
  await page.getByLabel(exactLabel("新しいパスワード")).fill("secret2");
  await page.getByLabel("新しいパスワード（確認用）").fill("secret2");
  await page.getByRole("button", { name: "パスワードを変更する" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "入力内容を確認してください" });
  await expect(summary).toContainText("現在のパスワードが正しくありません");
  await expect(summary).toBeFocused();
  const current = page.getByLabel("現在のパスワード");
  await expect(current).toHaveAttribute("aria-invalid", "true");
  await expect(current).toHaveAccessibleDescription(/現在のパスワードが正しくありません/);
  await axe.check();
});

test("確認メールを再送する after sign-up sends the mail with one click", async ({ page }) => {
  const email = newEmail("resend");
  await signUp(page, email);
  await expect(page.locator("#loading-overlay")).toHaveCount(0, { timeout: 5000 });
  await page.getByRole("button", { name: "確認メールを再送する" }).click();
  await expect(page.getByRole("heading", { name: "確認メールを再送しました" })).toBeVisible();
  await expectMailCount(email, "メールアドレスの確認", 2);
});

test("changing the theme keeps the scroll position", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto("/user-policy");
  await expect(page.locator("#loading-overlay")).toHaveCount(0, { timeout: 5000 });
  const dark = page.getByRole("button", { name: "ダーク" });
  await dark.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  expect(before).toBeGreaterThan(100);
  await dark.click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(dark).toHaveAttribute("aria-pressed", "true");
  // Wait for the navigation that follows the action to settle.
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => window.scrollY)).toBe(before);
});

test("Japanese headings break between phrases, in a document marked as Japanese", async ({
  page,
}) => {
  await page.goto("/user-policy");
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  for (const level of [1, 2]) {
    const heading = page.getByRole("heading", { level }).first();
    expect(await heading.evaluate((el) => getComputedStyle(el).wordBreak)).toBe("auto-phrase");
  }
});

test("at 320 px a long address in the header's account button does not overflow", async ({
  page,
}) => {
  // No hyphen or dot to wrap at before the domain: the longest line a real address gives.
  const email = `averylongaddressforthemenu${Date.now()}${Math.floor(Math.random() * 1e6)}@example.jp`;
  await signUp(page, email);
  await signIn(page, email, "secret1");
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  // Signed in, no profile yet: the menu shows the address.
  await page.setViewportSize({ width: 320, height: 640 });
  const button = page.locator("header summary");
  await expect(button).toBeVisible();
  await expect(button).toHaveAccessibleName(
    new RegExp(`^アカウントメニュー：\\s*${email.replace(/\./g, "\\.")}\\s*様$`),
  );
  const right = await button.evaluate((el) => el.getBoundingClientRect().right);
  expect(right).toBeLessThanOrEqual(320);
  expect(await button.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test("すべての端末からログアウト asks first, then signs every device out", async ({
  page,
  browser,
}) => {
  const email = await verifiedUser(page, "everywhere");
  await completeProfile(page);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, email, "secret1");
  await expect(otherPage.getByText("山田 花子 様")).toBeVisible();

  await page.goto("/account/edit");
  await page.getByText("すべての端末からログアウトする", { exact: true }).click();
  const confirm = page.getByRole("button", { name: "はい、すべての端末からログアウトする" });
  await expect(confirm).toBeVisible();
  // Opening the question changed nothing.
  await otherPage.reload();
  await expect(otherPage.getByText("山田 花子 様")).toBeVisible();
  await confirm.click();
  await expect(page.getByRole("link", { name: "ログイン", exact: true })).toBeVisible();
  await otherPage.reload();
  await expect(otherPage.getByRole("link", { name: "ログイン", exact: true })).toBeVisible();
  await other.close();
});

/** A day relative to today in Tokyo, as the date input takes it. */
const tokyoDay = (offsetDays: number) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone: "Asia/Tokyo" }).format(
    new Date(Date.now() + offsetDays * 24 * 3600 * 1000),
  );

test("a past day in the date filter is refused with a message, keeping what was typed", async ({
  page,
  axe,
}) => {
  await page.goto("/salons/search");
  await expect(page.locator("#loading-overlay")).toHaveCount(0, { timeout: 5000 });
  const form = page.getByRole("search", { name: "サロン検索条件" });
  const yesterday = tokyoDay(-1);
  await form.getByLabel("空席のある日").fill(yesterday);
  await form.getByRole("button", { name: "この条件で検索" }).click();
  await expect(page).toHaveURL(`/salons/search?date=${yesterday}`);
  const date = form.getByLabel("空席のある日");
  await expect(date).toHaveValue(yesterday);
  await expect(date).toHaveAttribute("aria-invalid", "true");
  await expect(date).toHaveAccessibleDescription(
    "空席のある日には今日以降の日付を選んでください。",
  );
  // Not searched: no chip for it.
  await expect(page.getByRole("link", { name: /に空席あり\s*の条件を外す/ })).toHaveCount(0);
  await axe.check();

  // A coming day is searched, its chip in Japanese form.
  const nextWeek = tokyoDay(7);
  await date.fill(nextWeek);
  await form.getByRole("button", { name: "この条件で検索" }).click();
  const shown = new Intl.DateTimeFormat("ja-JP", {
    year: "numeric",
    month: "long",
    day: "numeric",
    weekday: "short",
    timeZone: "Asia/Tokyo",
  }).format(new Date(`${nextWeek}T12:00:00+09:00`));
  await expect(
    page.getByRole("link", {
      name: new RegExp(`${shown.replace(/[()]/g, "\\$&")}に空席あり\\s*の条件を外す`),
    }),
  ).toBeVisible();
  await expect(date).not.toHaveAttribute("aria-invalid");
});

test("searches leave no empty parameters in the URL, with or without JavaScript", async ({
  page,
  browser,
}) => {
  // A shared link with empty fields is redirected to its short form.
  await page.goto("/salons/search?q=&pref=&genre=hair&date=");
  await expect(page).toHaveURL("/salons/search?genre=hair");
  await expect(page.locator("#loading-overlay")).toHaveCount(0, { timeout: 5000 });
  // The form sends only what was chosen.
  const form = page.getByRole("search", { name: "サロン検索条件" });
  await form.getByLabel("ジャンル").selectOption("nail");
  await form.getByRole("button", { name: "この条件で検索" }).click();
  await expect(page).toHaveURL("/salons/search?genre=nail");
  // After a search, focus is on the results heading with the count.
  const heading = page.getByRole("heading", { level: 2, name: /件中/ });
  await expect(heading).toBeFocused();

  const context = await browser.newContext({ javaScriptEnabled: false });
  const noJs = await context.newPage();
  await noJs.goto("/salons/search");
  await noJs.getByLabel("ジャンル").selectOption("eyelash");
  await noJs.getByRole("button", { name: "この条件で検索" }).click();
  await expect(noJs).toHaveURL("/salons/search?genre=eyelash");
  await context.close();
});

test("?page= past the last page shows the last page, or the empty state without results", async ({
  page,
}) => {
  await page.goto("/salons/search?genre=hair&page=400");
  await expect(page).toHaveURL(/\/salons\/search\?genre=hair&page=\d+$/);
  const last = Number(new URL(page.url()).searchParams.get("page"));
  expect(last).toBeGreaterThan(1);
  const heading = page.locator("#search-results-heading");
  await expect(heading).toContainText("件中");
  await expect(
    page.getByRole("navigation", { name: "ページ送り" }).locator('[aria-current="page"]'),
  ).toHaveText(String(last));
  await expect(page.locator('main article a[href^="/salons/"]').first()).toBeVisible();

  await page.goto("/salons/search?q=%E5%AD%98%E5%9C%A8%E3%81%97%E3%81%AA%E3%81%84&page=3");
  await expect(page).toHaveURL("/salons/search?q=%E5%AD%98%E5%9C%A8%E3%81%97%E3%81%AA%E3%81%84");
  await expect(heading).toHaveText("条件に合うサロンは見つかりませんでした");
});

test("the area list narrows to the chosen prefecture, with or without JavaScript", async ({
  page,
  browser,
}) => {
  await page.goto("/salons/search");
  await expect(page.locator("#loading-overlay")).toHaveCount(0, { timeout: 5000 });
  const form = page.getByRole("search", { name: "サロン検索条件" });
  const prefecture = form.getByLabel("都道府県");
  const groups = form.getByLabel("エリア").locator("optgroup");
  expect(await groups.count()).toBeGreaterThan(1);
  const [slug, name] = await prefecture
    .locator("option")
    .nth(1)
    .evaluate((option) => [(option as HTMLOptionElement).value, option.textContent ?? ""]);
  await prefecture.selectOption(slug ?? "");
  await expect(groups).toHaveCount(1);
  await expect(groups).toHaveAttribute("label", name ?? "");

  const context = await browser.newContext({ javaScriptEnabled: false });
  const noJs = await context.newPage();
  await noJs.goto(`/salons/search?pref=${slug}`);
  const noJsGroups = noJs.getByLabel("エリア").locator("optgroup");
  await expect(noJsGroups).toHaveCount(1);
  await expect(noJsGroups).toHaveAttribute("label", name ?? "");
  await context.close();
});

test("review visit days are shown in Japanese form", async ({ page }) => {
  await page.goto("/salons/search?genre=hair&sort=rating");
  await page.locator('main article a[href^="/salons/"]').first().click();
  const reviews = page.getByRole("region", { name: /口コミ（\d+件）/ });
  await expect(
    reviews.getByText(/\d{4}年\d{1,2}月\d{1,2}日\([月火水木金土日]\)来店/).first(),
  ).toBeVisible();
  await expect(reviews.getByText(/\d{4}-\d{2}-\d{2}来店/)).toHaveCount(0);
});
