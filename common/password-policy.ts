import { z } from "zod";

/**
 * The password policy of SPEC.md §5, as the server serves it at
 * GET /api/auth/password-policy. Client-safe: the forms explain it with
 * `describePasswordPolicy` and the actions enforce it with `passwordSchema`.
 */
export type PasswordPolicy = {
  minLength: number;
  maxLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireNumeric: boolean;
  requireNonAlphanumeric: boolean;
};

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 6,
  maxLength: 128,
  requireLowercase: false,
  requireUppercase: false,
  requireNumeric: false,
  requireNonAlphanumeric: false,
};

const rules = [
  { key: "requireLowercase", test: /[a-z]/, label: "英小文字" },
  { key: "requireUppercase", test: /[A-Z]/, label: "英大文字" },
  { key: "requireNumeric", test: /[0-9]/, label: "数字" },
  { key: "requireNonAlphanumeric", test: /[^A-Za-z0-9]/, label: "記号" },
] as const;

/** One sentence for the hint under a password field. */
export function describePasswordPolicy(policy: PasswordPolicy) {
  const required = rules.filter((rule) => policy[rule.key]).map((rule) => rule.label);
  const length =
    policy.maxLength < 128
      ? `${policy.minLength}文字以上${policy.maxLength}文字以内`
      : `${policy.minLength}文字以上`;
  return required.length > 0
    ? `${length}で、${required.join("・")}をそれぞれ1文字以上含めてください。`
    : `${length}で入力してください。`;
}

/** Every unmet requirement, in Japanese; empty when the password is acceptable. */
export function passwordProblems(password: string, policy: PasswordPolicy): string[] {
  const problems: string[] = [];
  if (password.length < policy.minLength)
    problems.push(`パスワードは${policy.minLength}文字以上で入力してください。`);
  if (password.length > policy.maxLength)
    problems.push(`パスワードは${policy.maxLength}文字以内で入力してください。`);
  for (const rule of rules) {
    if (policy[rule.key] && !rule.test.test(password))
      problems.push(`パスワードに${rule.label}を1文字以上含めてください。`);
  }
  return problems;
}

/** A new password checked against the policy (sign-up, reset, change). */
export const passwordSchema = (policy: PasswordPolicy) =>
  z
    .string({ error: "パスワードを入力してください。" })
    .min(1, "パスワードを入力してください。")
    .superRefine((password, ctx) => {
      const [first] = passwordProblems(password, policy);
      if (first) ctx.addIssue({ code: "custom", message: first });
    });
