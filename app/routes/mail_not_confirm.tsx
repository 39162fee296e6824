import { Form, Link, redirect } from "react-router";
import { authFailure } from "../../server/accounts/form-result";
import { requireLogin } from "../../server/accounts/guards";
import { resendVerificationMail } from "../../server/accounts/identity";
import { safeRedirectPath } from "../../server/accounts/request-info";
import { appContext } from "../../server/context";
import {
  AccountFrame,
  linkClass,
  Notice,
  SubmitButton,
} from "../components/accounts/account-frame";
import { ErrorSummary } from "../components/form/field";
import { originFromMatches, pageMeta } from "../lib/meta";
import type { Route } from "./+types/mail_not_confirm";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({
    title: "メールアドレスが確認されていません",
    description: "メールアドレスの確認が必要です",
    path: "/mail_not_confirm",
    origin: originFromMatches(matches),
  }),
  { name: "robots", content: "noindex" },
];

// Guard (SPEC.md §2): is-login.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireLogin(request, context.get(appContext));
  // Where the new link leads once confirmed (e.g. the booking page's held time).
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirect"), "");
  return { email: user.email, verified: user.emailVerified, redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const user = await requireLogin(request, ctx);
  const form = await request.formData();
  // Already verified (another tab, or a stale page): the page says so; nothing to send.
  if (user.emailVerified) return redirect("/mail_not_confirm");
  try {
    const redirectTo = safeRedirectPath(form.get("redirect"), "") || undefined;
    await resendVerificationMail(ctx.accounts, { email: user.email, redirectTo }, request);
    return redirect("/finish_resend_email");
  } catch (error) {
    return authFailure(error, {});
  }
}

export default function MailNotConfirm({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.verified) {
    return (
      <AccountFrame title="メールアドレスは確認済みです">
        <Notice>このアカウントのメールアドレスは確認済みです。</Notice>
        <p>
          <Link to="/account/edit" className={linkClass}>
            アカウント編集へ
          </Link>
        </p>
      </AccountFrame>
    );
  }
  return (
    <AccountFrame
      title="メールアドレスが確認されていません"
      lead={`このページを利用するには、メールアドレス（${loaderData.email}）の確認が必要です。確認メールのリンクを開いてください。`}
    >
      <Form method="post" className="flex flex-col gap-4">
        <ErrorSummary errors={actionData?.errors ?? {}} />
        <input type="hidden" name="redirect" value={loaderData.redirectTo} />
        <SubmitButton>確認メールを再送する</SubmitButton>
      </Form>
    </AccountFrame>
  );
}
