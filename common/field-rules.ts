import { z } from "zod";
import { UUID_PATTERN } from "./uuid";

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

/** Pictographs, skin tones, flags, and the emoji-style and keycap marks. */
const EMOJI =
  /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u{FE0F}|\u{20E3}/u;

/**
 * A person's name (お名前) as a Japanese booking site takes it (decision
 * 0035): any script, kanji variants (IVS) included, runs of spaces (full- or
 * half-width) made one; refused with a message that says what to remove:
 * control and invisible format characters (line breaks, tabs, zero-width
 * and bidi marks) and private-use characters (外字, old carrier emoji), which
 * other systems cannot show; and emoji, because the salon reads, prints,
 * says on the phone and hands the name to other systems (mail, POS); Japanese
 * booking forms commonly say 「絵文字は使用できません」 too.
 */
export const personName = (label: string, max = 50) =>
  requiredText(label, max)
    .refine((text) => !/[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]/u.test(text), {
      message: `${label}に使えない文字（改行・タブ・制御文字・外字など）が含まれています。取り除いてから入力してください。`,
    })
    .overwrite((text) => text.replace(/\s+/gu, " "))
    .refine((text) => !EMOJI.test(text), {
      message: `${label}に絵文字は使えません。文字だけで入力してください。`,
    });

/**
 * An address as Japanese keyboards may type it ("ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ",
 * a full-width space around it) in the half-width form mail systems use:
 * NFKC (full-width letters, digits, ＠ and ． become ASCII), 。 read as a
 * dot, then trimmed.
 * Every path that takes an address uses it: the forms through
 * emailAddress(), /api/auth through Better Auth's before hook, the rate
 * limits' keys, so one account has one spelling everywhere.
 */
export function normalizeEmail(text: string) {
  // 。 is what kana input gives for "."; IDNA reads it as a dot in domains too.
  return text.normalize("NFKC").replace(/[。｡]/gu, ".").trim();
}

export const emailAddress = () =>
  z
    .string({ error: "メールアドレスを入力してください。" })
    .overwrite(normalizeEmail)
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

/**
 * Furigana: hiragana or katakana (full or half width) and spaces, stored as
 * full-width katakana so that "やまだ はなこ" and "ﾔﾏﾀﾞ ﾊﾅｺ" are the same.
 */
export const kanaName = (label: string, max = 50) =>
  requiredText(label, max)
    .transform((text) => hiraganaToKatakana(text.normalize("NFKC")).replace(/\s+/gu, " "))
    .refine((text) => /^[\u30a1-\u30f6\u30fc ]+$/u.test(text), {
      message: `${label}はひらがなかカタカナで入力してください（例：ヤマダ ハナコ）。`,
    });

function hiraganaToKatakana(text: string) {
  return text.replace(/[\u3041-\u3096]/gu, (c) =>
    String.fromCodePoint((c.codePointAt(0) ?? 0) + 0x60),
  );
}

/**
 * Japanese phone numbers in any common writing ("090-1234-5678",
 * "０９０１２３４５６７８", "+81 90 1234 5678", "03(1234)5678") become the
 * digits alone with the leading 0: 10 digits (landline) or 11 (mobile, IP).
 */
export function normalizePhone(input: string): string | null {
  let digits = input.normalize("NFKC").replace(/[\s\-‐－ー―()（）.]/gu, "");
  if (digits.startsWith("+81")) digits = `0${digits.slice(3).replace(/^0/, "")}`;
  if (!/^0\d{9,10}$/.test(digits)) return null;
  // 11 digits are only mobile, IP phone and free dial (070/080/090/050/0800)…
  if (digits.length === 11 && !/^(0[5789]0|0800)/.test(digits)) return null;
  // …and those prefixes are never 10 digits (except free dial 0120).
  if (digits.length === 10 && /^0[5789]0/.test(digits)) return null;
  return digits;
}

export const phoneNumber = (label = "電話番号") =>
  z
    .string({ error: `${label}を入力してください。` })
    .trim()
    .min(1, `${label}を入力してください。`)
    .transform((text, ctx) => {
      const phone = normalizePhone(text);
      if (!phone) {
        ctx.addIssue({
          code: "custom",
          message: `${label}は市外局番から、半角数字で入力してください（例：090-1234-5678）。`,
        });
        return z.NEVER;
      }
      return phone;
    });

/** An id from a form or query (a salon, a stylist, an audit entry); anything else is refused, never queried. */
export const uuidText = (label: string) =>
  z
    .string({ error: `${label}を選択してください。` })
    .trim()
    .regex(UUID_PATTERN, `${label}の指定が正しくありません。`);
