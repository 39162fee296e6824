import { data, Form, Link, redirect, useNavigation } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { signUpSchema } from "../../server/accounts/account.schema";
import { authFailure, formValues } from "../../server/accounts/form-result";
import { signUpWithPassword } from "../../server/accounts/identity";
import { safeRedirectPath } from "../../server/accounts/request-info";
import { rememberSignUpAddress } from "../../server/accounts/sign-up-address";
import { appContext } from "../../server/context";
import {
  AccountFrame,
  linkClass,
  SubmitButton,
  useClearOnResult,
} from "../components/accounts/account-frame";
import { ExternalSignIn } from "../components/accounts/external-sign-in";
import { NewPasswordFields } from "../components/accounts/new-password-fields";
import { ErrorSummary, TextField } from "../components/form/field";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/signup";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "会員登録",
    description: "Salon Naviの会員登録（無料）。メールアドレスとパスワードで登録できます。",
    path: "/signup",
    origin: originFromMatches(matches),
  });

export function loader({ request, context }: Route.LoaderArgs) {
  const { accounts } = context.get(appContext);
  // Where a visitor was going (a held time): the verification link leads back there.
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirect"), "");
  return { policy: accounts.policy, providers: accounts.providers, redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { accounts } = context.get(appContext);
  const form = await request.formData();
  const values = formValues(form, ["email"]);
  const redirectTo = safeRedirectPath(form.get("redirect"), "");
  const parsed = signUpSchema(accounts.policy).safeParse({
    ...values,
    password: String(form.get("password") ?? ""),
    passwordConfirm: String(form.get("passwordConfirm") ?? ""),
  });
  if (!parsed.success) {
    return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
  }
  try {
    const headers = await signUpWithPassword(
      accounts,
      { ...parsed.data, redirectTo: redirectTo || undefined },
      request,
    );
    const { config } = context.get(appContext);
    headers.append("set-cookie", rememberSignUpAddress(parsed.data.email, config.isProduction));
    return redirect("/finish_sign_up", { headers });
  } catch (error) {
    return authFailure(error, values);
  }
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const clearKey = useClearOnResult(actionData);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  return (
    <AccountFrame
      title="会員登録"
      lead="メールアドレスとパスワードを入力してください。確認メールをお送りします。"
    >
      <Form method="post" noValidate className="flex flex-col gap-5">
        <ErrorSummary errors={errors} />
        <input type="hidden" name="redirect" value={loaderData.redirectTo} />
        <TextField
          id="signup-email"
          name="email"
          type="email"
          label="メールアドレス"
          autoComplete="email"
          required
          defaultValue={actionData?.values.email}
          error={errors.email}
        />
        <NewPasswordFields
          idPrefix="signup-password"
          name="password"
          label="パスワード"
          policy={loaderData.policy}
          clearKey={clearKey}
          errors={errors}
        />
        <SubmitButton busy={busy}>登録する</SubmitButton>
      </Form>
      <ExternalSignIn
        providers={loaderData.providers}
        redirectTo={loaderData.redirectTo || undefined}
      />
      <p>
        すでに会員の方は{" "}
        <Link
          to={
            loaderData.redirectTo
              ? `/signin?redirect=${encodeURIComponent(loaderData.redirectTo)}`
              : "/signin"
          }
          className={linkClass}
        >
          ログイン
        </Link>
      </p>
    </AccountFrame>
  );
}
