import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations } from "./fixtures";

/** The demo owner of the seed (README's demo accounts). */
export const DEMO_OWNER = { email: "demo-owner@example.jp", password: "demo-pass-123" };

/** Now in Tokyo, minus `minutes`, on the 5-minute grid: { date, time }. */
export function tokyoMinutesAgo(minutes: number) {
  const at = new Date(Date.now() - minutes * 60_000);
  const parts = new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Asia/Tokyo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
  const [date = "", clock = ""] = parts.split(" ");
  const [hour = "00", minute = "00"] = clock.split(":");
  const rounded = String(Math.floor(Number(minute) / 5) * 5).padStart(2, "0");
  return { date, time: `${hour}:${rounded}` };
}

/**
 * Moves a booking to have begun 15 minutes ago, with the first stylist who
 * can take it then (the first free, or outside their hours once confirmed).
 * 施術完了 waits for the start or the arrival (issue 38, §1.1), and the
 * stories run at any hour against the real clock, so a visit the story
 * completes is brought to now first.
 */
export async function moveToJustStarted(page: Page, salonId: string, bookingId: string) {
  const start = tokyoMinutesAgo(15);
  const form = `/owner/salons/${salonId}/bookings/${bookingId}/move`;
  await page.goto(form);
  const stylists = await page
    .getByLabel("スタッフ")
    .locator("option:not([value=''])")
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  const moved = page.getByRole("status").filter({ hasText: "予約を変更しました" });
  const submit = async () => {
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/move")),
      page.getByRole("button", { name: "変更する" }).click(),
    ]);
    return moved
      .waitFor({ state: "visible", timeout: 3_000 })
      .then(() => true)
      .catch(() => false);
  };
  for (const stylist of stylists) {
    await page.goto(form);
    await page.getByLabel("スタッフ").selectOption(stylist);
    await page.getByLabel("日付").fill(start.date);
    await page.getByLabel("開始時刻").fill(start.time);
    if (await submit()) return;
    const outside = page.getByLabel(/このまま移動する/);
    if ((await outside.count()) > 0 && (await outside.isVisible())) {
      await outside.check();
      if (await submit()) return;
    }
  }
  throw new Error("no stylist could take the booking now");
}

/** axe-core at a phone, a tablet and a desktop width, back at the desktop after. */
export async function axeAtEveryWidth(page: Page) {
  for (const width of [375, 768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * A walk-in who came in 15 minutes ago, entered on the form with the first
 * stylist free then (confirming the outside-schedule warning when it asks):
 * the new booking's id.
 */
export async function enterWalkIn(
  page: Page,
  salonId: string,
  customer: { name: string; kana: string; phone: string },
) {
  const walkIn = tokyoMinutesAgo(15);
  const form = `/owner/salons/${salonId}/bookings/new?entry=walk_in&date=${walkIn.date}&time=${walkIn.time}`;
  await page.goto(form);
  const stylists = await page
    .getByRole("combobox", { name: /スタイリスト/ })
    .locator("option:not([value=''])")
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  for (const stylist of stylists) {
    await page.goto(`${form}&staff=${stylist}`);
    await page.getByRole("radio", { name: "来店（飛び込み）" }).check();
    await page.getByRole("combobox", { name: /スタイリスト/ }).selectOption(stylist);
    await page.locator("#entry-date").fill(walkIn.date);
    await page.locator("#entry-time").fill(walkIn.time);
    const menu = page.locator("input[name=menu]").first();
    if ((await menu.count()) === 0) continue;
    await menu.check();
    await page.getByRole("textbox", { name: "氏名" }).fill(customer.name);
    await page.getByRole("textbox", { name: "フリガナ" }).fill(customer.kana);
    await page.getByRole("textbox", { name: "電話番号" }).fill(customer.phone);
    const submit = async () => {
      await Promise.all([
        page.waitForResponse(
          (r) => r.request().method() === "POST" && r.url().includes("/bookings/new"),
        ),
        page.getByRole("button", { name: "登録する" }).click(),
      ]);
      // Entered: the new booking's page; refused: the form again with its error summary.
      await page
        .waitForURL(/\/bookings\/[0-9a-f-]{36}\?done=created$/, { timeout: 3_000 })
        .catch(() => {});
    };
    await submit();
    const outside = page.getByLabel("出勤予定外でも予約する");
    if (page.url().includes("/bookings/new") && (await outside.isVisible())) {
      // Staff know better than the schedule: confirmed, the walk-in goes in.
      await outside.check();
      await submit();
    }
    // In the way of another booking: the next stylist.
    if (page.url().includes("/bookings/new")) continue;
    await expect(page.getByRole("status").filter({ hasText: "予約を登録しました" })).toBeVisible();
    return new URL(page.url()).pathname.split("/").pop() ?? "";
  }
  throw new Error("no stylist could take the walk-in");
}
