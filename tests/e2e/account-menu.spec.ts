import { expect, test } from "./fixtures";

for (const width of [375, 1280]) {
  test(`at ${width} px a member's account menu leads to 予約履歴 and お気に入り, and closes after a link`, async ({
    page,
    login,
    axe,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await login();
    await page.goto("/");
    const menu = page.getByRole("navigation", { name: "アカウント" });
    await menu.locator("summary").click();
    await expect(menu.getByRole("link")).toHaveText(["予約履歴", "お気に入り", "アカウント編集"]);
    await expect(menu.getByRole("link", { name: "管理画面" })).toHaveCount(0);
    await axe.check();

    await menu.getByRole("link", { name: "予約履歴" }).click();
    await expect(page).toHaveURL(/\/account\/history$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("予約履歴");
    await expect(menu.getByRole("link", { name: "お気に入り" })).toBeHidden();

    await menu.locator("summary").click();
    await menu.getByRole("link", { name: "お気に入り" }).click();
    await expect(page).toHaveURL(/\/account\/favorite$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("お気に入りサロン");
  });
}

test("an administrator's account menu also leads to the back office", async ({ page, login }) => {
  await login({ role: "admin" });
  await page.goto("/");
  const menu = page.getByRole("navigation", { name: "アカウント" });
  await menu.locator("summary").click();
  await expect(menu.getByRole("link")).toHaveText([
    "予約履歴",
    "お気に入り",
    "アカウント編集",
    "管理画面",
  ]);
  await menu.getByRole("link", { name: "管理画面" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("管理ホーム");
});
