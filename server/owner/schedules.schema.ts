import { z } from "zod";
import { isLocalDate } from "../../common/local-time";
import { BadRequestError } from "../errors/domain-error";

/**
 * The 勤務表 page's inputs (issue 29, point 2; decision 0046): which month
 * and stylist the page shows, and the salon-wide forms (臨時休業, the
 * public-holiday rule). The stylist's weekly patterns and exceptions are
 * the admin editor's forms (parseSchedule, staffExceptionSchema in
 * server/admin/salon-parts.schema.ts): one editor, two doors.
 */

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A month as YYYY-MM, between 2000 and 2100. */
export type LocalMonth = string;

/** A malformed month in the URL (400 with the Japanese message). */
export class InvalidMonthError extends BadRequestError {
  constructor() {
    super("invalid_month", "月は「2026-12」の形式（2000年〜2100年）で指定してください。");
  }
}

/** The month asked for, or `fallback` (this month) when none was; a malformed one is 400. */
export function monthOf(raw: string | null | undefined, fallback: LocalMonth): LocalMonth {
  if (raw === null || raw === undefined || raw === "") return fallback;
  const match = MONTH.exec(raw.trim());
  const year = Number(match?.[1]);
  if (!match || year < 2000 || year > 2100) throw new InvalidMonthError();
  return `${match[1]}-${match[2]}`;
}

/** The month of a local date. */
export const monthOfDate = (date: string): LocalMonth => date.slice(0, 7);

/** The month before or after (`delta` months). */
export function shiftMonth(month: LocalMonth, delta: number): LocalMonth {
  const [year, mon] = month.split("-").map(Number) as [number, number];
  const index = year * 12 + (mon - 1) + delta;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** The first and last local dates of the month. */
export function monthBounds(month: LocalMonth): { from: string; to: string } {
  const [year, mon] = month.split("-").map(Number) as [number, number];
  const days = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(days).padStart(2, "0")}` };
}

/** 臨時休業: a date the whole salon is closed, with an optional note (お客様にも表示). */
export const closureSchema = z.object({
  date: z
    .string({ error: "日付を入力してください。" })
    .trim()
    .min(1, "日付を入力してください。")
    .refine(isLocalDate, "日付は「2026-12-01」の形式で入力してください。"),
  note: z.string().trim().max(100, "メモは100文字以内で入力してください。"),
});
export type ClosureInput = z.infer<typeof closureSchema>;
