import type { Browser, Page } from "@playwright/test";
import { completeProfile, exactLabel, signIn, verifiedUser } from "./account-helpers";
import { mailCalendar, pickDay } from "./booking-helpers";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/** A verified member with a completed profile, created in its own browser; returns the email. */
async function newMember(browser: Browser, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = await verifiedUser(page, name);
  await completeProfile(page);
  await expect(page.getByRole("heading", { name: "登録ありがとうございます" })).toBeVisible();
  await context.close();
  return email;
}

/** The first salon of the search results, opened through the UI. */
async function openFirstSalon(page: Page) {
  await page.goto("/salons/search?genre=hair");
  const link = page.locator('main article h3 a[href^="/salons/"]').first();
  const name = (await link.textContent())?.trim() ?? "";
  await link.click();
  await expect(page).toHaveURL(/\/salons\/[a-z0-9-]+$/);
  // The URL changes before the salon page replaces the results: wait for its heading.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  return new URL(page.url()).pathname;
}

test("a guest picks a menu, 指名なし, a day and a time, signs in, confirms, sees it in the history, cancels, and the time is free again", async ({
  page,
  browser,
  axe,
}) => {
  test.setTimeout(120_000);
  const email = await newMember(browser, "booking");
  await openFirstSalon(page);
  const salonName = (await page.getByRole("heading", { level: 1 }).textContent())?.trim() ?? "";
  await page
    .getByRole("link", { name: /を予約する$/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: /ご予約/ })).toBeVisible();
  await expect(page.getByRole("checkbox").and(page.locator(":checked"))).toHaveCount(1);
  await expect(page.getByRole("radio", { name: /指名なし/ })).toBeChecked();
  await axe.check();

  const date = await pickDay(page, 3);
  const times = page.getByRole("button", { name: /から予約する$/ });
  await expect(times.first()).toBeVisible();
  await expect(page.getByRole("heading", { name: /4\. 時間を選ぶ/ })).toBeFocused();
  const timeName = (await times.first().getAttribute("aria-label")) ?? "";
  const pickUrl = page.url();
  await axe.check();
  await times.first().click();

  await expect(page).toHaveURL(/hold=/);
  await expect(page.getByText(/残り約\d+分/)).toBeVisible();
  await expect(page.getByText("予約を確定するには、ログインしてください。")).toBeVisible();
  await axe.check();
  await page.getByRole("link", { name: "ログインして予約を続ける" }).click();
  await page.getByLabel(exactLabel("メールアドレス")).fill(email);
  await page.getByLabel(exactLabel("パスワード")).fill("secret1");
  await page.getByRole("button", { name: "ログイン", exact: true }).click();

  await expect(page).toHaveURL(/hold=/);
  await expect(page.getByLabel(exactLabel("お名前"))).toHaveValue("山田 花子");
  await expect(page.getByLabel(exactLabel("メールアドレス"))).toHaveValue(email);
  await axe.check();
  await page.getByLabel("サロンへのご要望（任意）").fill("前髪は短めでお願いします");
  await page.getByRole("button", { name: "予約を確定する" }).click();

  await expect(page.getByRole("heading", { name: "ご予約が確定しました" })).toBeVisible();
  const number = (await page.getByTestId("booking-number").textContent()) ?? "";
  expect(number).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /カレンダーに追加する/ }).click();
  expect((await download).suggestedFilename()).toBe(`booking-${number}.ics`);
  await axe.check();

  // The confirmation mail's .ics parses, as a calendar program would read it.
  const bookingId = new URL(page.url()).searchParams.get("booking") ?? "";
  const ics = await mailCalendar(email, "ご予約が確定しました");
  expect(ics.method).toBe("REQUEST");
  expect(ics.uid).toMatch(new RegExp(`^${bookingId}@`));
  expect(ics.startTzid).toBe("Asia/Tokyo");
  expect(ics.timeZones).toContain("Asia/Tokyo");
  expect(ics.startLocal).toBe(
    `${date} ${timeName.match(/(\d{1,2}:\d{2})/)?.[1]?.padStart(5, "0")}`,
  );
  expect(ics.summary).toContain(salonName);
  expect(ics.summary).toContain("ご予約");

  await page.getByRole("link", { name: "予約履歴を見る" }).click();
  await expect(page.getByRole("heading", { name: "予約履歴" })).toBeVisible();
  await expect(page.getByText(`予約番号 ${number}`)).toBeVisible();
  await axe.check();
  await page.getByRole("link", { name: `予約番号${number}の詳細を見る` }).click();
  await page.getByRole("link", { name: "この予約をキャンセルする" }).click();
  await page.getByLabel("キャンセルの理由（任意）").fill("予定が入ったため");
  await axe.check();
  await page.getByRole("button", { name: "キャンセルを確定する" }).click();
  await expect(page.getByText("ご予約をキャンセルしました。")).toBeVisible();
  await expect(page.getByText("キャンセル済み").first()).toBeVisible();

  const again = await page.goto(pickUrl);
  // A personal page is never cached (it may show a hold or contact details).
  expect(again?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page).toHaveURL(new RegExp(`date=${date}`));
  await expect(page.getByRole("button", { name: timeName })).toBeVisible();
});

