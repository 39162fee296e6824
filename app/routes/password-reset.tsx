import { data, redirect } from "react-router";
import { authErrorMessage } from "../../common/auth-errors";
import { fieldErrors } from "../../common/field-rules";
import { emailOnlySchema, newPasswordSchema } from "../../server/accounts/account.schema";
import { authErrorCodeOf } from "../../server/accounts/auth-error";
import { authFailure, formValues } from "../../server/accounts/form-result";
import { requestPasswordReset, resetPassword } from "../../server/accounts/identity";
import { appContext } from "../../server/context";
import { PasswordResetForms } from "../components/accounts/password-reset-forms";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/password-reset";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "パスワード再設定",
    description: "Salon Naviのパスワードを再設定します。",
    path: "/password-reset",
    origin: originFromMatches(matches),
  });

/** Without a token: ask for the address. With ?token= (from the mail): the new password. */
export function loader({ request, context }: Route.LoaderArgs) {
  const { accounts } = context.get(appContext);
  const params = new URL(request.url).searchParams;
  const error = params.get("error");
  return {
    policy: accounts.policy,
    token: params.get("token") ?? "",
    error: error ? authErrorMessage(authErrorCodeOf(error)) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { accounts } = context.get(appContext);
  const form = await request.formData();
  const values = formValues(form, ["email", "token"]);
  try {
    if (values.token) {
      const parsed = newPasswordSchema(accounts.policy).safeParse({
        token: values.token,
        password: String(form.get("password") ?? ""),
        passwordConfirm: String(form.get("passwordConfirm") ?? ""),
      });
      if (!parsed.success) {
        return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
      }
      await resetPassword(accounts, parsed.data, request);
      return redirect("/finish_password_reset?done=1");
    }
    const parsed = emailOnlySchema.safeParse(values);
    if (!parsed.success) {
      return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
    }
    await requestPasswordReset(accounts, parsed.data, request);
    return redirect("/finish_password_reset");
  } catch (error) {
    return authFailure(error, values);
  }
}

export default function PasswordReset({ loaderData, actionData }: Route.ComponentProps) {
  return <PasswordResetForms {...loaderData} actionData={actionData} />;
}
