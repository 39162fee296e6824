import { data, Form, Link, redirect, useNavigation } from "react-router";
import { authErrorMessage } from "../../common/auth-errors";
import { fieldErrors } from "../../common/field-rules";
import { emailOnlySchema } from "../../server/accounts/account.schema";
import { authErrorCodeOf } from "../../server/accounts/auth-error";
import { authFailure, formValues } from "../../server/accounts/form-result";
import { accountEditPath } from "../../server/accounts/guards";
import { resendVerificationMailTo } from "../../server/accounts/identity";
import { safeRedirectPath } from "../../server/accounts/request-info";
import { signUpAddressOf } from "../../server/accounts/sign-up-address";
import { appContext } from "../../server/context";
import {
  AccountFrame,
  linkClass,
  Notice,
  SubmitButton,
} from "../components/accounts/account-frame";
import { ErrorSummary, TextField } from "../components/form/field";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/finish_sign_up";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "会員登録",
    description: "会員登録の手続きについて",
    path: "/finish_sign_up",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

/** After sign-up (mail sent), and the target of the verification link (?verified=1 or ?error=). */
export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const error = params.get("error");
  return {
    verified: params.get("verified") === "1" && !error,
    // Profile first, then back where the visitor was going (accountEditPath).
    next: accountEditPath(safeRedirectPath(params.get("redirect"), "")),
    error: error ? authErrorMessage(authErrorCodeOf(error)) : null,
    email: signUpAddressOf(request),
  };
}

/**
 * Resends the link to the typed address. Sign-up signs nobody in (decision
 * 0026), so this works signed out, and answers alike for any address.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { accounts } = context.get(appContext);
  const values = formValues(await request.formData(), ["email"]);
  const parsed = emailOnlySchema.safeParse(values);
  if (!parsed.success) {
    return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
  }
  try {
    await resendVerificationMailTo(accounts, parsed.data, request);
    return redirect("/finish_resend_email");
  } catch (error) {
    return authFailure(error, values);
  }
}

export default function FinishSignUp({ loaderData, actionData }: Route.ComponentProps) {
  const resend = (
    <ResendForm
      email={actionData?.values.email ?? loaderData.email}
      errors={actionData?.errors ?? {}}
    />
  );
  if (loaderData.error) {
    return (
      <AccountFrame title="メールアドレスを確認できませんでした">
        <Notice tone="error">{loaderData.error}</Notice>
        {resend}
      </AccountFrame>
    );
  }
  if (loaderData.verified) {
    return (
      <AccountFrame title="メールアドレスを確認しました">
        <Notice>会員登録が完了しました。続けて、予約に使うお客様情報を登録してください。</Notice>
        <p>
          <Link to={loaderData.next} className={linkClass}>
            お客様情報を登録する
          </Link>
        </p>
      </AccountFrame>
    );
  }
  return (
    <AccountFrame title="確認メールを送信しました">
      {/* The same page whether or not the address was already registered (decision 0026):
          the mail says which it was, to the address's owner only. */}
      <Notice>
        入力されたメールアドレスにメールをお送りしました。メールに記載のリンクを1時間以内に開いて、登録を完了してください。すでにご登録のあるアドレスの場合は、ログインの方法をご案内しています。
      </Notice>
      <p className="text-sm text-neutral-700">
        メールが届かない場合は、迷惑メールフォルダをご確認ください。
      </p>
      {resend}
    </AccountFrame>
  );
}

/** The address typed at sign-up is filled in, so resending is one click. */
function ResendForm({
  email,
  errors,
}: {
  email: string;
  errors: Record<string, string | undefined>;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" noValidate className="flex flex-col gap-4">
      <ErrorSummary errors={errors} />
      <TextField
        id="resend-email"
        name="email"
        type="email"
        label="確認メールの送信先"
        autoComplete="email"
        required
        defaultValue={email}
        error={errors.email}
      />
      <SubmitButton busy={busy}>確認メールを再送する</SubmitButton>
    </Form>
  );
}
