import { z } from "zod";
import { emailAddress } from "../../common/field-rules";
import { type PasswordPolicy, passwordSchema } from "../../common/password-policy";

/** The account forms. Passwords are never echoed back into a form after a failure. */
const anyPassword = (label = "パスワード") =>
  z.string({ error: `${label}を入力してください。` }).min(1, `${label}を入力してください。`);

const confirmed = <T extends z.ZodRawShape>(shape: T, field: string, confirmField: string) =>
  z.object(shape).superRefine((value, ctx) => {
    const record = value as Record<string, unknown>;
    if (record[field] !== record[confirmField]) {
      ctx.addIssue({
        code: "custom",
        path: [confirmField],
        message: "確認用のパスワードが一致しません。同じパスワードをもう一度入力してください。",
      });
    }
  });

export const signInSchema = z.object({ email: emailAddress(), password: anyPassword() });

export const signUpSchema = (policy: PasswordPolicy) =>
  confirmed(
    {
      email: emailAddress(),
      password: passwordSchema(policy),
      passwordConfirm: anyPassword("確認用のパスワード"),
    },
    "password",
    "passwordConfirm",
  );

export const emailOnlySchema = z.object({ email: emailAddress() });

/**
 * The new address, and the current password that shows the owner is asking
 * (an account without one proves it by a recent sign-in instead).
 */
export const changeEmailSchema = (hasPassword: boolean) =>
  z.object({
    email: emailAddress(),
    currentPassword: hasPassword ? anyPassword("現在のパスワード") : z.string(),
  });

export const newPasswordSchema = (policy: PasswordPolicy) =>
  confirmed(
    {
      token: z.string().min(1, "リンクが無効です。もう一度メールの送信からやり直してください。"),
      password: passwordSchema(policy),
      passwordConfirm: anyPassword("確認用のパスワード"),
    },
    "password",
    "passwordConfirm",
  );

export const changePasswordSchema = (policy: PasswordPolicy) =>
  confirmed(
    {
      currentPassword: anyPassword("現在のパスワード"),
      newPassword: passwordSchema(policy),
      passwordConfirm: anyPassword("確認用のパスワード"),
    },
    "newPassword",
    "passwordConfirm",
  );
