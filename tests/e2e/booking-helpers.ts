import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** "YYYY-MM-DD" of today + n days in Tokyo. */
function tokyoDate(days: number) {
  return new Intl.DateTimeFormat("sv-SE", { timeZone: "Asia/Tokyo" }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

/** The first selectable day at least `minDays` ahead (and after `after`) on the React Aria calendar. */
export async function pickDay(page: Page, minDays: number, after = "") {
  const earliest = tokyoDate(minDays);
  const calendar = page.getByRole("application", { name: /ご来店日/ });
  await expect(calendar).toBeVisible();
  for (let month = 0; month < 3; month++) {
    const cells = calendar.locator('[role="gridcell"] [role="button"]:not([aria-disabled="true"])');
    const count = await cells.count();
    for (let index = 0; index < count; index++) {
      const cell = cells.nth(index);
      const label = (await cell.getAttribute("aria-label")) ?? "";
      const match = label.match(/(\d{4})年(\d{1,2})月(\d{1,2})日/);
      if (!match) continue;
      const date = `${match[1]}-${match[2]?.padStart(2, "0")}-${match[3]?.padStart(2, "0")}`;
      if (date < earliest || date <= after) continue;
      if ((await cell.getAttribute("data-unavailable")) !== null) continue;
      await cell.click();
      await expect(page).toHaveURL(new RegExp(`date=${date}`));
      return date;
    }
    await calendar.getByRole("button", { name: "次の月" }).click();
  }
  throw new Error("no free day");
}
