import { z } from "zod";
import type { LocalDate } from "../../common/local-time";
import { isPeriodDate, refinePeriod } from "./period.schema";

/**
 * The bookings CSV's query (issue 29, point 5; decision 0049):
 * `?from=YYYY-MM-DD&to=YYYY-MM-DD`, local dates in the salon's zone, both
 * ends included, at most 366 days. There is no default: the reports page
 * links with both dates, and a URL without them is answered with a message
 * that says how to write them.
 */

export type BookingsExportRange = { from: LocalDate; to: LocalDate };

const HOW =
  "予約一覧のCSVは、期間の開始日（from）と終了日（to）を YYYY-MM-DD の形式で指定して書き出します（例: ?from=2026-11-01&to=2026-11-30）。";

const dateField = (label: string, name: string) =>
  z
    .string({ error: `${label}（${name}）を指定してください。` })
    .min(1, `${label}（${name}）を指定してください。`)
    .max(40, `${label}（${name}）は 2026-11-23 のような日付で指定してください。`)
    .refine(
      isPeriodDate,
      `${label}（${name}）は 2026-11-23 のような実在する日付（2000年〜2099年）で指定してください。`,
    );

export const bookingsExportQuerySchema = z
  .object({ from: dateField("開始日", "from"), to: dateField("終了日", "to") })
  .superRefine(refinePeriod({ from: "開始日（from）", to: "終了日（to）" }));

export type ParsedBookingsExportQuery =
  | { ok: true; range: BookingsExportRange }
  | { ok: false; messages: string[] };

/**
 * The range from the URL's parameters, or the Japanese messages of a 400
 * (the last says how; another export of a period names itself in `how`).
 */
export function parseBookingsExportQuery(
  params: URLSearchParams,
  how: string = HOW,
): ParsedBookingsExportQuery {
  const parsed = bookingsExportQuerySchema.safeParse({
    from: params.get("from")?.trim() ?? undefined,
    to: params.get("to")?.trim() ?? undefined,
  });
  if (parsed.success) return { ok: true, range: parsed.data };
  const messages = [...new Set(parsed.error.issues.map((issue) => issue.message))];
  return { ok: false, messages: [...messages, how] };
}
