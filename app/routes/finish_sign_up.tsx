import { Form, Link } from "react-router";
import { authErrorMessage } from "../../common/auth-errors";
import { authErrorCodeOf } from "../../server/accounts/auth-error";
import { accountEditPath } from "../../server/accounts/guards";
import { safeRedirectPath } from "../../server/accounts/request-info";
import { AccountFrame, linkClass, Notice } from "../components/accounts/account-frame";
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
  };
}

export default function FinishSignUp({ loaderData }: Route.ComponentProps) {
  if (loaderData.error) {
    return (
      <AccountFrame title="メールアドレスを確認できませんでした">
        <Notice tone="error">{loaderData.error}</Notice>
        <ResendButton />
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
      <Notice>
        ご登録のメールアドレスに確認メールをお送りしました。メールに記載のリンクを1時間以内に開いて、登録を完了してください。
      </Notice>
      <p className="text-sm text-neutral-700">
        メールが届かない場合は、迷惑メールフォルダをご確認ください。
      </p>
      <ResendButton />
    </AccountFrame>
  );
}

/**
 * Resends at once: it posts to /mail_not_confirm's action (signed-in only;
 * a guest is sent to sign in first). It was a link to that page, whose own
 * button then had to be pressed a second time.
 */
function ResendButton() {
  return (
    <Form method="post" action="/mail_not_confirm">
      <button type="submit" className={`${linkClass} text-sm`}>
        確認メールを再送する
      </button>
    </Form>
  );
}
