import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { signIn } from "./account-helpers";
import { pickDay } from "./booking-helpers";
import { expect, expectNoAxeViolations, type LoggedIn, test } from "./fixtures";
import { followOfficialAccount } from "./line-helpers";
import { addStoryStylist, DEMO_OWNER, moveToJustStarted } from "./owner-helpers";

/**
 * LINE messages (issue 41 §1, decision 0089) end to end: the e2e server has
 * no LINE channel, so its pushes go to the local fake Messaging API, which
 * /dev/line shows by LINE user. A visitor signed in with LINE who follows the
 * official account (a signed follow event on /api/line/webhook) waits for a
 * time another visitor booked; the other cancels and the offer arrives by
 * LINE; the visitor books it from the message's link and the confirmation
 * arrives; the salon moves the booking and the move arrives.
 */

/** A signed-in visitor whose account has LINE (as LINE sign-in leaves it), following the account. */
async function lineVisitor(page: Page, origin: string) {
  const lineUserId = `U${randomBytes(16).toString("hex")}`;
  const response = await page.request.post("/api/test/login", {
    data: { role: "user", lineUserId },
    headers: { origin },
  });
  expect(response.status(), await response.text()).toBe(201);
  await followOfficialAccount(page.request, lineUserId);
  return { lineUserId, account: (await response.json()) as LoggedIn };
}

/** A second visitor in a browser of their own, signed in by the test-only login. */
async function anotherVisitor(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const response = await page.request.post("/api/test/login", {
    data: { role: "user" },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return page;
}

/** Waits (reloading /dev/line) until the LINE user's messages include one with `text`. */
async function expectLineMessage(page: Page, lineUserId: string, text: string) {
  const inbox = page.getByRole("region", { name: `LINEユーザー ${lineUserId}` });
  await expect(async () => {
    await page.goto("/dev/line");
    await expect(inbox.getByRole("listitem").filter({ hasText: text })).toHaveCount(1, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 45_000 });
  return inbox.getByRole("listitem").filter({ hasText: text });
}

test("a LINE visitor gets the waiting list's offer, the confirmation and the salon's move by LINE", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const origin = baseURL ?? "";

  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signIn(owner, DEMO_OWNER.email, DEMO_OWNER.password);
  await owner.waitForURL((url) => !url.pathname.startsWith("/signin"));
  await owner.goto("/owner");
  await expect(owner).toHaveURL(/\/owner\/salons\/[0-9a-f-]{36}$/);
  const salonId = new URL(owner.url()).pathname.split("/")[3] ?? "";
  const salonPath =
    (await owner.getByRole("link", { name: "公開ページを見る" }).getAttribute("href")) ?? "";

  // Another visitor books the first time of a day with a named stylist.
  const other = await anotherVisitor(browser, origin);
  await other.goto(salonPath);
  await other
    .getByRole("link", { name: /を予約する$/ })
    .first()
    .click();
  await other.getByRole("group", { name: "担当スタッフ" }).getByRole("radio").nth(1).check();
  await other.getByRole("button", { name: "このスタッフで空き状況を見る" }).click();
  await expect(other).toHaveURL(/staff=/);
  await pickDay(other, 4);
  const dayUrl = other.url();
  const first = other.getByRole("button", { name: /から予約する$/ }).first();
  const time = ((await first.textContent()) ?? "").match(/(\d{1,2}:\d{2})/)?.[1]?.padStart(5, "0");
  expect(time).toMatch(/^\d{2}:\d{2}$/);
  await first.click();
  await other.getByRole("button", { name: "予約を確定する" }).click();
  await expect(other.getByRole("heading", { name: "ご予約が確定しました" })).toBeVisible();
  const otherBooking = new URL(other.url()).searchParams.get("booking") ?? "";

  // The LINE visitor waits for that time.
  const { lineUserId } = await lineVisitor(page, origin);
  await page.goto(dayUrl);
  await page
    .getByRole("link", { name: /(のキャンセル待ちに登録|キャンセル待ちに登録する)$/ })
    .click();
  await expect(page).toHaveURL(/\/waitlist\?/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("キャンセル待ち");
  const [hour = 0, minute = 0] = (time ?? "").split(":").map(Number);
  const until = hour * 60 + minute + 30;
  const untilText = `${String(Math.floor(until / 60)).padStart(2, "0")}:${String(until % 60).padStart(2, "0")}`;
  await page
    .getByLabel(/から/)
    .first()
    .selectOption(time ?? "");
  await page.getByLabel(/まで/).first().selectOption(untilText);
  await page.getByRole("button", { name: "キャンセル待ちに登録する" }).click();
  await expect(page.getByText(/のキャンセル待ちに登録しました。/)).toBeVisible();

  // The other cancels: the offer arrives by LINE, its link opens it.
  await other.goto(`/account/history?booking=${otherBooking}`);
  await other.getByRole("link", { name: "この予約をキャンセルする" }).click();
  await other.getByRole("button", { name: "キャンセルを確定する" }).click();
  await expect(other.getByText("ご予約をキャンセルしました。")).toBeVisible();
  const offer = await expectLineMessage(page, lineUserId, "キャンセル待ちのお時間に空きが出ました");
  await expect(offer).toContainText("確保の期限：");
  await offer.getByRole("link", { name: /\/account\/waitlist\/offers\// }).click();
  await page.getByRole("link", { name: "この日時で予約する" }).click();
  await page.getByRole("button", { name: "予約を確定する" }).click();
  await expect(page.getByRole("heading", { name: "ご予約が確定しました" })).toBeVisible();
  // The thanks page says where the confirmation went: LINE, the visitor's channel by default.
  await expect(page.getByText("確認のメッセージをLINEにお送りしました。")).toBeVisible();
  const bookingId = new URL(page.url()).searchParams.get("booking") ?? "";

  const confirmed = await expectLineMessage(page, lineUserId, "ご予約が確定しました");
  await expect(confirmed).toContainText(`${time}〜`);
  await expect(confirmed).toContainText(/合計金額：[\d,]+円（税込）/);

  // The salon moves it: the move arrives too.
  const stylist = await addStoryStylist(owner, salonId, "線 移動", "せん いどう");
  await moveToJustStarted(owner, salonId, bookingId, stylist);
  const moved = await expectLineMessage(page, lineUserId, "サロンがご予約の内容を変更しました");
  await expect(moved).toContainText("変更前の日時：");
  await expect(moved).toContainText("線 移動");

  // /dev/line reads at a phone's width: no sideways scroll, and axe-clean.
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto("/dev/line");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await expectNoAxeViolations(page);
});
