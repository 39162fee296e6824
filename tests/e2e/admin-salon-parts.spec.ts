import { salonId } from "../../server/db/seed/generate";
import { notice, typeInto } from "./admin-helpers";
import { expect, test } from "./fixtures";

// The salon editor's スタッフ, メニュー and クーポン tabs on a seeded salon
// (the last one, which no other spec books or edits).
const SALON = salonId(300);

test("an admin adds a menu and a stylist with a weekly schedule, by keyboard; each tab is axe-clean", async ({
  page,
  login,
  axe,
}) => {
  // A dozen page loads on a shared 2-core machine.
  test.setTimeout(90_000);
  await login({ role: "admin" });

  // ── メニュー ──
  await page.goto(`/admin/salons/edit/${SALON}/menus`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("の編集");
  await expect(page.getByRole("link", { name: "メニュー", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await axe.check();
  // An empty save: the error summary takes focus and lists the problems in Japanese.
  const addMenu = page.getByRole("button", { name: "メニューを追加" });
  await addMenu.focus();
  await page.keyboard.press("Enter");
  const summary = page.getByRole("alert");
  await expect(summary).toContainText("カテゴリを入力してください。");
  await expect(summary).toBeFocused();
  await axe.check();
  await typeInto(page, /^カテゴリ/, "ヘッドスパ");
  await typeInto(page, /^メニュー名/, "炭酸ヘッドスパ E2E");
  await typeInto(page, /^料金/, "4400");
  // The duration keeps its default (1時間); Enter in a text field submits the form.
  await page.keyboard.press("Enter");
  await expect(notice(page)).toContainText("メニューを追加しました。");
  const menuRow = page.getByRole("row", { name: /炭酸ヘッドスパ E2E/ });
  await expect(menuRow).toContainText("￥4,400");
  await expect(menuRow).toContainText("全スタッフ");
  await axe.check();

  // ── スタッフ ──
  await page.getByRole("link", { name: "スタッフ", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/admin/salons/edit/${SALON}/staff$`));
  await axe.check();
  await typeInto(page, /^名前/, "E2E 花子");
  await typeInto(page, /^フリガナ/, "いーつーいー はなこ");
  await typeInto(page, /^役職/, "スタイリスト");
  await typeInto(page, /^経験年数/, "3");
  await page.keyboard.press("Enter");
  await expect(notice(page)).toContainText("スタッフを追加しました。");
  await expect(page).toHaveURL(/staff=[0-9a-f-]{36}/);
  await expect(page.getByRole("heading", { name: "E2E 花子さんのプロフィール" })).toBeVisible();
  await axe.check();

  // Mondays 10:00–14:00 and 15:00–19:00 (a break), Saturdays 11:00–18:00.
  // Time inputs are filled whole (their segments differ by locale); no mouse is used.
  const schedule = page.getByRole("form", { name: "新しい勤務パターン" });
  await schedule.getByLabel("月曜日 時間帯1の開始").fill("10:00");
  await schedule.getByLabel("月曜日 時間帯1の終了").fill("14:00");
  await schedule.getByLabel("月曜日 時間帯2の開始").fill("15:00");
  await schedule.getByLabel("月曜日 時間帯2の終了").fill("19:00");
  await schedule.getByLabel("土曜日 時間帯1の開始").fill("11:00");
  await schedule.getByLabel("土曜日 時間帯1の終了").fill("18:00");
  await schedule.getByRole("button", { name: "勤務パターンを追加" }).focus();
  await page.keyboard.press("Enter");
  await expect(notice(page)).toContainText("勤務パターンを保存しました。");
  const saved = page.getByRole("form", { name: /勤務パターン（期間の定めなし）/ });
  await expect(saved.getByLabel("月曜日 時間帯2の開始")).toHaveValue("15:00");
  await expect(saved.getByLabel("土曜日 時間帯1の終了")).toHaveValue("18:00");
  await axe.check();

  // A day off next week.
  const nextWeek = new Intl.DateTimeFormat("sv-SE", { timeZone: "Asia/Tokyo" }).format(
    new Date(Date.now() + 7 * 86_400_000),
  );
  const exception = page.getByRole("form", { name: "休み・臨時の勤務を追加" });
  await exception.getByLabel(/^日付/).fill(nextWeek);
  await exception.getByRole("button", { name: "追加する" }).focus();
  await page.keyboard.press("Enter");
  await expect(notice(page)).toContainText("勤務の例外を追加しました。");
  await expect(page.getByRole("table", { name: "今日以降の休み・臨時の勤務" })).toContainText(
    "休み",
  );
  await axe.check();

  // ── クーポン ──
  await page.getByRole("link", { name: "クーポン", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/admin/salons/edit/${SALON}/coupons$`));
  await axe.check();

  // The public salon page's tabs show the new menu and stylist (issue 31: each on its own tab).
  await page.getByRole("link", { name: "公開ページを見る" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/salons\/[a-z0-9-]+$/);
  const tabs = page.getByRole("navigation", { name: "サロン内のページ" });
  await tabs.getByRole("link", { name: "クーポン・メニュー" }).click();
  await expect(page).toHaveURL(/\/salons\/[a-z0-9-]+\/coupons$/);
  await expect(page.getByText("炭酸ヘッドスパ E2E").first()).toBeVisible();
  await tabs.getByRole("link", { name: "スタッフ" }).click();
  await expect(page).toHaveURL(/\/salons\/[a-z0-9-]+\/stylists$/);
  await expect(page.getByText("E2E 花子").first()).toBeVisible();
});

test("a save from a stale page is refused in Japanese, keeps what was typed and offers the latest content", async ({
  page,
  browser,
  login,
}) => {
  test.setTimeout(60_000);
  const account = await login({ role: "admin" });
  await page.goto(`/admin/salons/edit/${SALON}/coupons`);
  await expect(page.getByRole("heading", { name: "クーポンを追加" })).toBeVisible();

  // Another admin saves first, in another browser.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const response = await otherPage.request.post("/api/test/login", {
    data: { role: "admin" },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBe(201);
  await otherPage.goto(`/admin/salons/edit/${SALON}/menus`);
  const first = otherPage.getByRole("row").nth(1);
  await first.getByRole("button", { name: /^下へ/ }).click();
  await expect(notice(otherPage)).toContainText("並び順を変更しました。");
  await other.close();

  await typeInto(page, /^クーポン名/, "古い画面からのクーポン");
  await typeInto(page, /^割引の値/, "500");
  await page.keyboard.press("Enter");
  const summary = page.getByRole("alert");
  await expect(summary).toContainText("他の管理者がこのサロンを更新しました");
  await expect(summary).toBeFocused();
  await expect(page.getByLabel(/^クーポン名/)).toHaveValue("古い画面からのクーポン");
  await expect(page.getByLabel(/^割引の値/)).toHaveValue("500");
  // Saving again from the same page is refused again; the latest content is one link away.
  await page.getByRole("link", { name: "最新の内容を表示する" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert")).toHaveCount(0);
  await typeInto(page, /^クーポン名/, "最新の画面からのクーポン");
  await typeInto(page, /^割引の値/, "500");
  await page.keyboard.press("Enter");
  await expect(notice(page)).toContainText("クーポンを追加しました。");
  expect(account.role).toBe("admin");
});
