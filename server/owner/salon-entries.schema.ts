import { z } from "zod";
import { emailAddress, kanaName, personName, phoneNumber } from "../../common/field-rules";
import { isLocalDate } from "../../common/local-time";
import { isUuid } from "../../common/uuid";

/**
 * What the salon types to enter a phone or walk-in booking or blocked time
 * (issue 28, point 5): one schema for the page's form and for
 * /api/owner/salons/{id}/bookings and …/blocks, with Japanese messages.
 */

export const MAX_ENTRY_MENUS = 5;
export const MAX_BLOCK_TEXT = 50;
export const MAX_SALON_NOTE = 500;

/** Why the salon blocks time; the label is what the ledger shows. */
export const blockReasons = ["break", "meeting", "training", "other"] as const;
export type BlockReason = (typeof blockReasons)[number];
export const blockReasonLabels: Record<BlockReason, string> = {
  break: "休憩",
  meeting: "打ち合わせ",
  training: "研修",
  other: "その他",
};

export const entrySources = ["phone", "walk_in"] as const;
export type EntrySource = (typeof entrySources)[number];

const id = (label: string) =>
  z
    .string({ error: `${label}を選択してください。` })
    .trim()
    .min(1, `${label}を選択してください。`)
    .refine(isUuid, `${label}の指定が正しくありません。選び直してください。`)
    .transform((value) => value.toLowerCase());

const localDate = z
  .string({ error: "日付を入力してください。" })
  .trim()
  .min(1, "日付を入力してください。")
  .refine(isLocalDate, "日付は YYYY-MM-DD の形式で入力してください（例：2026-12-01）。");

/** "HH:MM" of one day; 24:00 is not a start (a day's last minute is 23:59). */
const localTime = (label: string) =>
  z
    .string({ error: `${label}を入力してください。` })
    .trim()
    .min(1, `${label}を入力してください。`)
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label}は HH:MM の形式で入力してください（例：14:30）。`);

const optionalEmail = z
  .string()
  .optional()
  .transform((value) => value?.trim() ?? "")
  .pipe(z.union([z.literal(""), emailAddress()]));

export const newCustomerSchema = z.object({
  name: personName("お名前"),
  kana: kanaName("フリガナ"),
  phone: phoneNumber("電話番号"),
  email: optionalEmail,
});
export type NewCustomer = z.infer<typeof newCustomerSchema>;

export const salonBookingSchema = z
  .object({
    source: z.enum(entrySources, { error: "電話予約か来店かを選択してください。" }),
    staffId: id("スタイリスト"),
    date: localDate,
    time: localTime("開始時刻"),
    menuIds: z
      .array(id("メニュー"), { error: "メニューを1つ以上選択してください。" })
      .min(1, "メニューを1つ以上選択してください。")
      .max(MAX_ENTRY_MENUS, `メニューは${MAX_ENTRY_MENUS}つまで選択できます。`)
      .refine((ids) => new Set(ids).size === ids.length, "同じメニューが2回選択されています。"),
    /** A customer record of the salon (顧客カルテ), found by the lookup. */
    customerId: id("お客様").optional(),
    /** A customer the salon does not know yet (no account needed). */
    customer: newCustomerSchema.optional(),
    /** False when the customer left the stylist to the salon (指名なし). */
    staffRequested: z
      .boolean({ error: "指名の有無は true か false で指定してください。" })
      .default(true),
    salonNote: z
      .string({ error: "メモは文字列で入力してください。" })
      .trim()
      .max(MAX_SALON_NOTE, `メモは${MAX_SALON_NOTE}文字以内で入力してください。`)
      .default(""),
    /** The salon saw the warning that the stylist is not scheduled then, and books anyway. */
    allowOutsideSchedule: z
      .boolean({ error: "allowOutsideSchedule は true か false で指定してください。" })
      .default(false),
  })
  .superRefine((value, ctx) => {
    if (!value.customerId && !value.customer) {
      ctx.addIssue({
        code: "custom",
        path: ["customer"],
        message:
          "お客様を検索して選ぶか、新しいお客様のお名前・フリガナ・電話番号を入力してください。",
      });
    }
    if (value.customerId && value.customer) {
      ctx.addIssue({
        code: "custom",
        path: ["customerId"],
        message: "お客様は、検索で選んだ方か新しいお客様のどちらか一方を指定してください。",
      });
    }
  });
export type SalonBookingInput = z.infer<typeof salonBookingSchema>;

export const blockSchema = z
  .object({
    staffId: id("スタイリスト"),
    date: localDate,
    from: localTime("開始時刻"),
    to: localTime("終了時刻"),
    reason: z.enum(blockReasons, {
      error: "ブロックの種類（休憩・打ち合わせ・研修・その他）を選択してください。",
    }),
    text: z
      .string({ error: "内容は文字列で入力してください。" })
      .trim()
      .max(MAX_BLOCK_TEXT, `内容は${MAX_BLOCK_TEXT}文字以内で入力してください。`)
      .refine((text) => !/[\p{Cc}\p{Cf}\p{Co}]/u.test(text), "内容に改行や制御文字は使えません。")
      .default(""),
  })
  .superRefine((value, ctx) => {
    if (/^\d\d:\d\d$/.test(value.from) && /^\d\d:\d\d$/.test(value.to) && value.to <= value.from) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: "終了時刻は開始時刻より後にしてください。",
      });
    }
  });
export type BlockInput = z.infer<typeof blockSchema>;

/** What the ledger shows for a block: 休憩, or 休憩：ランチ with the salon's words. */
export function blockLabel(reason: BlockReason, text: string): string {
  const name = blockReasonLabels[reason];
  return text ? `${name}：${text}` : name;
}