test("the whole booking by keyboard alone", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = await newMember(browser, "keyboard");
  await signIn(page, email, "secret1");
  await expect(page.getByText("山田 花子 様")).toBeVisible();
  await openFirstSalon(page);
  await page
    .getByRole("link", { name: /を予約する$/ })
    .first()
    .focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /1\. メニューを選ぶ/ })).toBeVisible();

  // Tab to the calendar: focus lands on a selectable day; Enter picks it.
  const calendar = page.getByRole("application", { name: /ご来店日/ });
  await expect(calendar).toBeVisible();
  for (let step = 0; step < 80; step++) {
    await page.keyboard.press("Tab");
    if (await calendar.locator('[role="button"]:focus').count()) break;
  }
  await expect(calendar.locator('[role="button"]:focus')).toHaveCount(1);
  // Move right until the focused day can be picked.
  for (let step = 0; step < 40; step++) {
    const focused = calendar.locator('[role="button"]:focus');
    if ((await focused.getAttribute("data-unavailable")) === null) break;
    await page.keyboard.press("ArrowRight");
  }
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/date=/);
  await expect(page.getByRole("heading", { name: /4\. 時間を選ぶ/ })).toBeFocused();

  const firstTime = page.getByRole("button", { name: /から予約する$/ }).first();
  for (let step = 0; step < 10; step++) {
    await page.keyboard.press("Tab");
    if (await firstTime.evaluate((element) => element === document.activeElement)) break;
  }
  await expect(firstTime).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/hold=/);

  const confirm = page.getByRole("button", { name: "予約を確定する" });
  for (let step = 0; step < 30; step++) {
    await page.keyboard.press("Tab");
    if (await confirm.evaluate((element) => element === document.activeElement)) break;
  }
  await expect(confirm).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "ご予約が確定しました" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "ご予約が確定しました" })).toBeFocused();
});

