import holidayJp from "@holiday-jp/holiday_jp";
import { addDays } from "../../common/local-time";
import type { LocalDate } from "./availability-input";

type HolidayEntry = { date: string; name: string };

// The package's table, keyed by "YYYY-MM-DD" (1970–2050, kept up to date by
// the holiday-jp project). We read the table rather than `between()`, which
// takes Date objects at local midnight and so depends on the process zone.
const table = holidayJp.holidays as unknown as Readonly<Record<string, HolidayEntry | undefined>>;

/**
 * Japanese public holidays (祝日, 振替休日 and 国民の休日) from `from` to `to`
 * inclusive, date → Japanese name. The availability engine takes the keys as
 * its `holidays` set; pages can show the names.
 */
export function japaneseHolidaysBetween(from: LocalDate, to: LocalDate): Map<LocalDate, string> {
  const found = new Map<LocalDate, string>();
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const entry = table[date];
    if (entry) found.set(date, entry.name);
  }
  return found;
}
