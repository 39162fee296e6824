import { z } from "zod";
import { minutesOf } from "../../common/local-time";

/**
 * The wished window of a waiting-list entry as the join form sends it
 * (開始時刻の範囲: two "HH:MM" selects), read with one Zod schema: the
 * page's form and any other door give the same Japanese messages.
 */

const TIME = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

const time = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((text) => TIME.test(text), message)
    .transform((text) => minutesOf(text));

export const waitlistWindowSchema = z
  .object({
    windowStart: time("開始時刻の範囲の「から」を選んでください。"),
    windowEnd: time("開始時刻の範囲の「まで」を選んでください。"),
  })
  .refine((window) => window.windowStart < window.windowEnd, {
    path: ["windowEnd"],
    message: "開始時刻の範囲は「から」より後の時刻を「まで」に選んでください。",
  });

export type WaitlistWindowField = "windowStart" | "windowEnd";
export type WaitlistWindowValues = Record<WaitlistWindowField, string>;

/** The form's two fields as typed (long values cut, never a file). */
export function waitlistWindowValues(form: FormData): WaitlistWindowValues {
  const read = (key: WaitlistWindowField) => {
    const value = form.get(key);
    return typeof value === "string" ? value.slice(0, 10) : "";
  };
  return { windowStart: read("windowStart"), windowEnd: read("windowEnd") };
}

/** The window in minutes, or a Japanese message per field. */
export function parseWaitlistWindow(
  values: WaitlistWindowValues,
):
  | { ok: true; windowStart: number; windowEnd: number }
  | { ok: false; errors: Partial<Record<WaitlistWindowField, string>> } {
  const parsed = waitlistWindowSchema.safeParse(values);
  if (parsed.success) return { ok: true, ...parsed.data };
  const errors: Partial<Record<WaitlistWindowField, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = (issue.path[0] ?? "windowStart") as WaitlistWindowField;
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}
