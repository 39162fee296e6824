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
 * A stylist of the story's own, added on the salon's スタッフ page by a
 * person who may (the owner): nothing is booked with them, so a visit "now"
 * fits whatever hour the suite runs at and whatever other specs entered in
 * the demo salon (issue 38, §5: no test depends on the day or hour). With no
 * working hours, their bookings are confirmed "outside the schedule", as staff
 * do for a walk-in. Appended last, so the public pages' first stylist is
 * still the seed's. Its id.
 */
export async function addStoryStylist(page: Page, salonId: string, name: string, kana: string) {
  await page.goto(`/owner/salons/${salonId}/staff`);
  await page.getByRole("textbox", { name: /^名前/ }).fill(name);
  await page.getByRole("textbox", { name: /^フリガナ/ }).fill(kana);
  await page.getByRole("textbox", { name: /^役職/ }).fill("スタイリスト");
  await page.getByRole("button", { name: "スタッフを追加" }).click();
  await page.waitForURL(/staff=[0-9a-f-]{36}/);
  return new URL(page.url()).searchParams.get("staff") ?? "";
}

/**
 * Moves a booking to have begun 15 minutes ago with the given stylist (one of
 * the story's own, `addStoryStylist`), confirming the outside-schedule warning.
 * 施術完了 waits for the start or the arrival (issue 38, §1.1), and the
 * stories run at any hour against the real clock, so a visit the story
 * completes is brought to now first.
 */
export async function moveToJustStarted(
  page: Page,
  salonId: string,
  bookingId: string,
  stylist: string,
) {
  const start = tokyoMinutesAgo(15);
  await page.goto(`/owner/salons/${salonId}/bookings/${bookingId}/move`);
  await page.getByLabel("スタッフ").selectOption(stylist);
  await page.getByLabel("日付").fill(start.date);
  await page.getByLabel("開始時刻").fill(start.time);
  // The stylist has no working hours: the form asks once, and staff confirm.
  await page.getByRole("button", { name: "変更する" }).click();
  await page.getByLabel(/このまま移動する/).check();
  await page.getByRole("button", { name: "変更する" }).click();
  await expect(page.getByRole("status").filter({ hasText: "予約を変更しました" })).toBeVisible();
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
 * A walk-in who came in 15 minutes ago, entered on the form with the given
 * stylist (one of the story's own, `addStoryStylist`), confirming the
 * outside-schedule warning when it asks: the new booking's id.
 */
export async function enterWalkIn(
  page: Page,
  salonId: string,
  customer: { name: string; kana: string; phone: string },
  stylist: string,
) {
  const walkIn = tokyoMinutesAgo(15);
  await page.goto(
    `/owner/salons/${salonId}/bookings/new?entry=walk_in&date=${walkIn.date}&time=${walkIn.time}&staff=${stylist}`,
  );
  await page.getByRole("radio", { name: "来店（飛び込み）" }).check();
  await page.getByRole("combobox", { name: /スタイリスト/ }).selectOption(stylist);
  await page.locator("#entry-date").fill(walkIn.date);
  await page.locator("#entry-time").fill(walkIn.time);
  await page.locator("input[name=menu]").first().check();
  await page.getByRole("textbox", { name: "氏名" }).fill(customer.name);
  await page.getByRole("textbox", { name: "フリガナ" }).fill(customer.kana);
  await page.getByRole("textbox", { name: "電話番号" }).fill(customer.phone);
  // The stylist has no working hours: the form asks once, and staff confirm.
  await page.getByRole("button", { name: "登録する" }).click();
  await page.getByLabel("出勤予定外でも予約する").check();
  await page.getByRole("button", { name: "登録する" }).click();
  await page.waitForURL(/\/bookings\/[0-9a-f-]{36}\?done=created$/);
  await expect(page.getByRole("status").filter({ hasText: "予約を登録しました" })).toBeVisible();
  return new URL(page.url()).pathname.split("/").pop() ?? "";
}
