import { z } from "zod";

/**
 * Japanese field rules shared by every form, in the browser and on the
 * server. Messages say what to do, not only what went wrong.
 */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label}を入力してください。` })
    .trim()
    .min(1, `${label}を入力してください。`)
    .max(max, `${label}は${max}文字以内で入力してください。`);

export const emailAddress = () =>
  z
    .string({ error: "メールアドレスを入力してください。" })
    .trim()
    .min(1, "メールアドレスを入力してください。")
    .max(254, "メールアドレスが長すぎます。")
    .pipe(z.email("メールアドレスの形式が正しくありません（例：hanako@example.jp）。"));

export const choice = <const T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z.enum(values, { error: `${label}を選択してください。` });

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message per field, for showing next to each input. */
export function fieldErrors<K extends string>(error: z.ZodError): FieldErrors<K> {
  const out: Partial<Record<string, string>> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out as FieldErrors<K>;
}
