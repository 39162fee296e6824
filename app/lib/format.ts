const yen = new Intl.NumberFormat("ja-JP", { style: "currency", currency: "JPY" });

export function formatYen(amount: number): string {
  return yen.format(amount);
}

const dateFormat = new Intl.DateTimeFormat("ja-JP", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "Asia/Tokyo",
});

export function formatDate(value: Date | string): string {
  return dateFormat.format(typeof value === "string" ? new Date(value) : value);
}

const monthDayWeekday = new Intl.DateTimeFormat("ja-JP", {
  month: "numeric",
  day: "numeric",
  weekday: "short",
  timeZone: "UTC",
});

/** A local date "YYYY-MM-DD" as 12月3日(木); the date is a calendar day, not an instant. */
export function formatMonthDayWeekday(date: string): string {
  const parts = monthDayWeekday.formatToParts(new Date(`${date}T00:00:00Z`));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("month")}月${part("day")}日(${part("weekday")})`;
}
