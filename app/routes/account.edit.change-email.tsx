import { data, Form, Link, redirect, useNavigation } from "react-router";
import { fieldErrors } from "../../common/field-rules";
import { changeEmailSchema } from "../../server/accounts/account.schema";
import { hasPassword } from "../../server/accounts/email-change";
import { authFailure, formValues } from "../../server/accounts/form-result";
import { requireLogin } from "../../server/accounts/guards";
import { requestEmailChange } from "../../server/accounts/identity";
import { appContext } from "../../server/context";
import {
  AccountFrame,
  linkClass,
  SubmitButton,
  useClearOnResult,
} from "../components/accounts/account-frame";
import { ErrorSummary, TextField } from "../components/form/field";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/account.edit.change-email";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "メールアドレスの変更",
    description: "ログインに使うメールアドレスを変更します",
    path: "/account/edit/change-email",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

// Guard (SPEC.md §2): is-login.
export async function loader({ request, context }: Route.LoaderArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  return { email: user.email, hasPassword: await hasPassword(ctx.db, user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const form = await request.formData();
  // The password is never sent back into the form.
  const values = formValues(form, ["email"]);
  const parsed = changeEmailSchema(await hasPassword(ctx.db, user.id)).safeParse({
    ...values,
    currentPassword: String(form.get("currentPassword") ?? ""),
  });
  if (!parsed.success) {
    return data({ errors: fieldErrors<string>(parsed.error), values }, { status: 400 });
  }
  if (parsed.data.email.toLowerCase() === user.email.toLowerCase()) {
    const errors = {
      email: "現在と同じメールアドレスです。新しいメールアドレスを入力してください。",
    };
    return data({ errors: errors as Record<string, string>, values }, { status: 400 });
  }
  try {
    await requestEmailChange(ctx.accounts, parsed.data, request);
    return redirect("/account/edit/change-email/finish-request");
  } catch (error) {
    // The user is signed in, so naming the wrong field reveals nothing (unlike sign-in).
    return authFailure(error, values, {
      "wrong-password": {
        field: "currentPassword",
        message: "現在のパスワードが正しくありません。",
      },
    });
  }
}

export default function ChangeEmail({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const clearKey = useClearOnResult(actionData);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  return (
    <AccountFrame
      title="メールアドレスの変更"
      lead={`現在のメールアドレス：${loaderData.email}。新しいアドレスに確認メールをお送りし、リンクを開くと変更が完了します。現在のアドレスにも、お申し込みがあったことをお知らせします。`}
    >
      <Form method="post" noValidate className="flex flex-col gap-5">
        <ErrorSummary errors={errors} />
        <TextField
          id="change-email"
          name="email"
          type="email"
          label="新しいメールアドレス"
          autoComplete="email"
          required
          defaultValue={actionData?.values.email}
          error={errors.email}
        />
        {loaderData.hasPassword ? (
          <TextField
            id="change-email-password"
            name="currentPassword"
            key={clearKey}
            type="password"
            label="現在のパスワード"
            hint="ご本人の確認のため入力してください。"
            autoComplete="current-password"
            required
            error={errors.currentPassword}
          />
        ) : (
          <p className="text-sm text-neutral-700">
            パスワードを設定していないため、ログインから10分以内に限り変更できます。時間が過ぎた場合は、もう一度ログインしてください。
          </p>
        )}
        <SubmitButton busy={busy}>確認メールを送る</SubmitButton>
      </Form>
      <p>
        <Link to="/account/edit" className={linkClass}>
          アカウント編集に戻る
        </Link>
      </p>
    </AccountFrame>
  );
}
