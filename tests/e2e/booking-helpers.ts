import type { Page } from "@playwright/test";
import ICAL from "ical.js";
import { newestMail } from "../support/mail-capture";
import { expect } from "./fixtures";

/** "YYYY-MM-DD" of today + n days in Tokyo. */
function tokyoDate(days: number) {
  return new Intl.DateTimeFormat("sv-SE", { timeZone: "Asia/Tokyo" }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

/**
 * The first day at least `minDays` ahead (and after `after`) on the React Aria calendar that has a
 * time to book for what is selected, with its times shown. The demo data's bookings depend on the
 * date the suite runs, and a day marked free for the menus the calendar was drawn for may have no
 * time for the menus now ticked: such a day is passed over, so no test depends on the date or hour.
 */
export async function pickDay(page: Page, minDays: number, after = "") {
  const earliest = tokyoDate(minDays);
  const calendar = page.getByRole("application", { name: /ご来店日/ });
  // Days tried without a time: the calendar may redraw after a pick, so indexes are not enough.
  let tried = after;
  await expect(calendar).toBeVisible();
  // A calendar that redraws while it is read (hydration, the month it opens on) is read again,
  // a few times at most, instead of waiting for a cell that is gone.
  for (let month = 0, redraws = 0; month < 3; month++) {
    const cells = calendar.locator('[role="gridcell"] [role="button"]:not([aria-disabled="true"])');
    const count = await cells.count();
    let redrawn = false;
    for (let index = 0; index < count; index++) {
      const cell = cells.nth(index);
      const read = await cell.getAttribute("aria-label", { timeout: 5_000 }).catch(() => null);
      if (read === null && redraws < 5) {
        redrawn = true;
        redraws += 1;
        break;
      }
      const label = read ?? "";
      const match = label.match(/(\d{4})年(\d{1,2})月(\d{1,2})日/);
      if (!match) continue;
      const date = `${match[1]}-${match[2]?.padStart(2, "0")}-${match[3]?.padStart(2, "0")}`;
      if (date < earliest || date <= tried) continue;
      if ((await cell.getAttribute("data-unavailable")) !== null) continue;
      await cell.click();
      await expect(page).toHaveURL(new RegExp(`date=${date}`));
      if (await dayHasTimes(page, date)) return date;
      tried = date;
    }
    if (redrawn) {
      month -= 1;
      continue;
    }
    await calendar.locator('button[slot="next"]').click();
  }
  throw new Error("no free day");
}

/** Whether the time step, once it shows `date` ("YYYY-MM-DD"), offers a time to book. */
async function dayHasTimes(page: Page, date: string) {
  const [, month, day] = date.split("-").map(Number);
  await expect(
    page.getByRole("heading", { name: new RegExp(`4\\. 時間を選ぶ（${month}月${day}日`) }),
  ).toBeVisible();
  const times = page.getByRole("button", { name: /から予約する$/ });
  await expect(
    times.first().or(page.getByText(/この日は空いている時間がありません/)),
  ).toBeVisible();
  return (await times.count()) > 0;
}

/**
 * The .ics attached to the newest mail to `to` whose subject contains
 * `subject`, as it arrived over SMTP, parsed by ical.js (a parser other than
 * the generator that wrote it). Booking mails are jobs run after the
 * request, then delivered by the mail loop: newestMail waits for both.
 */
export async function mailCalendar(to: string, subject: string) {
  // The job worker passes every 5 s; on a loaded machine give it a few.
  const mail = await newestMail(to, { subject, timeout: 30_000 });
  const files = mail.attachments.filter((file) => file.filename.endsWith(".ics"));
  expect(files).toHaveLength(1);
  expect(files[0]?.contentType).toBe("text/calendar");
  const calendar = new ICAL.Component(ICAL.parse(files[0]?.content ?? ""));
  const event = calendar.getFirstSubcomponent("vevent");
  if (!event) throw new Error("no VEVENT in the attached .ics");
  const start = event.getFirstProperty("dtstart");
  const startTime = start?.getFirstValue() as ICAL.Time | undefined;
  return {
    method: calendar.getFirstPropertyValue("method"),
    timeZones: calendar
      .getAllSubcomponents("vtimezone")
      .map((zone) => zone.getFirstPropertyValue("tzid")),
    uid: String(event.getFirstPropertyValue("uid")),
    summary: String(event.getFirstPropertyValue("summary")),
    startTzid: start?.getParameter("tzid"),
    /** The local wall-clock start as written in the file, "YYYY-MM-DD HH:MM". */
    startLocal: startTime
      ? `${startTime.year}-${String(startTime.month).padStart(2, "0")}-${String(startTime.day).padStart(2, "0")} ${String(startTime.hour).padStart(2, "0")}:${String(startTime.minute).padStart(2, "0")}`
      : null,
  };
}
