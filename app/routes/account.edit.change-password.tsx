import { data, Form, Link, redirect, useNavigation } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { changePasswordSchema } from "../../server/accounts/account.schema";
import { authFailure } from "../../server/accounts/form-result";
import { requireLogin } from "../../server/accounts/guards";
import { changePassword } from "../../server/accounts/identity";
import { appContext } from "../../server/context";
import {
  AccountFrame,
  linkClass,
  SubmitButton,
  useClearOnResult,
} from "../components/accounts/account-frame";
import { NewPasswordFields } from "../components/accounts/new-password-fields";
import { ErrorSummary, TextField } from "../components/form/field";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.edit.change-password";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "パスワードの変更",
    description: "ログインに使うパスワードを変更します",
    path: "/account/edit/change-password",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

// Guard (SPEC.md §2): is-login.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  await requireLogin(request, ctx);
  return { policy: ctx.accounts.policy };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  await requireLogin(request, ctx);
  const form = await request.formData();
  const parsed = changePasswordSchema(ctx.accounts.policy).safeParse({
    currentPassword: String(form.get("currentPassword") ?? ""),
    newPassword: String(form.get("newPassword") ?? ""),
    passwordConfirm: String(form.get("passwordConfirm") ?? ""),
  });
  if (!parsed.success) {
    return data({ errors: fieldErrors<string>(parsed.error), values: {} }, { status: 400 });
  }
  try {
    const headers = await changePassword(ctx.accounts, parsed.data, request);
    return redirect("/account/edit/change-password/thanks", { headers });
  } catch (error) {
    // The user is signed in, so naming the wrong field reveals nothing (unlike sign-in).
    return authFailure(
      error,
      {},
      {
        "wrong-password": {
          field: "currentPassword",
          message: "現在のパスワードが正しくありません。",
        },
      },
    );
  }
}

export default function ChangePassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const clearKey = useClearOnResult(actionData);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  return (
    <AccountFrame title="パスワードの変更">
      <Form method="post" noValidate className="flex flex-col gap-5">
        <ErrorSummary errors={errors} />
        <TextField
          id="current-password"
          name="currentPassword"
          key={clearKey}
          type="password"
          label="現在のパスワード"
          autoComplete="current-password"
          required
          error={errors.currentPassword}
        />
        <NewPasswordFields
          idPrefix="new-password"
          name="newPassword"
          label="新しいパスワード"
          policy={loaderData.policy}
          clearKey={clearKey}
          errors={errors}
        />
        <SubmitButton busy={busy}>パスワードを変更する</SubmitButton>
      </Form>
      <p>
        <Link to="/account/edit" className={linkClass}>
          アカウント編集に戻る
        </Link>
      </p>
    </AccountFrame>
  );
}
