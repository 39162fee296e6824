import type { Browser, Page } from "@playwright/test";
import { pickDay } from "./booking-helpers";
import { expect, test } from "./fixtures";

/** The first hair salon's booking page, from its first 予約する link (one menu ticked). */
async function openBooking(page: Page) {
  await page.goto("/salons/search?genre=hair");
  const href = await page
    .locator('main article h3 a[href^="/salons/"]')
    .first()
    .getAttribute("href");
  await page.goto(href ?? "/");
  await page
    .getByRole("link", { name: /を予約する$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/confirm\?menu=/);
  await expect(page.getByRole("heading", { name: /1\. メニューを選ぶ/ })).toBeVisible();
}

/** Ticks the first menu not ticked yet; returns its name. */
async function tickSecondMenu(page: Page) {
  const unticked = page.getByRole("checkbox").and(page.locator(":not(:checked)")).first();
  const label = page.locator("label").filter({ has: unticked });
  const name = (await label.locator("span.font-bold").first().textContent())?.trim() ?? "";
  await unticked.check();
  return name;
}

/** The menus the confirmation step lists. */
function summaryMenus(page: Page) {
  return page.locator("dt", { hasText: "メニュー" }).locator("+ dd li");
}

const menuCount = (page: Page) => new URL(page.url()).searchParams.getAll("menu").length;

for (const width of [375, 1280]) {
  test(`at ${width} px a second menu ticked after the day is what the times are for and what is held`, async ({
    page,
    axe,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 800 });
    await openBooking(page);
    const first = await pickDay(page, 3);
    await expect(page.getByRole("button", { name: /から予約する$/ }).first()).toBeVisible();

    const second = await tickSecondMenu(page);
    await expect(page.getByText(/選択中 2件/)).toBeVisible();
    // The times were for one menu: none is offered until they are computed for both.
    await expect(page.getByRole("button", { name: /から予約する$/ })).toHaveCount(0);
    await expect(page.getByText(/メニューが変わりました/)).toBeVisible();
    await axe.check();

    // Picking a day (without pressing the menu button) shows that day's times for both.
    await pickDay(page, 3, first);
    expect(menuCount(page)).toBe(2);
    await page
      .getByRole("button", { name: /から予約する$/ })
      .first()
      .click();
    await expect(page).toHaveURL(/hold=/);
    await expect(summaryMenus(page)).toHaveCount(2);
    await expect(summaryMenus(page).filter({ hasText: second })).toHaveCount(1);
  });

  test(`at ${width} px without JavaScript a time picked with a second menu ticked is never held for one`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const context = await (browser as Browser).newContext({
      javaScriptEnabled: false,
      viewport: { width, height: 800 },
    });
    const page = await context.newPage();
    await openBooking(page);
    await page
      .getByRole("link", { name: /空きあり$/ })
      .nth(3)
      .click();
    await expect(page).toHaveURL(/date=/);
    const second = await tickSecondMenu(page);
    await page
      .getByRole("button", { name: /から予約する$/ })
      .first()
      .click();
    // Not held: the times of that day for both menus, with a notice.
    await expect(page).not.toHaveURL(/hold=/);
    expect(menuCount(page)).toBe(2);
    await expect(
      page.getByRole("status").filter({ hasText: /選んだメニューが変わった/ }),
    ).toBeVisible();
    await expect(page.getByRole("checkbox").and(page.locator(":checked"))).toHaveCount(2);
    // The calendar is now drawn for both menus; the day picked for one may have no time for both
    // (the demo data's bookings depend on the date the suite runs): another free day then.
    const times = page.getByRole("button", { name: /から予約する$/ });
    if ((await times.count()) === 0) {
      await page
        .getByRole("link", { name: /空きあり$/ })
        .first()
        .click();
    }
    await times.first().click();
    await expect(page).toHaveURL(/hold=/);
    await expect(summaryMenus(page)).toHaveCount(2);
    await expect(summaryMenus(page).filter({ hasText: second })).toHaveCount(1);
    await context.close();
  });

  test(`at ${width} px an expired hold says so when the countdown ends and goes back to the times with everything kept`, async ({
    page,
    login,
    axe,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 800 });
    await page.clock.install();
    await login();
    await openBooking(page);
    await tickSecondMenu(page);
    await page.getByRole("button", { name: "このメニューで空き状況を見る" }).click();
    await expect(page).toHaveURL(/menu=.*menu=/);
    // A day of each run's own: the other runs' holds are still live on the server.
    const date = await pickDay(page, width === 375 ? 12 : 20);
    const pickUrl = new URL(page.url());
    await page
      .getByRole("button", { name: /から予約する$/ })
      .first()
      .click();
    await expect(page).toHaveURL(/hold=/);
    await page.getByLabel("サロンへのご要望（任意）").fill("前髪は眉の上で");
    await page.getByLabel("電話番号").fill("080-1111-2222");

    // Eleven minutes on the page's clock: the notice, before anything is pressed.
    await page.clock.fastForward("11:00");
    const notice = page.getByRole("alert").filter({ hasText: /お取り置きの時間が過ぎた/ });
    await expect(notice).toBeVisible();
    await expect(notice).toBeFocused();
    await axe.check();
    await notice.getByRole("link", { name: "時間を選び直す" }).click();

    // The time step of the same menus, stylist and day.
    await expect(page).not.toHaveURL(/hold=/);
    const back = new URL(page.url());
    expect(back.searchParams.getAll("menu")).toEqual(pickUrl.searchParams.getAll("menu"));
    expect(back.searchParams.get("date")).toBe(date);
    await expect(page.getByRole("heading", { name: /4\. 時間を選ぶ/ })).toBeFocused();
    await expect(page.getByRole("checkbox").and(page.locator(":checked"))).toHaveCount(2);
    // What was typed stays while the visitor picks another day, then a time.
    await pickDay(page, width === 375 ? 12 : 20, date);
    await page
      .getByRole("button", { name: /から予約する$/ })
      .first()
      .click();
    await expect(page).toHaveURL(/hold=/);
    await expect(page.getByLabel("サロンへのご要望（任意）")).toHaveValue("前髪は眉の上で");
    await expect(page.getByLabel("電話番号")).toHaveValue("080-1111-2222");
    await expect(summaryMenus(page)).toHaveCount(2);
  });
}
