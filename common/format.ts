const yen = new Intl.NumberFormat("ja-JP", { style: "currency", currency: "JPY" });

export function formatYen(amount: number): string {
  return yen.format(amount);
}

/** The visitors' calendar: dates are shown, and "today" is read, in Japan's time. */
export const SITE_TIME_ZONE = "Asia/Tokyo";

/** 2026年11月23日(月): the one way dates are shown, in Japan's time zone wherever it renders. */
const dateFormat = new Intl.DateTimeFormat("ja-JP", {
  year: "numeric",
  month: "long",
  day: "numeric",
  weekday: "short",
  timeZone: SITE_TIME_ZONE,
});

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A moment (Date or ISO string) or a calendar day (YYYY-MM-DD) in Japanese
 * form. A calendar day is read as noon in Tokyo, so it is the same day in
 * any server or browser time zone.
 */
export function formatDate(value: Date | string): string {
  const date =
    typeof value === "string"
      ? new Date(DATE_ONLY.test(value) ? `${value}T12:00:00+09:00` : value)
      : value;
  return dateFormat.format(date);
}

const timeOfDay = new Intl.DateTimeFormat("ja-JP", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: SITE_TIME_ZONE,
});

/** A moment as 2026年11月23日(月) 10:05, in Japan's time zone wherever it renders. */
export function formatDateTime(value: Date | string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return `${dateFormat.format(date)} ${timeOfDay.format(date)}`;
}

const WEEKDAY_NAMES = "日月火水木金土";

/**
 * A local date "YYYY-MM-DD" as 12月3日(木); the date is a calendar day, not an instant.
 * Worked out from the string, as Intl's ja-JP would write it: each search result's card
 * shows one, and `formatToParts` cost ~30 µs a call on the server (bench/README.md, issue 42).
 */
export function formatMonthDayWeekday(date: string): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const weekday = WEEKDAY_NAMES[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  return `${month}月${day}日(${weekday})`;
}

/**
 * A number of results: "28件", or "1,000件以上" when counting stopped at a
 * cap (docs/decisions/0021-search-at-national-scale.md).
 */
export function formatResultCount(total: number, isLowerBound = false): string {
  return isLowerBound ? `${total.toLocaleString("ja-JP")}件以上` : `${total}件`;
}
