import { z } from "zod";
import { UUID_PATTERN } from "../../common/uuid";

/**
 * Input of the customers pages and API (顧客カルテ, issue 28, point 6).
 * Messages are Japanese and say what to do; the pages keep what was typed.
 */

export const CUSTOMERS_PER_PAGE = 30;
export const CUSTOMER_QUERY_MAX = 100;
export const CUSTOMER_NOTES_MAX = 2000;

/**
 * The list's GET form: a bad page is read as the first, as the admin lists
 * do; an overlong query (the field stops at 100) is cut, not dropped, so the
 * page still searches what was typed.
 */
export const customerListQuerySchema = z.object({
  q: z
    .string()
    .transform((text) => text.trim().slice(0, CUSTOMER_QUERY_MAX).trim())
    .catch("")
    .default(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;

const customerRef = (label: string) =>
  z
    .string({ error: `${label}を指定してください。` })
    .regex(UUID_PATTERN, `${label}の形式が正しくありません。`);

/**
 * The salon's private notes: line breaks kept (a karte is written in lines),
 * Windows line ends made one, other control characters refused.
 */
export const customerNotes = z
  .string({ error: "メモを入力してください。" })
  .transform((text) => text.replace(/\r\n?/g, "\n").replace(/\s+$/u, ""))
  .refine((text) => text.length <= CUSTOMER_NOTES_MAX, {
    message: `メモは${CUSTOMER_NOTES_MAX}文字以内で入力してください。`,
  })
  .refine((text) => !/[\p{Cc}\p{Co}]/u.test(text.replace(/[\n\t]/g, "")), {
    message:
      "メモに使えない文字（制御文字・外字）が含まれています。取り除いてから保存してください。",
  });

/** The notes as the editor saw them before editing: a save over someone else's is refused. */
const seenNotes = z
  .string()
  .max(CUSTOMER_NOTES_MAX * 2)
  .transform((text) => text.replace(/\r\n?/g, "\n").replace(/\s+$/u, ""));

/** PUT …/notes of the API: the same rules as the page's form. */
export const customerNotesInputSchema = z.object({
  notes: customerNotes,
  seenNotes: seenNotes.optional(),
});

/** The detail page's buttons, one intent each. */
export const customerActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("notes"),
      notes: customerNotes,
      seenNotes: seenNotes.optional(),
    }),
    z.object({ intent: z.literal("merge"), otherId: customerRef("統合する顧客") }),
    z.object({ intent: z.literal("unmerge"), otherId: customerRef("統合を取り消す顧客") }),
  ],
  { error: "操作を選んでください。" },
);
export type CustomerAction = z.infer<typeof customerActionSchema>;
