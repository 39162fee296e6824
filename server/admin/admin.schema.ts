import { z } from "zod";
import {
  emailAddress,
  kanaName,
  personName,
  phoneNumber,
  requiredText,
  uuidText,
} from "../../common/field-rules";

/** /admin/owners/add. The salons are ids from the checkbox list (zero or more). */
export const ownerInviteSchema = z.object({
  name: personName("お名前"),
  nameKana: kanaName("お名前（フリガナ）"),
  email: emailAddress().transform((email) => email.toLowerCase()),
  phone: phoneNumber(),
  salonIds: z
    .array(uuidText("担当サロン"))
    .max(50, "担当サロンは50件までにしてください。")
    .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
});
export type OwnerInviteInput = z.infer<typeof ownerInviteSchema>;

/** The list's query string: a page number (1…) and a search word. */
export const ownerListQuerySchema = z.object({
  q: z.string().trim().max(100).catch("").default(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});

/** The row buttons of /admin/owners. */
export const ownerActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("unlink"),
      userId: requiredText("オーナー", 100),
      salonId: uuidText("サロン"),
    }),
    z.object({ intent: z.literal("suspend"), userId: requiredText("オーナー", 100) }),
    z.object({ intent: z.literal("reinstate"), userId: requiredText("オーナー", 100) }),
  ],
  { error: "操作の指定が正しくありません。" },
);

/** The audit filters of /admin (empty = all). */
export const auditFilterSchema = z.object({
  salon: uuidText("サロン").optional().catch(undefined),
  actor: z.string().trim().max(100).optional().catch(undefined),
});
