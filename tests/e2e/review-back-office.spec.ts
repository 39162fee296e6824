import type { Page } from "@playwright/test";
import { signIn } from "./account-helpers";
import { expect, test } from "./fixtures";
import { axeAtEveryWidth, DEMO_OWNER } from "./owner-helpers";

/**
 * The back office's review screens (issue 30, point 2; decision 0056):
 * the salon's 口コミ and the administrator's 口コミの管理, checked with
 * axe-core at three widths, at 320 px, and by keyboard: a refused submit
 * (nothing typed) focuses its error summary. Nothing is saved, so the demo
 * data other specs read stays as it is.
 */

async function fitsNarrowScreen(page: Page) {
  await page.setViewportSize({ width: 320, height: 800 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the salon's 口コミ: the list with reply forms, axe-clean, 320 px, an empty reply refused by keyboard", async ({
  page,
}) => {
  // Several pages with an axe run each: more than the default 30 s on CI's 2-core machine.
  test.setTimeout(90_000);
  await signIn(page, DEMO_OWNER.email, DEMO_OWNER.password);
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  await page.goto("/owner");
  await page
    .getByRole("navigation", { name: "サロン管理メニュー" })
    .getByRole("link", { name: "口コミ", exact: true })
    .click();
  await expect(page).toHaveURL(/\/owner\/salons\/[0-9a-f-]{36}\/reviews$/);
  await expect(page.getByRole("heading", { level: 1, name: "口コミ" })).toBeVisible();
  const first = page.locator("main article").first();
  await expect(first.getByText("来店済み")).toBeVisible();
  await axeAtEveryWidth(page);
  await fitsNarrowScreen(page);

  const text = first.getByRole("textbox");
  await text.fill("");
  await text.focus();
  await page.keyboard.press("Tab");
  const submit = first.getByRole("button", { name: /^返信(する|を更新する)$/ });
  await expect(submit).toBeFocused();
  await page.keyboard.press("Enter");
  const summary = page.getByRole("alert").filter({ hasText: "返信を入力してください" });
  await expect(summary).toBeFocused();
  await axeAtEveryWidth(page);

  await page.getByRole("link", { name: /^未返信のみ/ }).click();
  await expect(page).toHaveURL(/\?filter=unanswered$/);
  await expect(page.getByRole("link", { name: /^未返信のみ/ })).toHaveAttribute(
    "aria-current",
    "page",
  );
});

test("the administrator's 口コミの管理: each view axe-clean, 320 px, 非表示 without a note refused by keyboard", async ({
  page,
  login,
}) => {
  // Several pages with an axe run each: more than the default 30 s on CI's 2-core machine.
  test.setTimeout(90_000);
  await login({ role: "admin" });
  await page.goto("/admin");
  await page
    .getByRole("navigation", { name: "管理メニュー" })
    .getByRole("link", { name: "口コミ", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "口コミの管理" })).toBeVisible();
  await axeAtEveryWidth(page);
  await page.getByRole("link", { name: "非表示", exact: true }).click();
  await expect(page).toHaveURL(/view=hidden/);
  await axeAtEveryWidth(page);

  await page.getByRole("link", { name: "サロンで探す" }).click();
  await expect(page).toHaveURL(/view=all/);
  const first = page.locator("main article").first();
  await expect(first.getByText("来店済み")).toBeVisible();
  await axeAtEveryWidth(page);
  await fitsNarrowScreen(page);

  await first.getByLabel("メモ（操作の理由）").focus();
  await page.keyboard.press("Tab");
  await expect(first.getByRole("button", { name: "非表示にする" })).toBeFocused();
  await page.keyboard.press("Enter");
  const summary = page
    .getByRole("alert")
    .filter({ hasText: "非表示にする理由をメモに入力してください" });
  await expect(summary).toBeFocused();
  await expect(
    page.locator("main article").first().getByText("非表示", { exact: true }),
  ).toHaveCount(0);
});
