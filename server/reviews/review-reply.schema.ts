import { z } from "zod";
import { REVIEW_HIDE_NOTE_MAX, REVIEW_REPLY_MAX } from "../../common/reviews";
import { UUID_PATTERN } from "../../common/uuid";

/**
 * The forms and JSON bodies of the salon's reply and of the administrator's
 * moderation (issue 30, point 2; decision 0056). One schema each, used by
 * the page's action and by the API, so both refuse the same input with the
 * same Japanese message.
 */

/** Characters as PostgreSQL's char_length counts them (code points, not UTF-16 units). */
const length = (text: string) => [...text].length;

/** A textarea sends CRLF; stored as LF so the limit counts a line break once. */
const longText = (label: string, max: number, required: boolean) =>
  z
    .string({ error: `${label}を入力してください。` })
    .transform((text) => text.replace(/\r\n?/g, "\n").trim())
    .refine((text) => !required || text.length > 0, `${label}を入力してください。`)
    .refine((text) => length(text) <= max, `${label}は${max}文字以内で入力してください。`);

const version = z.coerce
  .number({ error: "画面を読み込み直してから、もう一度お試しください。" })
  .int("画面を読み込み直してから、もう一度お試しください。")
  .min(0, "画面を読み込み直してから、もう一度お試しください。")
  .max(2_000_000_000, "画面を読み込み直してから、もう一度お試しください。");

const reviewId = z
  .string({ error: "口コミの指定が正しくありません。" })
  .trim()
  .regex(UUID_PATTERN, "口コミの指定が正しくありません。")
  .transform((id) => id.toLowerCase());

export const reviewReplySchema = z.object({
  reviewId,
  body: longText("返信", REVIEW_REPLY_MAX, true),
  version,
});
export type ReviewReplyInput = z.infer<typeof reviewReplySchema>;

/** The back office's list: every review or only the unanswered ones, paged. */
export const ownerReviewFilters = ["all", "unanswered"] as const;
export type OwnerReviewFilter = (typeof ownerReviewFilters)[number];

export const ownerReviewQuerySchema = z.object({
  filter: z
    .enum(ownerReviewFilters, { error: "絞り込みは all か unanswered で指定してください。" })
    .default("all"),
  page: z.coerce
    .number({ error: "ページは1以上の整数で指定してください。" })
    .int("ページは1以上の整数で指定してください。")
    .min(1, "ページは1以上の整数で指定してください。")
    .max(10_000, "ページは10000以下で指定してください。")
    .default(1),
});
export type OwnerReviewQuery = z.infer<typeof ownerReviewQuerySchema>;

/** The administrator's three decisions on a review; the note is required to hide or restore. */
export const moderationIntents = ["hide", "restore", "keep"] as const;
export type ModerationIntent = (typeof moderationIntents)[number];

export const moderationSchema = z
  .object({
    intent: z.enum(moderationIntents, { error: "操作の指定が正しくありません。" }),
    reviewId,
    note: longText("メモ", REVIEW_HIDE_NOTE_MAX, false),
    version,
  })
  .superRefine((value, ctx) => {
    if (value.intent !== "keep" && value.note === "") {
      ctx.addIssue({
        code: "custom",
        path: ["note"],
        message:
          value.intent === "hide"
            ? "非表示にする理由をメモに入力してください。"
            : "再表示する理由をメモに入力してください。",
      });
    }
  });
export type ModerationInput = z.infer<typeof moderationSchema>;

/** The moderation list: reported (open reports), hidden, or every review of salons by name. */
export const moderationViews = ["reported", "hidden", "all"] as const;
export type ModerationView = (typeof moderationViews)[number];

export const moderationQuerySchema = z.object({
  view: z
    .enum(moderationViews, { error: "表示は reported・hidden・all のいずれかで指定してください。" })
    .default("reported"),
  q: z.string().trim().max(100, "サロン名は100文字以内で入力してください。").default(""),
  review: z
    .string()
    .trim()
    .regex(UUID_PATTERN, "口コミの指定が正しくありません。")
    .transform((id) => id.toLowerCase())
    .optional(),
  page: z.coerce
    .number({ error: "ページは1以上の整数で指定してください。" })
    .int("ページは1以上の整数で指定してください。")
    .min(1, "ページは1以上の整数で指定してください。")
    .max(10_000, "ページは10000以下で指定してください。")
    .default(1),
});
export type ModerationQuery = z.infer<typeof moderationQuerySchema>;
