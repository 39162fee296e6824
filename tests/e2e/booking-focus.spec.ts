import { pickDay } from "./booking-helpers";
import { expect, test } from "./fixtures";

/** A salon page opened as a document (the way a visitor arrives from a search engine). */
async function openSalon(page: import("@playwright/test").Page) {
  await page.goto("/salons/search?genre=hair");
  const href = await page
    .locator('main article h3 a[href^="/salons/"]')
    .first()
    .getAttribute("href");
  await page.goto(href ?? "/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

for (const width of [375, 1280]) {
  test(`at ${width} px focus follows the booking: the page's heading, the times, the confirmation step`, async ({
    page,
    axe,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 800 });
    await openSalon(page);
    await page
      .getByRole("link", { name: /を予約する$/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/confirm\?/);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    await axe.check();

    await pickDay(page, 3);
    await expect(page.getByRole("heading", { name: /4\. 時間を選ぶ/ })).toBeFocused();
    await page
      .getByRole("button", { name: /から予約する$/ })
      .first()
      .click();
    await expect(page).toHaveURL(/hold=/);
    await expect(page.getByRole("heading", { name: /5\. 内容を確認して/ })).toBeFocused();
    await axe.check();
  });
}

test("a coupon's price shows on the salon page and from the booking's first step", async ({
  page,
  axe,
}) => {
  await openSalon(page);
  const coupons = page.getByRole("region", { name: "クーポン" });
  await expect(coupons.getByText(/通常.*クーポン適用で|対象：全メニュー/).first()).toBeVisible();
  await coupons
    .getByRole("link", { name: /^このクーポンで予約/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(page.getByText(/クーポン適用 ￥[\d,]+/).first()).toBeVisible();
  await axe.check();
});
