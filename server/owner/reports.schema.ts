import { z } from "zod";
import { addDays, type LocalDate } from "../../common/local-time";
import { isPeriodDate, refinePeriod } from "./period.schema";

/**
 * The reports' query (issue 29, point 6; decision 0050): a period of local
 * dates in the salon's zone, both ends included, and how to group it.
 * Shared by the page's GET form and GET /api/owner/salons/{id}/reports.
 */

export const reportGroups = ["day", "week", "month"] as const;
export type ReportGroup = (typeof reportGroups)[number];

export const reportGroupLabels: Record<ReportGroup, string> = {
  day: "日",
  week: "週",
  month: "月",
};

export type ReportQuery = { from: LocalDate; to: LocalDate; group: ReportGroup };

/** What was typed, kept as typed (strings) for the form. */
export type ReportQueryValues = { from: string; to: string; group: string };

export type ReportQueryError = { field: "from" | "to" | "group"; message: string };

const dateField = (label: string) =>
  z
    .string()
    .trim()
    .max(40, `${label}は 2026-11-23 のような日付で入力してください。`)
    .refine(
      isPeriodDate,
      `${label}は 2026-11-23 のような実在する日付（2000年〜2099年）で入力してください。`,
    );

export const reportQuerySchema = z
  .object({
    from: dateField("開始日"),
    to: dateField("終了日"),
    group: z.enum(reportGroups, {
      error: "集計の単位は「日」「週」「月」のいずれかを選んでください。",
    }),
  })
  .superRefine(refinePeriod({ from: "開始日", to: "終了日" }));

/** The default period: the current month of `today` (the salon's local date), by day. */
export function defaultReportQuery(today: LocalDate): ReportQuery {
  const first = `${today.slice(0, 8)}01`;
  const nextMonth = addDays(first, 32);
  return { from: first, to: addDays(`${nextMonth.slice(0, 8)}01`, -1), group: "day" };
}

export type ParsedReportQuery =
  | { ok: true; query: ReportQuery; values: ReportQueryValues }
  | { ok: false; query: ReportQuery; values: ReportQueryValues; errors: ReportQueryError[] };

/**
 * A query from the URL's parameters: a missing one takes the default's
 * value; a bad one gives the errors, what was typed, and the default query
 * (the page still shows the current month below the errors).
 */
export function parseReportQuery(
  params: { from?: string | null; to?: string | null; group?: string | null },
  today: LocalDate,
): ParsedReportQuery {
  const fallback = defaultReportQuery(today);
  const values: ReportQueryValues = {
    from: (params.from ?? "").slice(0, 40) || fallback.from,
    to: (params.to ?? "").slice(0, 40) || fallback.to,
    group: (params.group ?? "").slice(0, 40) || fallback.group,
  };
  const parsed = reportQuerySchema.safeParse(values);
  if (parsed.success) return { ok: true, query: parsed.data, values };
  const errors: ReportQueryError[] = [];
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field !== "from" && field !== "to" && field !== "group") continue;
    if (errors.some((error) => error.field === field)) continue;
    errors.push({ field, message: issue.message });
  }
  return { ok: false, query: fallback, values, errors };
}
