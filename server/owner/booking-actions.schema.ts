import { z } from "zod";
import { isLocalDate } from "../../common/local-time";
import { isUuid } from "../../common/uuid";
import { salonCancelCategories } from "../db/schema/bookings";

/**
 * What the salon may do to a booking (issue 28, point 4), as the API's JSON
 * body and the page's form both name it: one shape, read by one Zod schema,
 * so the page and the API refuse the same input with the same Japanese
 * messages (decision 0040).
 */

export const bookingActionNames = [
  "arrived",
  "completed",
  "no_show",
  "cancel",
  "move",
  "note",
  "release",
  "approve",
  "refuse",
  "undo",
] as const;
export type BookingActionName = (typeof bookingActionNames)[number];

/** The status actions the salon can take back the same day (issue 38, §1.1). */
export const undoableActions = ["arrived", "completed", "no_show"] as const;
export type UndoableAction = (typeof undoableActions)[number];

/** The labels of the salon's cancel categories, as the form and the history show them. */
export const cancelCategoryLabels: Record<(typeof salonCancelCategories)[number], string> = {
  customer_advance: "お客様都合（事前連絡）",
  customer_same_day: "お客様都合（当日連絡）",
  no_contact: "無断キャンセル",
  salon: "サロン都合",
};

export const CANCEL_MESSAGE_MAX = 500;
export const SALON_NOTE_MAX = 1000;
export const MOVE_MENUS_MAX = 5;

const version = z
  .number({ error: "予約の版（version）を指定してください。画面を読み込み直してください。" })
  .int("予約の版（version）が正しくありません。画面を読み込み直してください。")
  .min(0, "予約の版（version）が正しくありません。画面を読み込み直してください。")
  .max(2_147_483_647, "予約の版（version）が正しくありません。画面を読み込み直してください。");

/** C0 controls and DEL, except tab, line feed and carriage return. */
const isForbiddenControl = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
};

/** Text without control characters other than line breaks and tabs (they break mails and lists). */
const plainText = (label: string, max: number) =>
  z
    .string({ error: `${label}を文字で入力してください。` })
    .max(max, `${label}は${max}文字以内で入力してください。`)
    .refine((text) => ![...text].some(isForbiddenControl), {
      message: `${label}に使えない制御文字が含まれています。取り除いてから入力してください。`,
    })
    .transform((text) => text.trim());

const timeOfDay = z
  .string({ error: "開始時刻を入力してください。" })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "開始時刻は 14:00 のように HH:MM の形式で入力してください。");

const localDate = z
  .string({ error: "日付を入力してください。" })
  .refine(isLocalDate, "日付は 2026-11-23 のように YYYY-MM-DD の形式で入力してください。");

const uuid = (message: string) => z.string({ error: message }).refine(isUuid, message);

export const bookingActionSchema = z.discriminatedUnion(
  "action",
  [
    z.object({ action: z.literal("arrived"), version }),
    z.object({ action: z.literal("completed"), version }),
    z.object({ action: z.literal("no_show"), version }),
    z.object({ action: z.literal("release"), version }),
    z.object({
      action: z.literal("cancel"),
      version,
      category: z.enum(salonCancelCategories, {
        error:
          "キャンセルの理由（お客様都合（事前連絡）・お客様都合（当日連絡）・無断キャンセル・サロン都合）を選んでください。",
      }),
      message: plainText("お客様へのメッセージ", CANCEL_MESSAGE_MAX).default(""),
    }),
    z.object({
      action: z.literal("move"),
      version,
      date: localDate,
      time: timeOfDay,
      staffId: uuid("担当スタイリストを選んでください。"),
      menuIds: z
        .array(uuid("メニューを選び直してください。"), { error: "メニューを選んでください。" })
        .min(1, "メニューを1つ以上選んでください。")
        .max(MOVE_MENUS_MAX, `メニューは${MOVE_MENUS_MAX}つまで選べます。`)
        .refine((ids) => new Set(ids).size === ids.length, "同じメニューが重複しています。"),
      /** Staff know better than the schedule: a move outside it needs this (decision 0040). */
      confirmOutsideSchedule: z.boolean({ error: "確認の指定が正しくありません。" }).default(false),
      /**
       * 指名を引き継ぐ: keep 指名 (and the new stylist's 指名料) when the stylist
       * changes; off by default, as the customer did not choose them (issue 38, §1.3).
       */
      keepNomination: z
        .boolean({ error: "指名の引き継ぎの指定が正しくありません。" })
        .default(false),
    }),
    /** 取り消す: takes back the named status action, recorded today (issue 38, §1.1). */
    z.object({
      action: z.literal("undo"),
      version,
      undo: z.enum(undoableActions, {
        error: "取り消す操作（来店・施術完了・無断キャンセル）を指定してください。",
      }),
    }),
    /** Approval mode (decision 0051): 承認する. */
    z.object({ action: z.literal("approve"), version }),
    /** 承認しない: the salon declines the pending booking, with a message to the customer. */
    z.object({
      action: z.literal("refuse"),
      version,
      message: plainText("お客様へのメッセージ", CANCEL_MESSAGE_MAX).default(""),
    }),
    z.object({
      action: z.literal("note"),
      /** Optional: a note is not refused for a stale version (it changes nothing else). */
      version: version.optional(),
      note: plainText("サロンメモ", SALON_NOTE_MAX),
    }),
  ],
  { error: "操作の種類（action）が正しくありません。" },
);

export type BookingActionInput = z.infer<typeof bookingActionSchema>;
export type MoveInput = Extract<BookingActionInput, { action: "move" }>;
export type CancelInput = Extract<BookingActionInput, { action: "cancel" }>;