test("the whole booking without JavaScript", async ({ browser }) => {
  test.setTimeout(120_000);
  const email = await newMember(browser, "nojs");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, email, "secret1");
  await expect(page.getByText("山田 花子 様")).toBeVisible();
  await openFirstSalon(page);
  await page
    .getByRole("link", { name: /を予約する$/ })
    .first()
    .click();

  // Change the menus with the GET form: the page reloads with the choice in the URL.
  await page.getByRole("button", { name: "このメニューで空き状況を見る" }).click();
  await expect(page).toHaveURL(/menu=/);
  await page.getByRole("button", { name: "このスタッフで空き状況を見る" }).click();
  await page
    .getByRole("link", { name: /空きあり$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/date=/);
  await page
    .getByRole("button", { name: /から予約する$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/hold=/);
  await expect(page.getByText(/残り約\d+分/)).toBeVisible();

  // A bad phone number is refused with the entered note kept.
  await page.getByLabel("電話番号").fill("12");
  await page.getByLabel("サロンへのご要望（任意）").fill("初めてです");
  await page.getByRole("button", { name: "予約を確定する" }).click();
  await expect(page.getByText(/電話番号は市外局番から/).first()).toBeVisible();
  await expect(page.getByLabel("サロンへのご要望（任意）")).toHaveValue("初めてです");
  await page.getByLabel("電話番号").fill("090-1234-5678");
  await page.getByRole("button", { name: "予約を確定する" }).click();
  await expect(page.getByRole("heading", { name: "ご予約が確定しました" })).toBeVisible();
  await expect(page.getByTestId("booking-number")).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  await context.close();
});

test("favorites: a guest is asked to sign in; a member adds from the salon page and removes from the list, with and without JavaScript", async ({
  page,
  browser,
  axe,
}) => {
  test.setTimeout(120_000);
  const salonPath = await openFirstSalon(page);
  const salonName = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
  await expect(page.getByRole("link", { name: /ログインしてお気に入りに追加/ })).toBeVisible();

  const email = await newMember(browser, "favorite");
  await signIn(page, email, "secret1");
  await expect(page.getByText("山田 花子 様")).toBeVisible();
  await page.goto(salonPath);
  const toggle = page.getByRole("button", { name: /お気に入り/ }).first();
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  const saved = page.waitForResponse(
    (response) =>
      response.url().includes("/account/favorite") && response.request().method() === "POST",
  );
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await saved;
  await page.reload();
  await expect(page.getByRole("button", { name: /お気に入り/ }).first()).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // The same salon's card in the search results shows it too.
  await page.goto("/salons/search?genre=hair");
  await expect(page.getByRole("button", { name: salonName.trim() })).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  await page.goto("/account/favorite");
  await expect(page.getByRole("heading", { name: "お気に入りサロン" })).toBeVisible();
  await expect(page.getByRole("link", { name: salonName.trim() })).toBeVisible();
  await axe.check();
  await page
    .getByRole("button", { name: /お気に入り/ })
    .first()
    .click();
  await expect(page.getByText("お気に入りに登録したサロンはまだありません。")).toBeVisible();

  // Without JavaScript the toggle is a plain form that comes back to the page.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const noJs = await context.newPage();
  await signIn(noJs, email, "secret1");
  await noJs.goto(salonPath);
  await noJs
    .getByRole("button", { name: /お気に入り/ })
    .first()
    .click();
  await expect(noJs).toHaveURL(new RegExp(`${salonPath}$`));
  await expect(noJs.getByRole("button", { name: /お気に入り/ }).first()).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await context.close();
});

test("the booking pages work at 320 px wide", async ({ page, axe }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await openFirstSalon(page);
  await page
    .getByRole("link", { name: /を予約する$/ })
    .first()
    .click();
  await pickDay(page, 1);
  await expect(page.getByRole("button", { name: /から予約する$/ }).first()).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await axe.check();
  await page
    .getByRole("button", { name: /から予約する$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/hold=/);
  await expect(page.getByText(/残り約\d+分/)).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
});

test("favorites on home and area cards: a guest signs in and comes back; a member adds and removes, with and without JavaScript", async ({
  page,
  browser,
  axe,
  login,
}) => {
  test.setTimeout(120_000);
  const { email, password } = await login();
  const heart = (p: Page, salon: string) => p.getByRole("button", { name: `（${salon}）` });

  // A guest (its own browser): the heart on an area page's card asks to sign in, then comes back.
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  await guest.goto("/");
  const areaPath =
    (await guest
      .getByRole("region", { name: "人気のエリアから探す" })
      .getByRole("link")
      .first()
      .getAttribute("href")) ?? "";
  await guest.goto(areaPath);
  const areaCards = guest.getByRole("region", { name: /のおすすめサロン/ });
  const salon = (await areaCards.locator("article h3 a").first().textContent())?.trim() ?? "";
  await expectNoAxeViolations(guest);
  await areaCards.getByRole("link", { name: `（${salon}）` }).click();
  await expect(guest).toHaveURL(`/signin?redirect=${encodeURIComponent(areaPath)}`);
  await guest.getByLabel(exactLabel("メールアドレス")).fill(email);
  await guest.getByLabel(exactLabel("パスワード")).fill(password);
  await guest.getByRole("button", { name: "ログイン", exact: true }).click();
  await expect(guest).toHaveURL(areaPath);

  // Signed in, with JavaScript: the heart flips in place and stays after a reload.
  // The flip is optimistic: reload only once the server answered the POST.
  const saved = () =>
    guest.waitForResponse(
      (response) =>
        response.url().includes("/account/favorite") && response.request().method() === "POST",
    );
  await expect(heart(guest, salon)).toHaveAttribute("aria-pressed", "false");
  let answered = saved();
  await heart(guest, salon).click();
  await expect(heart(guest, salon)).toHaveAttribute("aria-pressed", "true");
  await expect(guest).toHaveURL(areaPath);
  await answered;
  await guest.reload();
  await expect(heart(guest, salon)).toHaveAttribute("aria-pressed", "true");
  await expectNoAxeViolations(guest);
  answered = saved();
  await heart(guest, salon).click();
  await expect(heart(guest, salon)).toHaveAttribute("aria-pressed", "false");
  await answered;
  await guest.reload();
  await expect(heart(guest, salon)).toHaveAttribute("aria-pressed", "false");
  await guestContext.close();

  // The home page's hearts: one per card, each named by its salon.
  await page.goto("/");
  const homeCards = page.getByRole("region", { name: "おすすめのサロン" });
  const names = await homeCards.getByRole("button", { name: /^お気に入り/ }).all();
  const labels = await Promise.all(names.map((button) => button.textContent()));
  expect(names.length).toBeGreaterThan(1);
  expect(new Set(labels).size).toBe(labels.length);
  await axe.check();

  // Without JavaScript the heart is a plain form that comes back to the home page.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const noJs = await context.newPage();
  await signIn(noJs, email, password);
  await expect(noJs.getByText("山田 花子 様")).toBeVisible();
  await noJs.goto("/");
  const homeSalon =
    (await noJs
      .getByRole("region", { name: "おすすめのサロン" })
      .locator("article h3 a")
      .first()
      .textContent()) ?? "";
  await expect(heart(noJs, homeSalon.trim())).toHaveAttribute("aria-pressed", "false");
  await heart(noJs, homeSalon.trim()).click();
  await expect(noJs).toHaveURL(/\/$/);
  await expect(heart(noJs, homeSalon.trim())).toHaveAttribute("aria-pressed", "true");
  await heart(noJs, homeSalon.trim()).click();
  await expect(noJs).toHaveURL(/\/$/);
  await expect(heart(noJs, homeSalon.trim())).toHaveAttribute("aria-pressed", "false");
  await context.close();
});
