import { Form, Link, useNavigation } from "react-router";
import { ErrorSummary, TextField } from "../form/field";
import { AccountFrame, linkClass, Notice, SubmitButton, useClearOnResult } from "./account-frame";
import { ExternalSignIn } from "./external-sign-in";

type Props = {
  providers: string[];
  redirectTo: string;
  linkSent: boolean;
  error: string | null;
  actionData?: { errors: Record<string, string | undefined>; values: Record<string, string> };
};

/** /signin: password, email link and external providers, each a plain form. */
export function SignInForms({ providers, redirectTo, linkSent, error, actionData }: Props) {
  const busy = useNavigation().state === "submitting";
  const clearKey = useClearOnResult(actionData);
  const intent = actionData?.values.intent;
  const errors = actionData?.errors ?? {};
  const passwordErrors = intent === "password" || intent === undefined ? errors : {};
  const linkErrors = intent === "link" ? errors : {};
  return (
    <AccountFrame title="ログイン">
      {error ? <Notice tone="error">{error}</Notice> : null}
      {linkSent ? (
        <Notice>
          ログイン用のリンクをメールでお送りしました。メールに記載のリンクを5分以内に開いてください。
        </Notice>
      ) : null}
      <Form method="post" noValidate className="flex flex-col gap-5">
        <input type="hidden" name="intent" value="password" />
        <input type="hidden" name="redirect" value={redirectTo} />
        <ErrorSummary errors={passwordErrors} />
        <TextField
          id="signin-email"
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="email"
          required
          defaultValue={intent === "password" ? actionData?.values.email : undefined}
          error={passwordErrors.email}
        />
        <TextField
          id="signin-password"
          name="password"
          key={clearKey}
          type="password"
          label="パスワード"
          autoComplete="current-password"
          required
          error={passwordErrors.password}
        />
        <SubmitButton busy={busy}>ログイン</SubmitButton>
        <p className="text-sm">
          パスワードをお忘れの方は{" "}
          <Link to="/password-reset" className={linkClass}>
            パスワード再設定
          </Link>
        </p>
      </Form>

      <section aria-labelledby="signin-link-heading" className="flex flex-col gap-3">
        <h2 id="signin-link-heading" className="font-bold">
          パスワードを使わずにログイン
        </h2>
        <p className="text-sm text-neutral-700">
          メールアドレスにログイン用のリンクをお送りします。
        </p>
        <Form method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="link" />
          <input type="hidden" name="redirect" value={redirectTo} />
          <ErrorSummary errors={linkErrors} />
          <TextField
            id="signin-link-email"
            name="email"
            type="email"
            label="ログイン用リンクの送信先メールアドレス"
            autoComplete="email"
            required
            defaultValue={intent === "link" ? actionData?.values.email : undefined}
            error={linkErrors.email}
          />
          <button
            type="submit"
            className="w-full rounded-lg border border-brand-700 px-6 py-3 font-bold text-brand-700 hover:bg-brand-50"
          >
            ログイン用リンクを送る
          </button>
        </Form>
      </section>

      {intent === "external" ? <ErrorSummary errors={errors} /> : null}
      <ExternalSignIn providers={providers} redirectTo={redirectTo || undefined} />
      <p>
        はじめての方は{" "}
        <Link
          to={redirectTo ? `/signup?redirect=${encodeURIComponent(redirectTo)}` : "/signup"}
          className={linkClass}
        >
          会員登録（無料）
        </Link>
      </p>
    </AccountFrame>
  );
}
