import { z } from "zod";
import {
  REVIEW_BODY_MAX,
  REVIEW_BODY_MIN,
  REVIEW_REPORT_NOTE_MAX,
  REVIEW_TITLE_MAX,
  reviewReportReasonLabels,
} from "../../common/reviews";
import { reviewReportReasons } from "../db/schema/reviews";

/**
 * The customer's review and a report of a review (issue 30, points 1, 2
 * and 6; decision 0054): one schema each, read by the page's action (form
 * strings) and by the JSON API (numbers), so both refuse the same input with
 * the same Japanese message.
 */

/** Characters as PostgreSQL's char_length counts them (code points, not UTF-16 units). */
export const textLength = (text: string) => [...text].length;

/** A textarea sends CRLF; stored as LF so the limit counts a line break once. */
const normalizedText = (text: string) => text.replace(/\r\n?/g, "\n").trim();

/** A form sends "4"; the API sends 4. Nothing else (true, "4.5", "") is read as a number. */
const formNumber = (value: unknown) =>
  typeof value === "string" && /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : value;

const stars = (message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(5, message);

/** An aspect left unrated: absent, null, or the form's empty choice. */
const aspect = (label: string) =>
  z.preprocess(
    (value) => (value === undefined || value === null || value === "" ? null : formNumber(value)),
    stars(`${label}の評価は1〜5で選んでください。`).nullable(),
  );

export const reviewInputSchema = z.object({
  rating: z.preprocess(formNumber, stars("総合評価を1〜5で選んでください。")),
  ratingAtmosphere: aspect("雰囲気"),
  ratingService: aspect("接客"),
  ratingTechnique: aspect("技術"),
  ratingFinish: aspect("仕上がり"),
  title: z
    .string({ error: "タイトルは文字で入力してください。" })
    .transform(normalizedText)
    .refine((text) => !/\n/.test(text), "タイトルは1行で入力してください。")
    .refine(
      (text) => textLength(text) <= REVIEW_TITLE_MAX,
      `タイトルは${REVIEW_TITLE_MAX}文字以内で入力してください。`,
    )
    .optional()
    .transform((text) => text ?? ""),
  body: z
    .string({ error: "口コミの本文を入力してください。" })
    .transform(normalizedText)
    .refine((text) => text.length > 0, { message: "口コミの本文を入力してください。", abort: true })
    .refine(
      (text) => textLength(text) >= REVIEW_BODY_MIN,
      `口コミの本文は${REVIEW_BODY_MIN}文字以上で入力してください。`,
    )
    .refine(
      (text) => textLength(text) <= REVIEW_BODY_MAX,
      `口コミの本文は${REVIEW_BODY_MAX.toLocaleString("ja-JP")}文字以内で入力してください。`,
    ),
  /** The version the customer saw when editing; absent when writing. */
  version: z
    .preprocess(
      (value) => (value === "" || value === null ? undefined : formNumber(value)),
      z
        .number({ error: "画面を読み込み直してから、もう一度お試しください。" })
        .int("画面を読み込み直してから、もう一度お試しください。")
        .min(0, "画面を読み込み直してから、もう一度お試しください。")
        .max(2_000_000_000, "画面を読み込み直してから、もう一度お試しください。")
        .optional(),
    )
    .optional(),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;
export type ReviewField = keyof ReviewInput;

export const reviewReportSchema = z.object({
  reason: z.enum(reviewReportReasons, {
    error: `通報の理由を選んでください（${Object.values(reviewReportReasonLabels).join("・")}）。`,
  }),
  note: z
    .string({ error: "補足は文字で入力してください。" })
    .transform(normalizedText)
    .refine(
      (text) => textLength(text) <= REVIEW_REPORT_NOTE_MAX,
      `補足は${REVIEW_REPORT_NOTE_MAX}文字以内で入力してください。`,
    )
    .optional()
    .transform((text) => text ?? ""),
});
export type ReviewReportInput = z.infer<typeof reviewReportSchema>;
export type ReviewReportField = keyof ReviewReportInput;
