import type { Page } from "@playwright/test";
import { pickDay } from "./booking-helpers";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/**
 * From the search, the first hair salon's first 予約する link, then its first
 * named stylist (with 指名なし another stylist could still take the time).
 */
async function openBookingWithStylist(page: Page) {
  await page.goto("/salons/search?genre=hair");
  await page.locator('main article h3 a[href^="/salons/"]').first().click();
  await expect(page).toHaveURL(/\/salons\/[a-z0-9-]+$/);
  await page
    .getByRole("link", { name: /を予約する$/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: /ご予約/ })).toBeVisible();
  await page.getByRole("group", { name: "担当スタッフ" }).getByRole("radio").nth(1).check();
  await page.getByRole("button", { name: "このスタッフで空き状況を見る" }).click();
  await expect(page).toHaveURL(/staff=/);
}

test("a time held in one browser vanishes from another's booking page without a reload, and comes back when released", async ({
  page,
  browser,
  axe,
  login,
}) => {
  test.setTimeout(120_000);
  // Signed in: picking another time then releases this visitor's first hold.
  await login();
  await openBookingWithStylist(page);
  // Day 7 and on: no other spec books this salon then (booking.spec takes day 3 at the same salon).
  const date = await pickDay(page, 7);
  const times = page.getByRole("button", { name: /から予約する$/ });
  await expect(times.first()).toBeVisible();
  const dayUrl = page.url();

  // The second visitor opens the same day and waits for its live stream to answer.
  const other = await browser.newContext();
  const second = await other.newPage();
  const streamed = second.waitForResponse(
    (response) => response.url().includes("/availability/stream") && response.status() === 200,
  );
  await second.goto(dayUrl);
  await streamed;
  const label = (await times.first().getAttribute("aria-label")) ?? "";
  const time = label.match(/(\d{2}:\d{2})から予約する$/)?.[1] ?? "";
  expect(time).not.toBe("");
  const secondTime = second.getByRole("button", { name: label, exact: true });
  await expect(secondTime).toBeVisible();
  // A mark on the window: it survives only if the page is not reloaded.
  await second.evaluate(() => {
    (window as unknown as { liveMark: string }).liveMark = "same page";
  });

  // The first visitor picks (and so holds) the time.
  await times.first().click();
  await expect(page).toHaveURL(/hold=/);

  await expect(secondTime).toHaveCount(0);
  await expect(
    second.getByRole("status").filter({ hasText: "は他の方が予約しました" }),
  ).toContainText(new RegExp(`${time}.*は他の方が予約しました`)); // with the times it overlaps
  expect(second.url()).toBe(dayUrl);
  expect(await second.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe(
    "same page",
  );
  await expectNoAxeViolations(second);
  await axe.check();

  // The first visitor changes their mind: another day's time releases the first hold.
  await page.getByRole("link", { name: "日時やメニューを選び直す" }).click();
  await pickDay(page, 7, date);
  await page
    .getByRole("button", { name: /から予約する$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/hold=/);

  await expect(secondTime).toBeVisible();
  await expect(second.getByRole("status").filter({ hasText: "が空きました" })).toContainText(
    new RegExp(`${time}.*が空きました`),
  );
  expect(await second.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe(
    "same page",
  );
  await other.close();
});
