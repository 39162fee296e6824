import { Form, Link, useNavigation } from "react-router";
import type { PasswordPolicy } from "../../../common/password-policy";
import { ErrorSummary, TextField } from "../form/field";
import { AccountFrame, linkClass, Notice, SubmitButton, useClearOnResult } from "./account-frame";
import { NewPasswordFields } from "./new-password-fields";

type Props = {
  policy: PasswordPolicy;
  token: string;
  error: string | null;
  actionData?: { errors: Record<string, string | undefined>; values: Record<string, string> };
};

export function PasswordResetForms({ policy, token, error, actionData }: Props) {
  const busy = useNavigation().state === "submitting";
  const clearKey = useClearOnResult(actionData);
  const errors = actionData?.errors ?? {};
  if (token) {
    return (
      <AccountFrame title="新しいパスワードの設定" lead="新しいパスワードを入力してください。">
        <Form method="post" noValidate className="flex flex-col gap-5">
          <input type="hidden" name="token" value={token} />
          <ErrorSummary errors={errors} />
          <NewPasswordFields
            idPrefix="reset-password"
            name="password"
            label="新しいパスワード"
            policy={policy}
            clearKey={clearKey}
            errors={errors}
          />
          <SubmitButton busy={busy}>パスワードを変更する</SubmitButton>
        </Form>
      </AccountFrame>
    );
  }
  return (
    <AccountFrame
      title="パスワード再設定"
      lead="ご登録のメールアドレスを入力してください。パスワード再設定用のリンクをお送りします。"
    >
      {error ? <Notice tone="error">{error}</Notice> : null}
      <Form method="post" noValidate className="flex flex-col gap-5">
        <ErrorSummary errors={errors} />
        <TextField
          id="reset-email"
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="email"
          required
          defaultValue={actionData?.values.email}
          error={errors.email}
        />
        <SubmitButton busy={busy}>再設定メールを送る</SubmitButton>
      </Form>
      <p>
        <Link to="/signin" className={linkClass}>
          ログイン画面に戻る
        </Link>
      </p>
    </AccountFrame>
  );
}
