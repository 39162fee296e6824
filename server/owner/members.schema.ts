import { z } from "zod";
import { choice, emailAddress, personName } from "../../common/field-rules";
import { UUID_PATTERN } from "../../common/uuid";
import { salonMemberRoles } from "../db/schema";

/**
 * The forms of /owner/salons/{id}/members (issue 29, point 1; decision
 * 0045), one per intent: invite someone with a role, change a role, remove
 * a person, cancel an invitation. Every message is Japanese.
 */

const stylistId = z
  .string()
  .trim()
  .max(100)
  .default("")
  .refine(
    (value) => value === "" || UUID_PATTERN.test(value),
    "スタイリストの指定が正しくありません。",
  );

const version = z.coerce
  .number({ error: "画面を読み込み直してから、もう一度お試しください。" })
  .int("画面を読み込み直してから、もう一度お試しください。")
  .min(0, "画面を読み込み直してから、もう一度お試しください。")
  .max(2_000_000_000, "画面を読み込み直してから、もう一度お試しください。");

const userId = z
  .string({ error: "スタッフの指定が正しくありません。" })
  .trim()
  .min(1, "スタッフの指定が正しくありません。")
  .max(100, "スタッフの指定が正しくありません。");

/** A stylist's role needs the stylist it is; no other role has one. */
const withStylist = <T extends { role: string; staffId: string }>(
  value: T,
  ctx: z.RefinementCtx,
) => {
  if (value.role === "stylist" && value.staffId === "") {
    ctx.addIssue({
      code: "custom",
      path: ["staffId"],
      message: "スタイリストの役割では、どのスタイリストのアカウントかを選択してください。",
    });
  }
};

export const memberInviteSchema = z
  .object({
    intent: z.literal("invite"),
    name: personName("お名前"),
    email: emailAddress().transform((email) => email.toLowerCase()),
    role: choice("役割", salonMemberRoles),
    staffId: stylistId,
  })
  .superRefine(withStylist)
  .transform((value) => ({ ...value, staffId: value.role === "stylist" ? value.staffId : null }));

export const memberRoleSchema = z
  .object({
    intent: z.literal("role"),
    userId,
    role: choice("役割", salonMemberRoles),
    staffId: stylistId,
    version,
  })
  .superRefine(withStylist)
  .transform((value) => ({ ...value, staffId: value.role === "stylist" ? value.staffId : null }));

export const memberRemoveSchema = z.object({
  intent: z.literal("remove"),
  userId,
  version,
  confirm: z.literal("yes", { error: "削除してよいか確認してから、もう一度お試しください。" }),
});

export const invitationCancelSchema = z.object({
  intent: z.literal("cancel"),
  invitationId: z
    .string({ error: "招待の指定が正しくありません。" })
    .trim()
    .regex(UUID_PATTERN, "招待の指定が正しくありません。"),
});

/** The form's schema by its intent (null: an unknown intent, a 400). */
export const memberFormSchemas = {
  invite: memberInviteSchema,
  role: memberRoleSchema,
  remove: memberRemoveSchema,
  cancel: invitationCancelSchema,
} as const;

export type MemberIntent = keyof typeof memberFormSchemas;

export const isMemberIntent = (value: string): value is MemberIntent =>
  Object.hasOwn(memberFormSchemas, value);

export type MemberInvite = z.infer<typeof memberInviteSchema>;
export type MemberRoleChange = z.infer<typeof memberRoleSchema>;
export type MemberRemove = z.infer<typeof memberRemoveSchema>;
export type InvitationCancel = z.infer<typeof invitationCancelSchema>;
